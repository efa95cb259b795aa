// Chat with PDF's calls against a real server: the AI status flow, the classic summary and
// answers checked against pdftotext's own reading of the file, streaming (the events read as a
// browser reads them), cancelling, conversations and notes, and the quotas per role, just under
// and just over, also when requests race.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits, ErrorCode, withOverride } from '@quire/contracts';
import { Client, quireForTests, readEvents, signedIn, startQuire, type Envelope } from './harness.js';
import { encryptPdf, makePdf } from './fixtures.js';
import { startOpenAiServer, type OpenAiTestServer } from './openaiServer.js';
import { tinyModelTokens, writeTinyModel } from './tinyModel.js';

const corpus = path.resolve(import.meta.dirname, '../../../test-corpus/pdfjs');
/** The Bitcoin paper's first page: a page of prose. */
const BITCOIN = path.join(corpus, 'issue13201.pdf');
/** Nine pages, a heading and a line each, with nested bookmarks. */
const OUTLINED = path.join(corpus, 'nested_outline.pdf');

/** Small quotas, so that each limit is reached in a few calls; the free plan analyses 4 pages. */
const limits = withOverride(defaultLimits, {
  free: { ai: { tokens: 1000, questions: 3, pagesPerAnalysis: 4 } },
  premium: { ai: { tokens: 1000, questions: 3 } },
  ai: { ai: { tokens: 1000, questions: 3 } },
});
const served = quireForTests('ai', { limits });

const AI = '/api/ai/v2/';
let emails = 0;
const account = (plan: 'free' | 'premium' | 'ai' = 'free') =>
  signedIn(served.quire.url, served.quire.ctx, `ai-${emails++}@example.org`, plan);

