// The AI layer's classic language calls through HTTP, on the real engines: Apertium's pairs (a
// round trip, a pivot, a missing pair), Hunspell in two languages, diction and style, WordNet, the
// rule-based rewrite, a whole PDF translated in place (checked with pdftotext and its word boxes),
// the tokens each call charges, 11003 when they run out, 3001 for a visitor and 2405 for a file
// that is someone else's.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AiStreamEvent, defaultLimits, ErrorCode } from '@quire/contracts';
import { Client, type Envelope, quireForTests, readEvents, signedIn } from './harness.js';
import { makePdf } from './fixtures.js';
import { aiAccountOf, tokenCheck } from '../src/services/aiQuota.js';
import { findAccountByEmail } from '../src/db/accountsRepo.js';

// A free account has 40 tokens here: enough for one short call, not for a second.
const FREE_TOKENS = 40;
const served = quireForTests('ai-language', {
  limits: { ...defaultLimits, free: { ...defaultLimits.free, ai: { ...defaultLimits.free.ai, tokens: FREE_TOKENS } } },
});

const post = (client: Client, call: string, body: unknown) => client.postAi(call, body);

/** Tokens the account of `email` has used, as the quota service counts them. */
async function usedTokens(email: string): Promise<number> {
  const { ctx } = served.quire;
  const account = await findAccountByEmail(ctx.db, email);
  return (await tokenCheck(ctx, aiAccountOf(ctx, { ownerId: account!.id, account }))).used_tokens;
}

let ai: Client;
let other: Client;
beforeAll(async () => {
  [ai, other] = await Promise.all([
    signedIn(served.quire.url, served.quire.ctx, 'ai-language@example.org', 'ai'),
    signedIn(served.quire.url, served.quire.ctx, 'other-language@example.org', 'premium'),
  ]);
}, 60_000);

describe('who may call', () => {
  it('refuses a visitor every call with 3001', async () => {
    const visitor = new Client(served.quire.url);
    const languages = (await (await visitor.raw('/api/ai/v2/translate/languages')).json()) as Envelope;
    expect(languages.code).toBe(ErrorCode.NotLogin);
    for (const [call, body] of [
      ['translate/text', { text: 'The house', from: 'en', to: 'es' }],
      ['translate/file', { file_id: 'x', from: 'en', to: 'es' }],
      ['proofread/text', { text: 'Helo', lang: 'en-US' }],
      ['proofread/file', { file_id: 'x', lang: 'en-US' }],
      ['explain', { text: 'bank' }],
      ['rewrite', { text: 'In order to win.' }],
    ] as const)
      expect((await post(visitor, call, body)).code, call).toBe(ErrorCode.NotLogin);
  });

  it('charges the words of each call, and answers 11003 once they run out, charging nothing', async () => {
    const email = 'free-language@example.org';
    const free = await signedIn(served.quire.url, served.quire.ctx, email, 'free');
    const text = 'The big house has a green garden and the old dog sleeps in the sun every day.';
    const first = await post(free, 'translate/text', { text, from: 'en', to: 'es' });
    expect(first.code).toBe(0);
    expect(first.data.tokens).toBe(17);
    expect(await usedTokens(email)).toBe(17);
    const second = await post(free, 'rewrite', { text: `${text} ${text}` });
    expect(second.code).toBe(ErrorCode.NotEnoughTokens);
    expect(await usedTokens(email)).toBe(17);
  });
});

