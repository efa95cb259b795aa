// Calls to the AI suite's /api/ai/v2/ (same {code, msg, data} envelope as the tools API); its
// streamed answers are aiStream.ts's, which only the AI pages load (their events' schema is zod's).
import type { TokenCheck, occupationSaved, tokenCheck } from '@quire/contracts';
import { type Query, getJson, postJson, urlWithQuery, type Answer } from './client';

export const AI_BASE = '/api/ai/v2/';

export function aiUrl(path: string, query: Query = {}): string {
  return urlWithQuery(AI_BASE, path, query);
}

export function aiGet<T>(path: string, query: Query, signal?: AbortSignal): Promise<T> {
  return getJson<T>(aiUrl(path, query), signal);
}

export function aiPost<T>(path: string, body: unknown): Promise<T> {
  return postJson<T>(aiUrl(path), body);
}

/** The account's AI tokens used and its plan's total (this month's for the AI plan). */
export const aiTokens = (): Promise<TokenCheck> => aiGet<Answer<typeof tokenCheck>>('chat/gpt-token/check', {});

/** The occupation survey's answer, kept as the account's career. */
export const collectOccupation = (occupation: string): Promise<{ career: string }> =>
  aiPost<Answer<typeof occupationSaved>>('user-ext-info/collect', { occupation });
