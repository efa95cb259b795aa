// The template gallery's categories and sorts, without zod: the page's shell imports them (ADR 0542).

/** The categories Quire ships templates in, in the gallery's order; an operator's may add others. */
export const shippedTemplateCategories = ['invoices', 'resumes', 'letters', 'certificates', 'forms', 'planners'] as const;
/** An operator's template without a category in its side-car. */
export const CUSTOM_TEMPLATE_CATEGORY = 'custom';

export const templateSorts = ['popular', 'newest', 'name'] as const;
export type TemplateSort = (typeof templateSorts)[number];
