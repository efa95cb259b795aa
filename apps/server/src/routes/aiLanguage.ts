// The AI layer's language calls (/api/ai/v2/): translation, proofreading, explanations and
// rewriting, each also streamed (…/stream). Signed-in accounts only (3001 for a visitor): each call
// charges the words it reads as tokens (classic) or what the model counted.
import {
  explainAnswer,
  explainRequest,
  proofreadAnswer,
  proofreadFileRequest,
  proofreadRequest,
  proofreadLanguages as proofreadLanguagesAnswer,
  rewriteAnswer,
  rewriteRequest,
  taskCreated,
  translateFileRequest,
  translateTextAnswer,
  translateTextRequest,
  translationLanguages as translationLanguagesAnswer,
} from '@quire/contracts';
import { z } from 'zod';
import {
  explain,
  proofread,
  proofreadFileText,
  proofreadLanguages,
  rewrite,
  translateFile,
  translateText,
  translationLanguages,
} from '../services/aiLanguage.js';
import { aiCall, streamTool } from './ai.js';
import type { Call, CallContext } from './calls.js';

type QueueTask = (c: CallContext, toolId: 'translate_pdf', params: unknown) => Promise<z.infer<typeof taskCreated>>;

export function aiLanguageCalls(queueTask: QueueTask): Call[] {
  return [
    aiCall({
      method: 'GET',
      path: 'translate/languages',
      summary: 'The translation directions installed on this server (Apertium pairs), direct or through a pivot language',
      response: translationLanguagesAnswer,
      handler: (_, c) => translationLanguages(c.ctx),
    }),
    aiCall({
      method: 'POST',
      path: 'translate/text',
      summary: 'Translate text; 11021 for a pair not installed; charges its words as tokens (11003 without enough)',
      body: translateTextRequest,
      response: translateTextAnswer,
      handler: ({ body }, c) => translateText(c.ctx, c.identity, body),
    }),
    aiCall({
      method: 'POST',
      path: 'translate/text/stream',
      summary: 'translate/text streamed as events: the translation as it is written, then the whole answer (result), then done',
      body: translateTextRequest,
      streams: true,
      handler: ({ body }, c) => streamTool(c, (stream) => translateText(c.ctx, c.identity, body, stream)),
    }),
    aiCall({
      method: 'POST',
      path: 'translate/file',
      summary:
        'Translate a PDF into a new PDF with the same layout (a task: get-task-result, download-doc); 11021 for a pair not offered; ' +
        "4012 and 4013 past the plan's AI file size and pages; charges the document's words as tokens, or with a model what it counts",
      body: translateFileRequest,
      response: taskCreated.extend({
        tokens: z
          .number()
          .int()
          .min(0)
          .describe(
            "Tokens charged now: the document's words; 0 with a model, whose answers are charged as the task runs (its note says how many)",
          ),
      }),
      rateLimit: 'task',
      holds: true,
      handler: ({ body }, c) => translateFile(c.ctx, c.identity, c.ownerId, body, () => queueTask(c, 'translate_pdf', body)),
    }),
    aiCall({
      method: 'GET',
      path: 'proofread/languages',
      summary: 'The proofreading languages of this server: one per Hunspell dictionary installed, as proofread takes them',
      response: proofreadLanguagesAnswer,
      handler: () => proofreadLanguages(),
    }),
    aiCall({
      method: 'POST',
      path: 'proofread/text',
      summary:
        'Spelling (Hunspell), doubled words and wordy phrases (diction) and passive voice (style) of a text, with the corrected text; ' +
        '11021 for a language without a dictionary',
      body: proofreadRequest,
      response: proofreadAnswer,
      handler: ({ body }, c) => proofread(c.ctx, c.identity, body),
    }),
    aiCall({
      method: 'POST',
      path: 'proofread/text/stream',
      summary: 'proofread/text streamed as events: the corrected text as it is written, then the issues (result), then done',
      body: proofreadRequest,
      streams: true,
      handler: ({ body }, c) => streamTool(c, (stream) => proofread(c.ctx, c.identity, body, stream)),
    }),
    aiCall({
      method: 'POST',
      path: 'proofread/file',
      summary: "Proofread an uploaded PDF's text (its first pages, as many as the plan's AI analysis reads); as proofread/text",
      body: proofreadFileRequest,
      response: proofreadAnswer,
      handler: async ({ body }, c) =>
        proofread(c.ctx, c.identity, { text: await proofreadFileText(c.ctx, c.identity, c.ownerId, body), lang: body.lang }),
    }),
    aiCall({
      method: 'POST',
      path: 'proofread/file/stream',
      summary: 'proofread/file streamed as proofread/text/stream is; the file is read first (2405, 11005 as envelopes)',
      body: proofreadFileRequest,
      streams: true,
      handler: async ({ body }, c) => {
        const text = await proofreadFileText(c.ctx, c.identity, c.ownerId, body);
        await streamTool(c, (stream) => proofread(c.ctx, c.identity, { text, lang: body.lang }, stream));
      },
    }),
    aiCall({
      method: 'POST',
      path: 'explain',
      summary: 'WordNet definitions of a word or phrase, its part of speech chosen from the sentence it is in',
      body: explainRequest,
      response: explainAnswer,
      handler: ({ body }, c) => explain(c.ctx, c.identity, body),
    }),
    aiCall({
      method: 'POST',
      path: 'explain/stream',
      summary:
        "explain streamed as events: a model's explanation as it is written (none without a model), then the senses (result), then done",
      body: explainRequest,
      streams: true,
      handler: ({ body }, c) => streamTool(c, (stream) => explain(c.ctx, c.identity, body, stream)),
    }),
    aiCall({
      method: 'POST',
      path: 'rewrite',
      summary:
        'Rewrite English text by rules (plainer words, long sentences split, passive voice flagged), with a note that a model does more',
      body: rewriteRequest,
      response: rewriteAnswer,
      handler: ({ body }, c) => rewrite(c.ctx, c.identity, body),
    }),
    aiCall({
      method: 'POST',
      path: 'rewrite/stream',
      summary: 'rewrite streamed as events: the rewritten text as it is written, then the changes and note (result), then done',
      body: rewriteRequest,
      streams: true,
      handler: ({ body }, c) => streamTool(c, (stream) => rewrite(c.ctx, c.identity, body, stream)),
    }),
  ];
}