describe('translation', () => {
  it('lists the pairs installed, direct and through a pivot', async () => {
    const answer = (await (await ai.raw('/api/ai/v2/translate/languages')).json()) as Envelope;
    expect(answer.code).toBe(0);
    const pairs = answer.data.pairs as { from: string; to: string; via: string[] }[];
    expect(pairs).toContainEqual({ from: 'en', to: 'es', via: [] });
    expect(pairs).toContainEqual({ from: 'fr', to: 'pt', via: ['es'] });
    expect(pairs.some((p) => p.to === 'ja' || p.to === 'de')).toBe(false);
    expect(answer.data.languages).toEqual(expect.arrayContaining(['en', 'es', 'fr', 'pt', 'it', 'ca']));
  });

  it('translates English to Spanish and back, keeping the key words', async () => {
    const text = 'The house is big. The garden is green and the water is cold.';
    const there = await post(ai, 'translate/text', { text, from: 'en', to: 'es' });
    expect(there.code).toBe(0);
    expect(there.data.text).toMatch(/casa/i);
    expect(there.data.text).toMatch(/jardín/i);
    expect(there.data.via).toEqual([]);
    const back = await post(ai, 'translate/text', { text: there.data.text, from: 'es', to: 'en' });
    expect(back.code).toBe(0);
    for (const word of ['house', 'big', 'garden', 'green', 'water', 'cold']) expect(back.data.text.toLowerCase()).toContain(word);
    // Apertium's marks of unknown words are not in the answer.
    expect(back.data.text).not.toMatch(/[*#@]\p{L}/u);
  });

  it('pivots French to Portuguese through Spanish', async () => {
    const answer = await post(ai, 'translate/text', { text: 'Le chat mange du poisson.', from: 'fr', to: 'pt' });
    expect(answer.code).toBe(0);
    expect(answer.data.via).toEqual(['es']);
    expect(answer.data.text).toMatch(/^O gato come/);
  });

  it('answers 11021 for a pair that is not installed, charging nothing', async () => {
    const before = await usedTokens('ai-language@example.org');
    for (const to of ['ja', 'de', 'en'])
      expect((await post(ai, 'translate/text', { text: 'The house', from: 'en', to })).code, to).toBe(ErrorCode.LanguageUnavailable);
    expect(await usedTokens('ai-language@example.org')).toBe(before);
  });
});

/** A two-page English PDF, the same on each page: a title and a paragraph of four lines, in Helvetica. */
async function englishPdf(file: string): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const lines = [
    'The house is big and the garden is green. The old dog',
    'sleeps in the sun every day, and the children play with',
    'the water in the morning. The city is far from the house,',
    'but the road is good and the trees are tall.',
  ];
  for (let n = 0; n < 2; n++) {
    const page = doc.addPage([595, 842]);
    page.drawText('The Green Garden', { x: 72, y: 760, size: 24, font });
    for (const [i, line] of lines.entries()) page.drawText(line, { x: 72, y: 700 - i * 16, size: 12, font });
  }
  fs.writeFileSync(file, await doc.save());
  return file;
}

interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
}
/** pdftotext -bbox's words with their boxes. */
function wordBoxes(file: string): Word[] {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({
    text: m[4]!,
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
  }));
}

