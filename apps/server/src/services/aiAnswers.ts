// A streamed AI answer, whichever provider writes it: the classic provider's text known in full
// (charged in words before it is sent), or a model's (its most possible cost reserved, then what
// the engine counted kept). Chat, summaries and the language tools answer through these.
import type { AiCitation } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { ModelProvider } from '../engines/ai/model.js';
import { countWords } from '../classic/text.js';
import { chargedTokens, chargeTokens, refundTokens, reserveTokens, type AiAccount } from './aiQuota.js';

/** A classic answer is sent a few words at a time, this far apart: the page shows it as it comes and can stop it. */
const STREAM_PIECE_MS = 25;
const STREAM_PIECE_WORDS = 4;
/** Most tokens a model may write for one answer or summary. */
export const MODEL_MAX_TOKENS = 600;
/**
 * Tokens a model's chat template adds around the messages (role markers, a default system line,
 * a date): tens in the templates of Llama 2 and 3, ChatML and Mistral; this leaves room to spare.
 */
const CHAT_TEMPLATE_TOKENS = 256;

/** An answer ready to be sent: its citations, and `speak`, which sends its text and settles its tokens. */
export interface PreparedAnswer {
  citations: AiCitation[];
  /** Sends the text in pieces to `onText` (paced when `paced`) until done or `signal` stops it. */
  speak(onText: (text: string) => void, signal: AbortSignal, paced: boolean): Promise<SpokenAnswer>;
}

export interface SpokenAnswer {
  text: string;
  /** Tokens charged in the end (a stopped answer is charged what was sent). */
  tokens: number;
  cancelled: boolean;
}

/**
 * A classic answer: its whole text is known, so its tokens (the words of `prompt` and of the text)
 * are charged before a word is sent (11003 if they are more than are left); a stopped answer gets
 * back the words it did not send.
 */
export async function classicAnswer(
  ctx: AppContext,
  account: AiAccount,
  prompt: string,
  text: string,
  citations: AiCitation[],
): Promise<PreparedAnswer> {
  const charged = countWords(prompt) + countWords(text);
  const charge = await chargeTokens(ctx, account, charged);
  return {
    citations,
    async speak(onText, signal, paced) {
      const pieces = text.split(/(?<=\s)/);
      let sent = '';
      for (let i = 0; i < pieces.length; i += STREAM_PIECE_WORDS) {
        if (signal.aborted) break;
        const piece = pieces.slice(i, i + STREAM_PIECE_WORDS).join('');
        sent += piece;
        onText(piece);
        if (paced) await new Promise((r) => setTimeout(r, STREAM_PIECE_MS));
      }
      const cancelled = sent.length < text.length;
      const tokens = cancelled ? countWords(prompt) + countWords(sent) : charged;
      await refundTokens(ctx, account, charge, charged - tokens);
      return { text: sent, tokens, cancelled };
    },
  };
}

/**
 * A model's answer: the most it could cost (the prompt at one token per UTF-8 byte, which no
 * tokenizer exceeds as byte fallback is its worst case, its chat template's own tokens, and up to
 * MODEL_MAX_TOKENS written) is charged ahead within what is left, then what the engine reports it
 * used is kept and the rest given back.
 */
export async function modelAnswer(
  ctx: AppContext,
  account: AiAccount,
  model: ModelProvider,
  system: string,
  prompt: string,
  citations: AiCitation[],
): Promise<PreparedAnswer> {
  const promptBound = Buffer.byteLength(system) + Buffer.byteLength(prompt) + CHAT_TEMPLATE_TOKENS;
  const reservation = await reserveTokens(ctx, account, promptBound + MODEL_MAX_TOKENS, promptBound + 1);
  const reserved = chargedTokens(reservation);
  return {
    citations,
    async speak(onText, signal) {
      let text = '';
      try {
        const usage = await model.generate(
          {
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: prompt },
            ],
            maxTokens: reserved - promptBound,
            signal,
          },
          (piece) => {
            text += piece;
            onText(piece);
          },
        );
        const tokens = Math.min(reserved, usage.promptTokens + usage.completionTokens);
        await refundTokens(ctx, account, reservation, reserved - tokens);
        return { text, tokens, cancelled: signal.aborted };
      } catch (e) {
        await refundTokens(ctx, account, reservation, reserved);
        throw e;
      }
    },
  };
}
