import { describe, expect, it } from 'vitest';
import type { fileInfo } from '@quire/contracts';
import {
  ApiError,
  NETWORK_ERROR,
  QUIET_SESSION_LOST_CODES,
  messageFor,
  onSessionLost,
  readEnvelope,
  setPageLanguage,
  type Answer,
} from './client';

describe('messageFor', () => {
  it('prefers the catalogue, then the server, then the generic message', () => {
    expect(messageFor(3122, 'x')).toBe('This file is password protected. Please enter the password.');
    expect(messageFor(777, 'Something specific')).toBe('Something specific');
    expect(messageFor(777)).toBe('Oops! Something went wrong. Please try again later.');
    expect(messageFor(NETWORK_ERROR)).toBe('Network error. Please connect to the Internet');
  });

  it('words the catalogue in the language set, falling back to English where it has no text', () => {
    const german: Record<number, string> = { 3122: 'Diese Datei ist passwortgeschützt.', [NETWORK_ERROR]: 'Netzwerkfehler.' };
    setPageLanguage('de', (code) => german[code]);
    try {
      expect(messageFor(3122, 'x')).toBe('Diese Datei ist passwortgeschützt.');
      expect(messageFor(NETWORK_ERROR)).toBe('Netzwerkfehler.');
      expect(new ApiError(3122).message).toBe('Diese Datei ist passwortgeschützt.');
      expect(messageFor(3106)).toBe('The file is empty.');
    } finally {
      setPageLanguage('en', () => undefined);
    }
  });

  it("keeps the server's exact message for invalid parameters", () => {
    expect(messageFor(3100, 'Please enter a valid page range.')).toBe('Please enter a valid page range.');
    // Limits are named by the server, which knows them.
    expect(messageFor(4013, 'The number of pages exceeds the limit of 2000 pages.')).toBe(
      'The number of pages exceeds the limit of 2000 pages.',
    );
    expect(messageFor(4013)).toBe('The number of pages exceeds the limit.');
  });

  it("keeps the server's words for a task that failed, which say why (it took too long) and what to try", () => {
    const render = 'Rendering the pages took too long and was stopped. Please choose fewer pages or a lower resolution.';
    expect(messageFor(3125, render)).toBe(render);
    expect(messageFor(3125)).toBe('Task failed. Please try again later.');
  });

  it("shows the server's message where it carries specifics: Premium's detector limit", () => {
    expect(messageFor(11009, 'Limit of 100,000 characters exceeded')).toBe('Limit of 100,000 characters exceeded');
    expect(messageFor(11009)).toBe('Not enough characters left for the AI detector.');
  });

  it("words NEED_OCR (4018) from the catalogue, and 3999 always as the catalogue's generic error", () => {
    expect(messageFor(4018)).toBe('OCR files are temporarily not supported');
    expect(messageFor(3999, 'Something the server said')).toBe('Oops! Something went wrong. Please try again later.');
  });
});

describe('ApiError', () => {
  it("gives a limit's refusal the server's reason, for the upgrade dialog to say", () => {
    const error = new ApiError(11003, 'Sorry, not enough tokens.', { upgrade: { upgrade: 'AiUpgrade', limit: 5000 } });
    expect(error.upgrade).toEqual({ upgrade: 'AiUpgrade', limit: 5000, reason: 'Sorry, not enough tokens.' });
    expect(new ApiError(11003).upgrade).toBeUndefined();
  });
});

describe('readEnvelope', () => {
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

  it('returns data on code 0, and refuses an answer without a numeric code', async () => {
    const data = { file_id: 'f', file_name: 'a.pdf', file_size: 1, file_url: '/x', page_w: 1, page_h: 1, total_page: 1, encrypted: false };
    await expect(readEnvelope<Answer<typeof fileInfo>>(json({ code: 0, msg: 'success', data }))).resolves.toEqual(data);
    await expect(readEnvelope(json({ msg: 'success', data }))).rejects.toMatchObject({ code: 500 });
  });

  it('throws the code of a failed call', async () => {
    const error = await readEnvelope<Answer<typeof fileInfo>>(json({ code: 3124, msg: 'broken', data: null }, 422)).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 3124, message: 'The PDF file is corrupted and cannot be processed.' });
  });

  it("keeps the answer's HTTP status, which tells a rate limit's 3500 (429) from a service away (503)", async () => {
    const refusal = (status: number) =>
      readEnvelope<Answer<typeof fileInfo>>(json({ code: 3500, msg: 'busy', data: null }, status)).catch((e: unknown) => e);
    expect(await refusal(429)).toMatchObject({ code: 3500, httpStatus: 429 });
    expect(await refusal(503)).toMatchObject({ code: 3500, httpStatus: 503 });
  });

  it('treats a page that is not JSON from a failing gateway as busy', async () => {
    const error = await readEnvelope<Answer<typeof fileInfo>>(new Response('<html>bad gateway</html>', { status: 502 })).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 3500 });
  });
});

describe('onSessionLost', () => {
  const answer = (code: number) => new Response(JSON.stringify({ code, msg: 'x', data: null }), { status: 401 });

  it('hears 3001 and 1408 from any call, and nothing else, until unsubscribed', async () => {
    const heard: number[] = [];
    const unsubscribe = onSessionLost((code) => heard.push(code));
    for (const code of [3001, 1408, 3002, 3124]) await readEnvelope<Answer<typeof fileInfo>>(answer(code)).catch(() => undefined);
    unsubscribe();
    await readEnvelope<Answer<typeof fileInfo>>(answer(1408)).catch(() => undefined);
    expect(heard).toEqual([3001, 1408]);
  });

  it("hears the catalogue's 1401 and 3011 too, as the codes that sign out without asking to sign in", async () => {
    const heard: number[] = [];
    const unsubscribe = onSessionLost((code) => heard.push(code));
    for (const code of [1401, 3011, 3012]) {
      const error = await readEnvelope<Answer<typeof fileInfo>>(answer(code)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
    }
    unsubscribe();
    expect(heard).toEqual([1401, 3011]);
    // Of the codes heard, only these keep the sign-in dialog closed.
    expect([...QUIET_SESSION_LOST_CODES].sort()).toEqual([1401, 3011]);
  });
});
