// The template gallery's calls under /api/templates/v1/, in the language of the page.
import type {
  templateIndex,
  templateList,
  templateSummary,
  templateUses,
  TemplateIndex,
  TemplateList,
  TemplateListQuery,
  TemplateSummary,
} from '@quire/contracts';
import { getJson, urlWithQuery, type Query, type Answer } from './client';

const TEMPLATES_BASE = '/api/templates/v1/';

export const templatesUrl = (path: string, query: Query = {}) => urlWithQuery(TEMPLATES_BASE, path, query);

export const fetchTemplateIndex = (lang: string, signal?: AbortSignal): Promise<TemplateIndex> =>
  getJson<Answer<typeof templateIndex>>(templatesUrl('index', { lang }), signal);

export const fetchTemplateList = (query: TemplateListQuery, signal?: AbortSignal): Promise<TemplateList> =>
  getJson<Answer<typeof templateList>>(templatesUrl('list', query as Query), signal);

export const fetchTemplate = (templateId: string, lang: string, signal?: AbortSignal): Promise<TemplateSummary> =>
  getJson<Answer<typeof templateSummary>>(templatesUrl('detail', { template_id: templateId, lang }), signal);

/** Counts a use of the template (opened in the editor or downloaded) and answers the new count. */
export const addTemplateUse = async (templateId: string): Promise<number> =>
  (await getJson<Answer<typeof templateUses>>(templatesUrl('add-num', { template_id: templateId }))).uses;

export const templateFileUrl = (templateId: string) => templatesUrl('download-file', { template_id: templateId });
export const templateThumbnailUrl = (templateId: string) => templatesUrl('thumbnail', { template_id: templateId });
