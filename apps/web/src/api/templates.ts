// The template gallery's calls under /api/templates/v1/, in the language of the page.
import {
  templateIndex,
  templateList,
  templateSummary,
  templateUses,
  type TemplateIndex,
  type TemplateList,
  type TemplateListQuery,
  type TemplateSummary,
} from '@quire/contracts';
import { getJson, urlWithQuery, type Query } from './client';

const TEMPLATES_BASE = '/api/templates/v1/';

export const templatesUrl = (path: string, query: Query = {}) => urlWithQuery(TEMPLATES_BASE, path, query);

export const fetchTemplateIndex = (lang: string, signal?: AbortSignal): Promise<TemplateIndex> =>
  getJson(templatesUrl('index', { lang }), templateIndex, signal);

export const fetchTemplateList = (query: TemplateListQuery, signal?: AbortSignal): Promise<TemplateList> =>
  getJson(templatesUrl('list', query as Query), templateList, signal);

export const fetchTemplate = (templateId: string, lang: string, signal?: AbortSignal): Promise<TemplateSummary> =>
  getJson(templatesUrl('detail', { template_id: templateId, lang }), templateSummary, signal);

/** Counts a use of the template (opened in the editor or downloaded) and answers the new count. */
export const addTemplateUse = async (templateId: string): Promise<number> =>
  (await getJson(templatesUrl('add-num', { template_id: templateId }), templateUses)).uses;

export const templateFileUrl = (templateId: string) => templatesUrl('download-file', { template_id: templateId });
export const templateThumbnailUrl = (templateId: string) => templatesUrl('thumbnail', { template_id: templateId });