describe('PDF translation', () => {
  it('translates every line in its place, each within its width', async () => {
    const source = await englishPdf(path.join(served.dir, 'garden.pdf'));
    const fileId = await ai.uploadId(source);
    const created = await post(ai, 'translate/file', { file_id: fileId, from: 'en', to: 'es' });
    expect(created.code).toBe(0);
    // On each page, the title's 3 words and the paragraph's 45.
    expect(created.data.tokens).toBe(96);
    const entry = await ai.waitTask(created.data.task_id);
    expect(entry.status).toBe(0);
    const out = path.join(served.dir, 'garden-es.pdf');
    await ai.download(entry.task_id, out);
    execFileSync('qpdf', ['--check', out]);
    const text = execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' });
    expect(text).toMatch(/casa/);
    expect(text).toMatch(/jardín/);
    // Every page: the second too.
    expect(text).not.toMatch(/\bgarden\b|\bhouse\b/);
    expect(text.split('\f').filter((p) => /jardín/.test(p))).toHaveLength(2);
    // Each line starts where the original's did, and ends within its width (shrunk to fit); the pages are alike.
    const lineOf = (words: Word[]) => {
      const rows = new Map<number, Word[]>();
      for (const w of words) rows.set(Math.round(w.yMin), [...(rows.get(Math.round(w.yMin)) ?? []), w]);
      return [...rows.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([y, ws]) => ({ y, x0: ws[0]!.xMin, x1: Math.max(...ws.map((w) => w.xMax)) }));
    };
    const before = lineOf(wordBoxes(source));
    const after = lineOf(wordBoxes(out));
    expect(after).toHaveLength(before.length);
    after.forEach((line, i) => {
      expect(Math.abs(line.y - before[i]!.y)).toBeLessThan(3);
      expect(Math.abs(line.x0 - before[i]!.x0)).toBeLessThan(1);
      expect(line.x1).toBeLessThan(Math.max(before[i]!.x1, 523) + 1);
    });
  });

  it('translates every page of a corpus PDF whose subset fonts lack the new letters', async () => {
    const source = path.resolve(import.meta.dirname, '../../../test-corpus/pdfjs/canvas.pdf');
    const created = await post(ai, 'translate/file', { file_id: await ai.uploadId(source), from: 'en', to: 'es' });
    expect(created.code).toBe(0);
    const entry = await ai.waitTask(created.data.task_id);
    expect(entry.status).toBe(0);
    // A standard font stands in where the embedded subsets lack a letter.
    expect(entry.outputs?.[0]?.note).toMatch(/was used where the original font lacks characters/);
    const out = path.join(served.dir, 'canvas-es.pdf');
    await ai.download(entry.task_id, out);
    const page = (n: number) => execFileSync('pdftotext', ['-f', `${n}`, '-l', `${n}`, out, '-'], { encoding: 'utf8' });
    // The first page's "Canvas element" and the second's "Colors, styles and shadows", as Apertium has them.
    expect(page(1)).toMatch(/Elemento de tela/);
    expect(page(1)).not.toMatch(/Canvas element/);
    expect(page(2)).toMatch(/Colores, modas y sombras/);
    expect(page(2)).not.toMatch(/Colors, styles and shadows/);
  });

  it('holds a free account to its 20 pages per AI analysis (4013 at 21), then to its tokens (11003)', async () => {
    const free = await signedIn(served.quire.url, served.quire.ctx, 'free-pdf@example.org', 'free');
    const over = await free.uploadId(await makePdf(path.join(served.dir, 'pages-21.pdf'), 21, 'Doc'));
    const pages = await post(free, 'translate/file', { file_id: over, from: 'en', to: 'es' });
    expect(pages.code).toBe(ErrorCode.TooManyPages);
    expect(pages.data).toMatchObject({ limit: 20 });
    // 20 pages pass; their 60 words are more than the account's 40 tokens, and nothing is queued or charged.
    const under = await free.uploadId(await makePdf(path.join(served.dir, 'pages-20.pdf'), 20, 'Doc'));
    expect((await post(free, 'translate/file', { file_id: under, from: 'en', to: 'es' })).code).toBe(ErrorCode.NotEnoughTokens);
    expect(await usedTokens('free-pdf@example.org')).toBe(0);
  });

  it('refuses a missing pair before queuing (11021), and another owner’s file (2405)', async () => {
    const fileId = await ai.uploadId(await englishPdf(path.join(served.dir, 'garden-2.pdf')));
    expect((await post(ai, 'translate/file', { file_id: fileId, from: 'en', to: 'ja' })).code).toBe(ErrorCode.LanguageUnavailable);
    expect((await post(other, 'translate/file', { file_id: fileId, from: 'en', to: 'es' })).code).toBe(ErrorCode.NoData);
    expect((await post(other, 'proofread/file', { file_id: fileId, lang: 'en' })).code).toBe(ErrorCode.NoData);
  });
});

