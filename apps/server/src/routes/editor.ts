// The PDF editor's calls: the save (document/content, a task of the edit tool) and its reads. The
// reads are POSTs so that a file's password travels in the body, never in a URL.
import {
  EDIT_BODY_BYTES,
  editFileRequest,
  editFontQuery,
  editPageRequest,
  editRequest,
  formFields,
  pageObjects,
  pageRuns,
  taskCreated,
} from '@quire/contracts';
import { formFieldsOf, pageObjectsOf, pageRunsOf, sendEditFont } from '../services/editor.js';
import type { Call, CallContext } from './calls.js';

const base = '/api/tools/v1/document/';

const reads = [
  [
    'runs',
    "A page's text as runs of one font, size and colour, with their paragraphs (ids stable for an unchanged file)",
    editPageRequest,
    pageRuns,
    pageRunsOf,
  ],
  [
    'objects',
    "A page's images and annotations, with the ids the editor's operations name them by",
    editPageRequest,
    pageObjects,
    pageObjectsOf,
  ],
  ['form-fields', "The document's form fields: name, type, value, options, page and place", editFileRequest, formFields, formFieldsOf],
] as const;

export function editorCalls(queueTask: (c: CallContext, toolId: string, params: unknown) => Promise<unknown>): Call[] {
  return [
    {
      method: 'POST',
      path: `${base}content`,
      summary:
        "Save the editor's operations (edit or annotate mode) as a task whose output is the edited PDF; " +
        '4201 for an id the page lacks, 4202 for a page the document lacks, 4203 for an unreadable image, 4204 for a form field, 4205 past the bounds',
      body: editRequest,
      response: taskCreated,
      rateLimit: 'task',
      holds: true,
      bodyLimit: EDIT_BODY_BYTES,
      handler: ({ body }, c) => queueTask(c, 'edit', body),
    },
    {
      method: 'GET',
      path: `${base}font`,
      summary: "A font family's file (TrueType or OpenType) as saved edits embed it, cached a day; 4206 for a family not installed",
      query: editFontQuery,
      sendsFile: true,
      handler: ({ query }, c) => sendEditFont(c.reply, query.family, query.style),
    },
    ...reads.map(
      ([name, summary, body, response, read]): Call => ({
        method: 'POST',
        path: base + name,
        summary,
        body,
        response,
        handler: ({ body }, c) => read(c.ctx, c.ownerId, body),
      }),
    ),
  ];
}