async function post(client: Client, call: string, body: unknown): Promise<Envelope> {
  const res = await client.raw(AI + call, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as Envelope;
}
async function get(client: Client, call: string): Promise<Envelope> {
  return (await (await client.raw(AI + call)).json()) as Envelope;
}

/** Uploads a file and waits for its analysis; answers its id and every status seen, in order. */
async function analysed(client: Client, file: string): Promise<{ fileId: string; statuses: string[]; info: Envelope['data'] }> {
  const fileId = await client.uploadId(file);
  const statuses: string[] = [];
  for (;;) {
    const info = await post(client, 'file/info', { file_id: fileId });
    expect(info.code).toBe(0);
    if (statuses.at(-1) !== info.data.status) statuses.push(info.data.status);
    if (info.data.status === 'success' || info.data.status === 'failed') return { fileId, statuses, info: info.data };
    await new Promise((r) => setTimeout(r, 20));
  }
}

const streamOf = (client: Client, call: string, body: unknown) =>
  client.raw(AI + call, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Words as an independent count: runs of letters and digits with their inner apostrophes and hyphens. */
const words = (text: string) => (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length;
const pdftotext = (file: string, first = 1, last = 1000) =>
  execFileSync('pdftotext', ['-f', String(first), '-l', String(last), '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(
    /\s+/g,
    ' ',
  );
const squeeze = (s: string) => s.replace(/\s+/g, ' ').replace(/-\s/g, '-');

describe('chat with PDF', () => {
  let owner: Client;
  let bitcoin: string;

  beforeAll(async () => {
    owner = await account('free');
    bitcoin = (await analysed(owner, BITCOIN)).fileId;
  }, 60_000);

  it('asks a visitor to sign in first', async () => {
    const visitor = new Client(served.quire.url);
    const fileId = await visitor.uploadId(BITCOIN);
    expect((await post(visitor, 'file/info', { file_id: fileId })).code).toBe(ErrorCode.NotLogin);
    expect((await get(visitor, 'chat/gpt-token/check')).code).toBe(ErrorCode.NotLogin);
    const stream = await streamOf(visitor, 'chat/completion/stream', { file_id: fileId, question: 'Who?' });
    expect([stream.status, ((await stream.json()) as Envelope).code]).toEqual([401, ErrorCode.NotLogin]);
  });

  it('moves a file through init, uploading, analyses to success, reading only the plan’s first pages', async () => {
    const client = await account('free');
    const { statuses, info } = await analysed(client, OUTLINED);
    const order = ['init', 'uploading', 'analyses', 'success'];
    expect(statuses.at(-1)).toBe('success');
    expect(statuses.map((s) => order.indexOf(s))).toEqual([...statuses.map((s) => order.indexOf(s))].sort());
    expect(info).toMatchObject({ total_page: 9, analysed_pages: 4 });
    // Its nine pages hold fewer than 250 characters in their first four: nothing to summarise.
    expect(pdftotext(OUTLINED, 1, 4).trim().length).toBeLessThan(250);
    expect((await post(client, 'chat/summary', { file_id: info.file_id })).code).toBe(ErrorCode.TextTooShort);
    // A question about page 7 finds nothing: the pages past the analysis were not read.
    const answer = await post(client, 'chat/completion', { file_id: info.file_id, question: 'What is the content for Future Work?' });
    expect(answer.code).toBe(0);
    expect(answer.data.citations.every((c: { page: number }) => c.page <= 4)).toBe(true);
    expect(pdftotext(OUTLINED, 9, 9)).toContain('Future Work');
  });

  it('analyses a document cloud file by its cloud id, as chat-pdf uploads to the cloud', async () => {
    const client = await account('free');
    const upload = await client.uploadId(BITCOIN);
    const res = await client.raw('/api/cloud/v1/file/create', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ upload_file_id: upload }),
    });
    const cloudId = ((await res.json()) as Envelope).data.file_id;
    let info: Envelope;
    do info = await post(client, 'file/info', { file_id: cloudId });
    while (info.data.status !== 'success' && info.data.status !== 'failed');
    expect(info.data).toMatchObject({ file_id: cloudId, file_name: 'issue13201.pdf', status: 'success', analysed_pages: 1 });
    const answer = await post(client, 'chat/completion', { file_id: cloudId, question: 'Who controls more CPU power?' });
    expect(answer.data.answer).toContain('honest nodes');
    expect((await post(await account('free'), 'file/info', { file_id: cloudId })).code).toBe(ErrorCode.NoData);
  });

  it('refuses an encrypted file (3122) and another account’s file (2405)', async () => {
    const client = await account('free');
    const locked = encryptPdf(
      await makePdf(path.join(served.dir, 'plain.pdf'), 2, 'Locked'),
      path.join(served.dir, 'locked.pdf'),
      'secret1',
    );
    expect((await post(client, 'file/info', { file_id: await client.uploadId(locked) })).code).toBe(ErrorCode.Encrypted);
    expect((await post(client, 'file/info', { file_id: bitcoin })).code).toBe(ErrorCode.NoData);
  });

  it('summarises with sentences of the document, its keywords, headings and questions, and charges the words', async () => {
    const before = (await get(owner, 'chat/gpt-token/check')).data.used_tokens;
    const res = await post(owner, 'chat/summary', { file_id: bitcoin });
    expect(res.code).toBe(0);
    const text = squeeze(pdftotext(BITCOIN));
    const sentences = res.data.summary.split(/(?<=\.)\s+/);
    expect(sentences.length).toBeGreaterThanOrEqual(3);
    for (const s of sentences) expect(text).toContain(squeeze(s));
    expect(res.data.keywords.length).toBeGreaterThan(3);
    for (const k of res.data.keywords) expect(text.toLowerCase()).toContain(k);
    expect(res.data.outlines.map((o: { title: string }) => o.title)).toContain('Introduction');
    expect(res.data.questions.length).toBeGreaterThanOrEqual(3);
    expect(res.data.questions.length).toBeLessThanOrEqual(5);
    expect(res.data.per_tokens).toBe(words(res.data.summary));
    expect(res.data.used).toBe(before + res.data.per_tokens);
    expect((await get(owner, 'chat/gpt-token/check')).data).toEqual({ used_tokens: res.data.used, total_tokens: 1000 });
  });

  it('takes the bookmarks as the outline where the document has them', async () => {
    const client = await account('premium');
    const { fileId } = await analysed(client, OUTLINED);
    type Outline = { title: string; kids: Outline[] };
    const own = JSON.parse(execFileSync('qpdf', ['--json', '--json-key=outlines', OUTLINED], { encoding: 'utf8' })).outlines as Outline[];
    const titles = (items: Outline[]): string[] => items.flatMap((o) => [o.title, ...titles(o.kids)]);
    // The premium plan reads all nine pages: enough text to summarise.
    expect(pdftotext(OUTLINED).trim().length).toBeGreaterThan(250);
    const res = await post(client, 'chat/summary', { file_id: fileId });
    expect(res.data.outlines.map((o: { title: string }) => o.title)).toEqual(titles(own));
    expect(res.data.outlines.map((o: { page: number }) => o.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('answers with the passages that hold the answer and their pages, in a conversation', async () => {
    const res = await post(owner, 'chat/completion', {
      file_id: bitcoin,
      question: 'What does the network use to timestamp transactions?',
    });
    expect(res.code).toBe(0);
    expect(res.data.citations[0].page).toBe(1);
    expect(squeeze(pdftotext(BITCOIN))).toContain(squeeze(res.data.citations[0].text).slice(0, 60));
    expect(res.data.answer).toMatch(/proof-of-work|hash/);
    expect(res.data.answer).toContain('(page 1)');
    expect(res.data.tokens).toBe(words('What does the network use to timestamp transactions?') + words(res.data.answer));
    const detail = await get(owner, `conversation/detail?conversation_id=${res.data.conversation_id}`);
    expect(detail.data.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(detail.data.messages[1].content).toBe(res.data.answer);
  });

  it('streams an answer as events whose text is the answer kept, then cancels another mid-way', async () => {
    const res = await streamOf(owner, 'chat/completion/stream', {
      file_id: bitcoin,
      question: 'How are double-spending attacks prevented?',
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readEvents(res);
    const texts = events.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(1);
    expect(events.find((e) => e.type === 'citations')).toBeTruthy();
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'done' });
    const answer = texts.map((e) => (e.type === 'text' ? e.text : '')).join('');
    const list = await get(owner, `conversation/list?file_id=${bitcoin}`);
    const latest = list.data.conversations.find((c: { title: string }) => c.title.startsWith('How are double-spending'));
    // The new conversation is named in a header, for a page to continue it.
    expect(res.headers.get('x-quire-conversation-id')).toBe(latest.conversation_id);
    const detail = await get(owner, `conversation/detail?conversation_id=${latest.conversation_id}`);
    expect(detail.data.messages[1].content).toBe(answer);

    // Cancelled after its first piece: it ends with done, cancelled, and is charged what it sent.
    const usedBefore = (await get(owner, 'chat/gpt-token/check')).data.used_tokens;
    const question = 'What is the main idea of the paper about electronic cash and trusted parties?';
    const stream = await streamOf(owner, 'conversation/chat/stream', { conversation_id: latest.conversation_id, question });
    const id = stream.headers.get('x-quire-stream-id')!;
    expect(stream.headers.get('x-quire-conversation-id')).toBe(latest.conversation_id);
    let cancelled = false;
    const streamed = await readEvents(stream, async (e) => {
      if (e.type !== 'text' || cancelled) return;
      cancelled = true;
      expect((await get(owner, `stream/cancel?stream_id=${id}`)).code).toBe(0);
    });
    expect((await get(await account('free'), `stream/cancel?stream_id=${id}`)).code).toBe(ErrorCode.NoData);
    const end = streamed.at(-1)!;
    expect(end).toMatchObject({ type: 'done', cancelled: true });
    const sent = streamed.map((e) => (e.type === 'text' ? e.text : '')).join('');
    expect(end.type === 'done' && end.tokens).toBe(words(question) + words(sent));
    expect((await get(owner, 'chat/gpt-token/check')).data.used_tokens).toBe(usedBefore + words(question) + words(sent));
    expect((await get(owner, `stream/cancel?stream_id=${id}`)).code).toBe(ErrorCode.StreamExpired);
  });

  it('streams the summary', async () => {
    const events = await readEvents(await streamOf(owner, 'chat/summary/stream', { file_id: bitcoin }));
    const text = events.map((e) => (e.type === 'text' ? e.text : '')).join('');
    expect(events.at(-1)).toEqual({ type: 'done', tokens: words(text) });
    expect(text.length).toBeGreaterThan(200);
  });

  it('summarises a selected passage with its most central sentences, charging its words; 11005 under 250 characters', async () => {
    const client = await account('free');
    const passage = squeeze(pdftotext(BITCOIN)).slice(0, 1600);
    const before = (await get(client, 'chat/gpt-token/check')).data.used_tokens;
    const events = await readEvents(await streamOf(client, 'summary/text/stream', { text: passage }));
    const text = events.map((e) => (e.type === 'text' ? e.text : '')).join('');
    expect(events.at(-1)).toEqual({ type: 'done', tokens: words(passage) + words(text) });
    expect(text.length).toBeGreaterThan(40);
    expect(text.length).toBeLessThan(passage.length / 2);
    // Each sentence of the summary is one of the passage's.
    for (const sentence of text.split(/(?<=[.!?])\s+/)) expect(passage).toContain(sentence.trim());
    expect((await get(client, 'chat/gpt-token/check')).data.used_tokens).toBe(before + words(passage) + words(text));

    const short = await streamOf(client, 'summary/text/stream', { text: 'Too short to summarise.' });
    expect(((await short.json()) as Envelope).code).toBe(ErrorCode.TextTooShort);
    const visitor = await streamOf(new Client(served.quire.url), 'summary/text/stream', { text: passage });
    expect(((await visitor.json()) as Envelope).code).toBe(ErrorCode.NotLogin);
  });

  it('lists, pins, renames, shares, syncs and deletes conversations; keeps notes; answers 2405 to another account', async () => {
    // An account of its own: the one above has asked its three questions.
    owner = await account('premium');
    bitcoin = (await analysed(owner, BITCOIN)).fileId;
    const first = await post(owner, 'chat/completion', { file_id: bitcoin, question: 'What is a timestamp server?' });
    const id = first.data.conversation_id;
    expect((await post(owner, 'conversation/top', { conversation_id: id, top: true })).data.top).toBe(true);
    expect((await get(owner, 'conversation/list')).data.conversations[0].conversation_id).toBe(id);
    expect((await post(owner, 'conversation/edit', { conversation_id: id, title: 'Timestamps' })).data.title).toBe('Timestamps');
    const detail = await get(owner, `conversation/detail?conversation_id=${id}`);
    const after = detail.data.messages.at(-1).created_at;
    expect((await post(owner, 'chat/completion', { conversation_id: id, question: 'What is a chain of blocks?' })).code).toBe(0);
    const synced = await post(owner, 'conversation/sync', { conversation_id: id, after });
    expect(synced.data.messages.map((m: { content: string }) => m.content)[0]).toBe('What is a chain of blocks?');
    expect(synced.data.messages).toHaveLength(2);
    const shared = await post(owner, 'conversation/share', { conversation_id: id });
    expect(shared.data.share_url).toContain(shared.data.share_code);
    const visitor = new Client(served.quire.url);
    const preview = await get(visitor, `conversation/share/preview?share_code=${shared.data.share_code}`);
    expect(preview.data).toMatchObject({ title: 'Timestamps', file_name: 'issue13201.pdf' });
    expect(preview.data.messages).toHaveLength(4);
    expect((await get(visitor, 'conversation/share/preview?share_code=nothing')).code).toBe(ErrorCode.NoData);

    const note = await post(owner, 'note/add', { file_id: bitcoin, page: 1, text: 'Read the abstract again' });
    expect(note.code).toBe(0);
    expect((await post(owner, 'note/add', { file_id: bitcoin, page: 2, text: 'No such page' })).code).toBe(ErrorCode.InvalidParams);
    expect((await get(owner, `note/list?file_id=${bitcoin}`)).data.notes.map((n: { text: string }) => n.text)).toEqual([
      'Read the abstract again',
    ]);

    const other = await account('free');
    expect((await get(other, `conversation/detail?conversation_id=${id}`)).code).toBe(ErrorCode.NoData);
    expect((await post(other, 'conversation/del', { conversation_id: id })).code).toBe(ErrorCode.NoData);
    expect((await post(other, 'chat/completion', { conversation_id: id, question: 'Anything?' })).code).toBe(ErrorCode.NoData);
    expect((await get(other, `note/list?file_id=${bitcoin}`)).code).toBe(ErrorCode.NoData);
    const del = (c: Client) => c.raw(`${AI}note/delete?note_id=${note.data.note_id}`, { method: 'DELETE' }).then((r) => r.json());
    expect((await del(other)).code).toBe(ErrorCode.NoData);
    expect((await del(owner)).code).toBe(0);
    expect((await get(owner, `note/list?file_id=${bitcoin}`)).data.notes).toEqual([]);

    expect((await post(owner, 'conversation/del', { conversation_id: id })).code).toBe(0);
    expect((await get(owner, `conversation/detail?conversation_id=${id}`)).code).toBe(ErrorCode.NoData);
    expect((await get(visitor, `conversation/share/preview?share_code=${shared.data.share_code}`)).code).toBe(ErrorCode.NoData);
  });
});

describe('AI quotas per role', () => {
  /** What one summary of the Bitcoin page costs: the same text each time. */
  let summaryCost: number;

  beforeAll(async () => {
    const probe = await account('free');
    const { fileId } = await analysed(probe, BITCOIN);
    summaryCost = (await post(probe, 'chat/summary', { file_id: fileId })).data.per_tokens;
    expect(summaryCost).toBeGreaterThan(50);
  }, 60_000);

  it.each([
    ['free', 'AiUpgrade'],
    ['premium', 'AiUpgradeForVip'],
    ['ai', 'AiUpgradeAgain'],
  ] as const)('%s: tokens to the last one, then 11003 with %s', async (plan, dialog) => {
    const client = await account(plan);
    const { fileId } = await analysed(client, BITCOIN);
    const fits = Math.floor(1000 / summaryCost);
    for (let i = 0; i < fits; i++) expect((await post(client, 'chat/summary', { file_id: fileId })).code).toBe(0);
    const used = (await get(client, 'chat/gpt-token/check')).data.used_tokens;
    expect(used).toBe(fits * summaryCost);
    // Just over: fewer tokens left than a summary costs.
    const over = await post(client, 'chat/summary', { file_id: fileId });
    expect(over.code).toBe(ErrorCode.NotEnoughTokens);
    expect(over.data).toEqual({ upgrade: dialog, limit: 1000 });
    expect((await get(client, 'chat/gpt-token/check')).data.used_tokens).toBe(used);
    // A question of fewer words than are left still fits: the charge is the words, not a round figure.
    const left = 1000 - used;
    const question = Array.from({ length: 3 }, () => 'block').join(' ');
    const answer = await post(client, 'chat/completion', { file_id: fileId, question });
    if (answer.code === 0) expect(answer.data.tokens).toBeLessThanOrEqual(left);
    else expect(answer.code).toBe(ErrorCode.NotEnoughTokens);
  });

  it.each([
    ['free', { upgrade: 'AiUpgrade', limit: 3 }],
    ['premium', null],
    ['ai', null],
  ] as const)('%s: three questions, then 11007', async (plan, data) => {
    const client = await account(plan);
    const { fileId } = await analysed(client, BITCOIN);
    for (let i = 0; i < 3; i++) expect((await post(client, 'chat/completion', { file_id: fileId, question: 'Nodes?' })).code).toBe(0);
    const over = await post(client, 'chat/completion', { file_id: fileId, question: 'Nodes?' });
    expect(over.code).toBe(ErrorCode.QuestionLimit);
    expect(over.data).toEqual(data);
  });

  it('renews the AI plan’s tokens and questions with the calendar month, not the free plan’s', async () => {
    const ctx = served.quire.ctx;
    const [ai, free] = [await account('ai'), await account('free')];
    const files = [(await analysed(ai, BITCOIN)).fileId, (await analysed(free, BITCOIN)).fileId];
    for (const [i, client] of [ai, free].entries())
      for (let q = 0; q < 3; q++) await post(client, 'chat/completion', { file_id: files[i], question: 'Nodes?' });
    const now = ctx.now;
    const nextMonth = new Date(now());
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1, 1);
    ctx.now = () => nextMonth.getTime();
    try {
      expect((await get(ai, 'chat/gpt-token/check')).data.used_tokens).toBe(0);
      expect((await post(ai, 'chat/completion', { file_id: files[0], question: 'Nodes?' })).code).toBe(0);
      expect((await post(free, 'chat/completion', { file_id: files[1], question: 'Nodes?' })).code).toBe(ErrorCode.QuestionLimit);
    } finally {
      ctx.now = now;
    }
  });

  it('charges racing summaries within the tokens: as many succeed as fit, no more', async () => {
    const client = await account('free');
    const { fileId } = await analysed(client, BITCOIN);
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(client, 'chat/summary', { file_id: fileId })));
    const fits = Math.floor(1000 / summaryCost);
    expect(answers.filter((a) => a.code === 0)).toHaveLength(fits);
    expect(answers.filter((a) => a.code === ErrorCode.NotEnoughTokens)).toHaveLength(12 - fits);
    expect((await get(client, 'chat/gpt-token/check')).data.used_tokens).toBe(fits * summaryCost);
  });
});

describe('a tool whose provider is a model: llama.cpp on the tiny model the test writes', () => {
  const modelPath = path.join(served.dir, 'tiny.gguf');
  let quire: Awaited<ReturnType<typeof startQuire>>;
  beforeAll(async () => {
    writeTinyModel(modelPath);
    quire = await startQuire({
      limits: withOverride(defaultLimits, { free: { ai: { tokens: 100_000 } } }),
      aiProviders: {
        ...served.quire.ctx.config.aiProviders,
        chat: 'local',
        explain: 'local',
        rewrite: 'local',
        translate: 'local',
        proofread: 'local',
      },
      aiModels: { local: { modelPath, memoryMb: 2048, contextTokens: 8192, threads: 1 }, openai: undefined },
    });
  }, 60_000);
  afterAll(() => quire.stop());

  it('streams the model’s answer charged as llama.cpp counted it, and a cancelled one charged what it computed', async () => {
    const client = await signedIn(quire.url, quire.ctx, 'model@example.org', 'free');
    const { fileId } = await analysed(client, BITCOIN);
    const question = 'What is proof-of-work?';
    const events = await readEvents(await streamOf(client, 'chat/completion/stream', { file_id: fileId, question }));
    const texts = events.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(3);
    const answer = texts.map((e) => (e.type === 'text' ? e.text : '')).join('');
    // Greedy decoding of the tiny model never picks its end token: the answer runs to the most a model may write.
    expect(tinyModelTokens(answer)).toBe(600);
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error(`the stream ended with ${JSON.stringify(done)}`);
    expect((await get(client, 'chat/gpt-token/check')).data.used_tokens).toBe(done.tokens);
    const promptTokens = done.tokens - tinyModelTokens(answer);
    expect(promptTokens).toBeGreaterThan(question.length);
    const list = await get(client, `conversation/list?file_id=${fileId}`);
    const detail = await get(client, `conversation/detail?conversation_id=${list.data.conversations[0].conversation_id}`);
    expect(detail.data.messages[1]).toMatchObject({ content: answer, tokens: done.tokens });

    // The same passages (punctuation is no search term) and three characters more: three tokens more.
    const stream = await streamOf(client, 'chat/completion/stream', { file_id: fileId, question: `${question}!!!` });
    const id = stream.headers.get('x-quire-stream-id')!;
    let pieces = 0;
    const streamed = await readEvents(stream, async (e) => {
      if (e.type === 'text' && ++pieces === 3) expect((await get(client, `stream/cancel?stream_id=${id}`)).code).toBe(0);
    });
    const end = streamed.at(-1)!;
    expect(end).toMatchObject({ type: 'done', cancelled: true });
    const sent = streamed.map((e) => (e.type === 'text' ? e.text : '')).join('');
    expect(tinyModelTokens(sent)).toBeLessThan(600);
    expect(end.type === 'done' && end.tokens).toBe(promptTokens + 3 + tinyModelTokens(sent));
    expect((await get(client, 'chat/gpt-token/check')).data.used_tokens).toBe(done.tokens + promptTokens + 3 + tinyModelTokens(sent));
  });

  it('explains, rewrites, translates and proofreads with the model, charging what llama.cpp counted', async () => {
    const client = await signedIn(quire.url, quire.ctx, 'model-language@example.org', 'free');
    const used = async () => (await get(client, 'chat/gpt-token/check')).data.used_tokens as number;
    let before = 0;
    /** Charged what llama.cpp counted: the prompt's tokens and those written (the tiny model's, one per character of its alphabet). */
    const charged = async (answer: Envelope, written: string) => {
      expect(answer.code).toBe(0);
      const now = await used();
      expect(now - before).toBe(answer.data.tokens);
      expect(written.length).toBeGreaterThan(0);
      expect(answer.data.tokens).toBeGreaterThan(tinyModelTokens(written));
      before = now;
    };

    const explained = await post(client, 'explain', { text: 'magma', context: 'A volcano erupts when magma rises.' });
    await charged(explained, explained.data.explanation);
    // WordNet's senses come with it, free.
    expect(explained.data.senses[0].definition).toMatch(/molten rock/);

    const rewritten = await post(client, 'rewrite', { text: 'It was decided by the committee in order to finish early.', mode: 'shorten' });
    await charged(rewritten, rewritten.data.text);
    expect(rewritten.data.note).toMatch(/language model/);
    expect(rewritten.data.changes).toEqual([]);

    // A model translates between languages no Apertium pair joins here.
    const languages = await get(client, 'translate/languages');
    expect(languages.data.pairs).toContainEqual({ from: 'de', to: 'ja', via: [] });
    const translated = await post(client, 'translate/text', { text: 'Das Haus ist rot.', from: 'de', to: 'ja' });
    await charged(translated, translated.data.text);
    expect(translated.data.via).toEqual([]);
    expect((await post(client, 'translate/text', { text: 'Das Haus ist rot.', from: 'de', to: 'xx' })).code).toBe(
      ErrorCode.LanguageUnavailable,
    );

    // The model's corrected text comes back as issues whose first suggestions give it exactly.
    const text = 'This is is a sentense about the wether.';
    const proofread = await post(client, 'proofread/text', { text, lang: 'en-US' });
    await charged(proofread, proofread.data.corrected);
    const applied = (proofread.data.issues as { start: number; end: number; suggestions: string[] }[]).reduceRight(
      (out, i) => out.slice(0, i.start) + i.suggestions[0] + out.slice(i.end),
      text,
    );
    expect(applied).toBe(proofread.data.corrected);
  });

  it('streams a language tool’s text as the model writes it, and stops it on cancel, charging what llama.cpp counted', async () => {
    const client = await signedIn(quire.url, quire.ctx, 'model-stream@example.org', 'free');
    const used = async () => (await get(client, 'chat/gpt-token/check')).data.used_tokens as number;
    const body = { text: 'It was decided by the committee in order to finish early.', mode: 'paraphrase' };
    const events = await readEvents(await streamOf(client, 'rewrite/stream', body));
    const written = events.map((e) => (e.type === 'text' ? e.text : '')).join('');
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(3);
    const result = events.find((e) => e.type === 'result');
    if (result?.type !== 'result') throw new Error(`no result in ${JSON.stringify(events.map((e) => e.type))}`);
    const rewritten = result.result as { text: string; tokens: number };
    expect(rewritten.text).toBe(written.trim());
    expect(events.at(-1)).toEqual({ type: 'done', tokens: rewritten.tokens });
    expect(await used()).toBe(rewritten.tokens);

    const stream = await streamOf(client, 'translate/text/stream', { text: 'Das Haus ist rot.', from: 'de', to: 'ja' });
    const id = stream.headers.get('x-quire-stream-id')!;
    let pieces = 0;
    const stopped = await readEvents(stream, async (e) => {
      if (e.type === 'text' && ++pieces === 3) expect((await get(client, `stream/cancel?stream_id=${id}`)).code).toBe(0);
    });
    const end = stopped.at(-1)!;
    expect(end).toMatchObject({ type: 'done', cancelled: true });
    expect(stopped.some((e) => e.type === 'result')).toBe(false);
    const sent = stopped.map((e) => (e.type === 'text' ? e.text : '')).join('');
    expect(tinyModelTokens(sent)).toBeLessThan(600);
    expect(end.type === 'done' && end.tokens).toBeGreaterThan(tinyModelTokens(sent));
    expect(await used()).toBe(rewritten.tokens + (end.type === 'done' ? end.tokens : 0));
  });

  it('answers 11020 while its model file is missing, charging nothing, and answers again once it is back', async () => {
    const client = await signedIn(quire.url, quire.ctx, 'model-gone@example.org', 'free');
    const { fileId } = await analysed(client, BITCOIN);
    fs.renameSync(modelPath, `${modelPath}.away`);
    try {
      expect((await post(client, 'chat/completion', { file_id: fileId, question: 'What is proof-of-work?' })).code).toBe(
        ErrorCode.AiUnavailable,
      );
      expect((await get(client, 'chat/gpt-token/check')).data.used_tokens).toBe(0);
      expect((await post(client, 'chat/summary', { file_id: fileId })).code).toBe(0);
    } finally {
      fs.renameSync(`${modelPath}.away`, modelPath);
    }
    expect((await post(client, 'chat/completion', { file_id: fileId, question: 'What is proof-of-work?' })).code).toBe(0);
  });
});

describe('chat through an OpenAI-compatible endpoint (llama.cpp behind the tests’ server, on the tiny model)', () => {
  const KEY = 'endpoint-key-for-chat';
  const modelPath = path.join(served.dir, 'tiny-openai.gguf');
  let endpoint: OpenAiTestServer;
  let quire: Awaited<ReturnType<typeof startQuire>>;
  beforeAll(async () => {
    writeTinyModel(modelPath);
    endpoint = await startOpenAiServer(modelPath, KEY, 8192);
    quire = await startQuire({
      limits: withOverride(defaultLimits, { free: { ai: { tokens: 100_000 } } }),
      aiProviders: { ...served.quire.ctx.config.aiProviders, chat: 'openai', summary: 'openai' },
      aiModels: { ...served.quire.ctx.config.aiModels, openai: { baseUrl: endpoint.baseUrl, model: 'tiny', key: KEY } },
    });
  }, 60_000);
  afterAll(async () => {
    await quire.stop();
    await endpoint.close();
  });

  it('streams an answer from the passages, charged the usage the endpoint reported', async () => {
    const client = await signedIn(quire.url, quire.ctx, 'openai-chat@example.org', 'free');
    const { fileId } = await analysed(client, BITCOIN);
    const question = 'What is proof-of-work?';
    const events = await readEvents(await streamOf(client, 'chat/completion/stream', { file_id: fileId, question }));
    const answer = events.map((e) => (e.type === 'text' ? e.text : '')).join('');
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error(`the stream ended with ${JSON.stringify(done)}`);
    const seen = endpoint.answers.at(-1)!;
    const ended = await seen.ended;
    // The endpoint was given the question and the passages, each with its page.
    expect(seen.body.messages.at(-1)).toEqual({ role: 'user', content: question });
    expect(seen.body.messages[0]!.content).toMatch(/\[page 1\] /);
    expect(done.tokens).toBe(ended.promptTokens + ended.completionTokens);
    expect(ended.completionTokens).toBe(tinyModelTokens(answer));
    const cited = events.find((e) => e.type === 'citations');
    expect(cited?.type === 'citations' && cited.citations.map((c) => c.page)).toEqual(expect.arrayContaining([1]));
    expect((await get(client, 'chat/gpt-token/check')).data.used_tokens).toBe(done.tokens);

    const summary = await post(client, 'chat/summary', { file_id: fileId });
    expect(summary.code).toBe(0);
    const summarised = await endpoint.answers.at(-1)!.ended;
    expect(summary.data.per_tokens).toBe(summarised.promptTokens + summarised.completionTokens);
    expect(summary.data.used).toBe(done.tokens + summary.data.per_tokens);
  });
});

describe('an analysis that does not finish in time', () => {
  let quire: Awaited<ReturnType<typeof startQuire>>;
  beforeAll(async () => {
    // The spec's 60 s, shortened: the test waits 0.4 s for what the product waits a minute.
    quire = await startQuire({ aiAnalysisWaitMs: 400 });
  }, 60_000);
  afterAll(() => quire.stop());

  it('answers 90002 to the summary and to a question, charging neither', async () => {
    const client = await signedIn(quire.url, quire.ctx, 'slow-analysis@example.org', 'free');
    // Analysed, then held in "analyses" as if its worker were still reading a long document.
    const { fileId } = await analysed(client, BITCOIN);
    const hold = () =>
      quire.ctx.db.updateTable('ai_analyses').set({ status: 'analyses', updated_at: Date.now() }).where('file_id', '=', fileId).execute();
    await hold();
    const started = Date.now();
    expect((await post(client, 'chat/summary', { file_id: fileId })).code).toBe(ErrorCode.UploadFailed);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await hold();
    expect((await post(client, 'chat/completion', { file_id: fileId, question: 'What is proof-of-work?' })).code).toBe(
      ErrorCode.UploadFailed,
    );
    await hold();
    const events = await readEvents(await streamOf(client, 'chat/summary/stream', { file_id: fileId }));
    expect(events).toEqual([{ type: 'error', code: ErrorCode.UploadFailed, msg: expect.any(String) }]);
    expect((await get(client, 'chat/gpt-token/check')).data.used_tokens).toBe(0);
    expect((await get(client, 'conversation/list')).data.conversations).toEqual([]);
  });
});