describe('proofreading', () => {
  it('finds English misspellings, doubled words, wordy phrases and passive voice, with the corrected text', async () => {
    const text = 'We recieve the the letters in order to answer them.\nThe letters were written by hand.';
    const answer = await post(ai, 'proofread/text', { text, lang: 'en-US' });
    expect(answer.code).toBe(0);
    expect(answer.data.dictionary).toBe('en_US');
    const issues = answer.data.issues as { start: number; end: number; kind: string; suggestions: string[] }[];
    const at = (kind: string) => issues.filter((i) => i.kind === kind).map((i) => text.slice(i.start, i.end));
    expect(at('spelling')).toEqual(['recieve']);
    expect(issues.find((i) => i.kind === 'spelling')!.suggestions[0]).toBe('receive');
    expect(at('grammar')).toEqual([' the']);
    expect(at('style')).toEqual(expect.arrayContaining(['in order to', 'The letters were written by hand.']));
    expect(answer.data.corrected).toBe('We receive the letters to answer them.\nThe letters were written by hand.');
    expect(answer.data.tokens).toBe(16);
  });

  it('checks German with the German dictionary, and answers 11021 for a language without one', async () => {
    const text = 'Wir gehen über die Brücke. Das ist ein Fehlr.';
    const answer = await post(ai, 'proofread/text', { text, lang: 'de' });
    expect(answer.code).toBe(0);
    expect(answer.data.dictionary).toBe('de_DE');
    const [issue] = answer.data.issues as { start: number; end: number; suggestions: string[] }[];
    expect(text.slice(issue!.start, issue!.end)).toBe('Fehlr');
    expect(issue!.suggestions).toContain('Fehler');
    expect((await post(ai, 'proofread/text', { text, lang: 'ja' })).code).toBe(ErrorCode.LanguageUnavailable);
  });

  it('lists a language for each installed dictionary, each of which checks text', async () => {
    const listed = ((await (await ai.raw('/api/ai/v2/proofread/languages')).json()) as Envelope<{ languages: string[] }>).data.languages;
    const installed = fs.readdirSync('/usr/share/hunspell').filter((n) => n.endsWith('.aff'));
    expect(listed).toHaveLength(installed.length);
    expect(listed).toEqual(expect.arrayContaining(['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'pt-BR', 'it-IT', 'nl']));
    for (const lang of ['en-GB', 'nl', 'pt-BR']) {
      const answer = await post(ai, 'proofread/text', { text: 'Hallo, hello, olá.', lang });
      expect(answer.code, lang).toBe(0);
      expect(answer.data.dictionary).toBe(lang.replace('-', '_'));
    }
  });

  it('reads an uploaded PDF’s text', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([595, 842]).drawText('This sentense has an eror.', { x: 72, y: 700, size: 12, font });
    const file = path.join(served.dir, 'errors.pdf');
    fs.writeFileSync(file, await doc.save());
    const answer = await post(ai, 'proofread/file', { file_id: await ai.uploadId(file), lang: 'en-GB' });
    expect(answer.code).toBe(0);
    expect(answer.data.text).toBe('This sentense has an eror.');
    expect(answer.data.dictionary).toBe('en_GB');
    expect(answer.data.corrected).toBe('This sentence has an error.');
  });

  it('reads a Word document’s text (through LibreOffice) and a Latin-1 text file’s', async () => {
    // The smallest .docx Word writes: its content types, its relationships and the document, zipped by Python.
    const docx = path.join(served.dir, 'errors.docx');
    const body =
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>This sentense has an eror.</w:t></w:r></w:p></w:body></w:document>';
    const types =
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
    const rels =
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
    execFileSync('python3', [
      '-c',
      'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], "w")\nfor name, text in zip(sys.argv[2::2], sys.argv[3::2]): z.writestr(name, text)\nz.close()',
      docx,
      '[Content_Types].xml',
      types,
      '_rels/.rels',
      rels,
      'word/document.xml',
      body,
    ]);
    const word = await post(ai, 'proofread/file', { file_id: await ai.uploadId(docx), lang: 'en-GB' });
    expect(word.code).toBe(0);
    expect(word.data.text).toBe('This sentense has an eror.');
    expect(word.data.corrected).toBe('This sentence has an error.');

    const latin1 = path.join(served.dir, 'errors.txt');
    fs.writeFileSync(latin1, Buffer.from('Caf\xe9 owners recieve letters.', 'latin1'));
    const text = await post(ai, 'proofread/file', { file_id: await ai.uploadId(latin1), lang: 'en-US' });
    expect(text.code).toBe(0);
    expect(text.data.text).toBe('Café owners recieve letters.');
    expect(text.data.corrected).toMatch(/owners receive letters\.$/);
  });
});

describe('explain', () => {
  it('gives WordNet’s senses, the part of speech chosen from the sentence', async () => {
    const noun = await post(ai, 'explain', { text: 'bank', context: 'We walked for hours. He sat on the bank of the river. It was late.' });
    expect(noun.code).toBe(0);
    expect(noun.data.sentence).toBe('He sat on the bank of the river.');
    expect(noun.data.pos).toBe('noun');
    expect(noun.data.senses[0].pos).toBe('noun');
    expect(noun.data.senses.some((s: { definition: string }) => /sloping land/.test(s.definition))).toBe(true);
    const verb = await post(ai, 'explain', { text: 'bank', context: 'The pilot had to bank the aircraft.' });
    expect(verb.data.pos).toBe('verb');
    expect(verb.data.senses[0].pos).toBe('verb');
    const none = await post(ai, 'explain', { text: 'xyzzyfoo' });
    expect(none.code).toBe(0);
    expect(none.data.senses).toEqual([]);
  });
});

describe('rewrite', () => {
  it('uses plainer words, splits a long sentence, flags passive voice and says a model does more', async () => {
    const text =
      'In order to utilize the data, we read every file that the office sent us last year; then we counted the words, ' +
      'the pages and the pictures in each of them before the meeting. The data was checked by the team.';
    const answer = await post(ai, 'rewrite', { text, mode: 'simplify' });
    expect(answer.code).toBe(0);
    expect(answer.data.text).toBe(
      'To use the data, we read every file that the office sent us last year. Then we counted the words, ' +
        'the pages and the pictures in each of them before the meeting. The data was checked by the team.',
    );
    const kinds = (answer.data.changes as { kind: string; to: string | null }[]).map((c) => c.kind);
    expect(kinds).toEqual(expect.arrayContaining(['wordy', 'plain-word', 'split', 'passive']));
    expect(answer.data.note).toMatch(/model/);
    const paraphrase = await post(ai, 'rewrite', { text, mode: 'paraphrase' });
    expect(paraphrase.data.text).toBe(text);
  });
});

describe('each tool streamed (…/stream)', () => {
  const stream = (client: Client, call: string, body: unknown) =>
    client.raw(`/api/ai/v2/${call}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const textOf = (events: AiStreamEvent[]) => events.map((e) => (e.type === 'text' ? e.text : '')).join('');

  it('sends the text, then the answer the plain call gives, then done with the tokens charged', async () => {
    const email = 'stream-language@example.org';
    const client = await signedIn(served.quire.url, served.quire.ctx, email, 'ai');
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([595, 842]).drawText('This sentense has an eror.', { x: 72, y: 700, size: 12, font });
    const pdf = path.join(served.dir, 'stream-errors.pdf');
    fs.writeFileSync(pdf, await doc.save());
    const fileId = await client.uploadId(pdf);
    const calls: [string, object, (answer: Envelope['data']) => string][] = [
      ['translate/text', { text: 'The big house has a green garden.', from: 'en', to: 'es' }, (a) => a.text],
      ['proofread/text', { text: 'This is is a sentense about the wether.', lang: 'en-US' }, (a) => a.corrected],
      ['proofread/file', { file_id: fileId, lang: 'en-GB' }, (a) => a.corrected],
      ['rewrite', { text: 'In order to win, we must utilize every hour.', mode: 'simplify' }, (a) => a.text],
      // Without a model an explanation has no text of its own: the senses come as the result.
      ['explain', { text: 'magma', context: 'A volcano erupts when magma rises.' }, () => ''],
    ];
    for (const [call, body, prose] of calls) {
      const plain = await post(client, call, body);
      expect(plain.code, call).toBe(0);
      const before = await usedTokens(email);
      const res = await stream(client, call, body);
      expect(res.headers.get('content-type'), call).toMatch(/^text\/event-stream/);
      const events = await readEvents(res);
      const text = textOf(events);
      expect(
        events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]),
        call,
      ).toEqual([...(text ? ['text'] : []), 'result', 'done']);
      expect(text, call).toBe(prose(plain.data));
      expect(
        events.find((e) => e.type === 'result'),
        call,
      ).toEqual({ type: 'result', result: plain.data });
      expect(events.at(-1), call).toEqual({ type: 'done', tokens: plain.data.tokens });
      expect((await usedTokens(email)) - before, call).toBe(plain.data.tokens);
    }
    expect(textOf(await readEvents(await stream(client, 'translate/text', calls[0]![1])))).toMatch(/casa/);
  });

  it('refuses a visitor (3001) and an account without tokens (11003) before the stream; a missing pair is an error event', async () => {
    const visitor = new Client(served.quire.url);
    expect(((await (await stream(visitor, 'rewrite', { text: 'In order to win.' })).json()) as Envelope).code).toBe(ErrorCode.NotLogin);

    const email = 'stream-free@example.org';
    const free = await signedIn(served.quire.url, served.quire.ctx, email, 'free');
    const events = await readEvents(await stream(free, 'translate/text', { text: 'The house', from: 'en', to: 'xx' }));
    expect(events).toEqual([{ type: 'error', code: ErrorCode.LanguageUnavailable, msg: expect.any(String) }]);
    expect(await usedTokens(email)).toBe(0);
    // 5 of the free account's 40 tokens left: a longer text is refused in the stream, with its dialog as an envelope has it.
    const words = (n: number) => 'word '.repeat(n).trim();
    expect((await post(free, 'translate/text', { text: words(FREE_TOKENS - 5), from: 'en', to: 'es' })).code).toBe(0);
    expect(await readEvents(await stream(free, 'translate/text', { text: words(12), from: 'en', to: 'es' }))).toEqual([
      { type: 'error', code: ErrorCode.NotEnoughTokens, msg: expect.any(String), data: { upgrade: 'AiUpgrade', limit: FREE_TOKENS } },
    ]);
    expect(await usedTokens(email)).toBe(FREE_TOKENS - 5);
    // Used up: refused before the stream.
    expect((await post(free, 'translate/text', { text: words(5), from: 'en', to: 'es' })).code).toBe(0);
    const refused = await stream(free, 'rewrite', { text: 'In order to win.' });
    expect(refused.headers.get('content-type')).toMatch(/json/);
    expect(((await refused.json()) as Envelope).code).toBe(ErrorCode.NotEnoughTokens);
  });
});
