// The template gallery (/api/templates/v1/): anyone may browse, download and use a template.
import {
  templateIndex as templateIndexAnswer,
  templateIndexQuery,
  templateList as templateListAnswer,
  templateListQuery,
  templateQuery,
  templateSummary,
  templateUses,
} from '@quire/contracts';
import type { FastifyRequest } from 'fastify';
import { addTemplateUse, sendTemplate, sendTemplateThumbnail, templateDetail, templateIndex, templateList } from '../services/templates.js';
import type { Call } from './calls.js';

const base = '/api/templates/v1/';

/** The `lang` query, else the product's Lang header, else English. */
const langOf = (query: { lang?: string }, req: FastifyRequest) => (query.lang || String(req.headers.lang ?? '') || 'en-us').toLowerCase();

export function templateCalls(): Call[] {
  return [
    {
      method: 'GET',
      path: `${base}index`,
      summary: 'The categories with their counts, and the most used templates',
      query: templateIndexQuery,
      response: templateIndexAnswer,
      handler: ({ query }, c) => templateIndex(c.ctx, langOf(query, c.req)),
    },
    {
      method: 'GET',
      path: `${base}list`,
      summary: "One page of a category's (or every) template, found by words and sorted by popularity, date or name",
      query: templateListQuery,
      response: templateListAnswer,
      handler: ({ query }, c) => templateList(c.ctx, langOf(query, c.req), query),
    },
    {
      method: 'GET',
      path: `${base}detail`,
      summary: 'One template; 2405 for an id that is none',
      query: templateQuery,
      response: templateSummary,
      handler: ({ query }, c) => templateDetail(c.ctx, langOf(query, c.req), query.template_id),
    },
    {
      method: 'GET',
      path: `${base}download-file`,
      summary: "The template's PDF",
      query: templateQuery,
      sendsFile: true,
      handler: ({ query }, c) => sendTemplate(c.ctx, c.reply, query.template_id),
    },
    {
      method: 'GET',
      path: `${base}add-num`,
      summary: 'Count one use of the template (opened in the editor or downloaded); answers the new count',
      query: templateQuery,
      response: templateUses,
      handler: ({ query }, c) => addTemplateUse(c.ctx, query.template_id),
    },
    {
      method: 'GET',
      path: `${base}thumbnail`,
      summary: "The template's first page as a PNG (drawn once, then cached)",
      query: templateQuery,
      sendsFile: true,
      handler: ({ query }, c) => sendTemplateThumbnail(c.ctx, c.reply, query.template_id),
    },
  ];
}
