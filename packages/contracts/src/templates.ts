// The template gallery's calls (/api/templates/v1/): the product's pdfTemplate/template calls, plus
// detail and thumbnail, which its preview page needs. Anyone may call them, visitors too.
import { z } from 'zod';
import { templateSorts } from './templateRules.js';

const lang = z.string().max(10).optional().describe('The language of titles and descriptions (else the Lang header, else English)');
const templateId = z.string().min(1).max(200);

export const templateSummary = z.object({
  id: templateId,
  cat_id: z.string().describe('The category: one of the shipped ones, "custom", or one an operator named'),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  pages: z.number().int(),
  uses: z.number().int().describe('How many times the template was used (add-num)'),
  form: z.boolean().describe('Whether the PDF has form fields to fill'),
  added_at: z.number().int().describe('Epoch ms the PDF was made or added'),
});
export type TemplateSummary = z.infer<typeof templateSummary>;

export const templateCategory = z.object({ cat_id: z.string(), count: z.number().int() });
export const templateIndexQuery = z.object({ lang });
export const templateIndex = z.object({
  categories: z.array(templateCategory),
  featured: z.array(templateSummary).describe('The most used templates'),
});
export type TemplateIndex = z.infer<typeof templateIndex>;

export const TEMPLATE_PAGE_SIZE_MAX = 60;
export const templateListQuery = z.object({
  lang,
  cat_id: z.string().max(100).optional(),
  search: z.string().max(200).optional().describe('Words each found in the title, description or tags (case-insensitive)'),
  sort: z.enum(templateSorts).default('popular'),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(TEMPLATE_PAGE_SIZE_MAX).default(24),
});
export type TemplateListQuery = z.input<typeof templateListQuery>;
export const templateList = z.object({
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  templates: z.array(templateSummary),
});
export type TemplateList = z.infer<typeof templateList>;

export const templateQuery = z.object({ lang, template_id: templateId });
export const templateUses = z.object({ uses: z.number().int() });
