// The gallery's pieces free of React: category names, the preview page's path, and the gallery's
// state as it is kept in the URL's query (so Back and a shared link restore it).
import {
  type CUSTOM_TEMPLATE_CATEGORY,
  type shippedTemplateCategories,
  templateSorts,
  type TemplateSort,
  type TemplateSummary,
} from '@quire/contracts';
import type { MessageKey } from '../i18n/translate';

export const templateCategoryKeys: Record<(typeof shippedTemplateCategories)[number] | typeof CUSTOM_TEMPLATE_CATEGORY, MessageKey> = {
  invoices: 'templates.category.invoices',
  resumes: 'templates.category.resumes',
  letters: 'templates.category.letters',
  certificates: 'templates.category.certificates',
  forms: 'templates.category.forms',
  planners: 'templates.category.planners',
  custom: 'templates.category.custom',
};

export const sortKeys: Record<TemplateSort, MessageKey> = {
  popular: 'templates.sort.popular',
  newest: 'templates.sort.newest',
  name: 'templates.sort.name',
};

/** A category's name: ours translated, an operator's as its id says ("school-forms" → "School forms"). */
export function categoryName(catId: string, t: (key: MessageKey) => string): string {
  if (Object.hasOwn(templateCategoryKeys, catId)) return t(templateCategoryKeys[catId as keyof typeof templateCategoryKeys]);
  const words = catId.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const slugOf = (text: string) =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '') || 'template';

/** The product's preview path /template/{cat}/{title}/{id}/{catId}: the readable parts are for people, the ids for the page. */
export const templatePreviewPath = (t: Pick<TemplateSummary, 'id' | 'cat_id' | 'title'>) =>
  `/template/${encodeURIComponent(t.cat_id)}/${encodeURIComponent(slugOf(t.title))}/${encodeURIComponent(t.id)}/${encodeURIComponent(t.cat_id)}`;

/** Where "Use this template" opens it: the editor, which loads it by download-file. */
export const editorPathFor = (templateId: string) => `/app/pdf-editor?template_id=${encodeURIComponent(templateId)}`;

export const GALLERY_PAGE_SIZE = 24;

export interface GalleryState {
  catId: string;
  search: string;
  sort: TemplateSort;
  page: number;
}

export function galleryStateOf(params: URLSearchParams): GalleryState {
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    catId: params.get('cat') ?? '',
    search: params.get('q') ?? '',
    sort: (templateSorts as readonly string[]).includes(sort ?? '') ? (sort as TemplateSort) : 'popular',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The query of a state, leaving out what is the default. */
export function galleryParams(state: GalleryState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.catId) params.set('cat', state.catId);
  if (state.search) params.set('q', state.search);
  if (state.sort !== 'popular') params.set('sort', state.sort);
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}
