// A streamed AI answer, whichever provider writes it: the classic provider's text known in full
// (charged in words before it is sent), or a model's (its most possible cost reserved, then what
// the engine counted kept). Chat, summaries and the language tools answer through these; a task's
// tool (a PDF's translation) gets its models through taskModels, each answer charged the same way.
import type { AiCitation, AiTool } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { ChatMessage, GenerateRequest, GenerateUsage, ModelProvider } from '../engines/ai/model.js';
import { countWords } from '../classic/text.js';
import { findAccount } from '../db/accountsRepo.js';
import { accountIdOfOwner } from './accounts.js';
import { aiAccountOf, chargedTokens, chargeTokens, refundTokens, reserveTokens, type AiAccount, type TokenCharge } from './aiQuota.js';

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

/** What a model's request was charged ahead: the reservation, its tokens, and its prompt's bound within them. */
interface Reserved {
  charge: TokenCharge;
  tokens: number;
  promptBound: number;
}

/**
 * Charges ahead the most a request could cost: the prompt at one token per UTF-8 byte, which no
 * tokenizer exceeds as byte fallback is its worst case, its chat template's own tokens, and up to
 * `maxTokens` written. An answer `cut` to the tokens left needs its prompt's bound left (a chat's:
 * what is written is shown as it comes); else all of it (a task's paragraph, of no use cut short);
 * 11003 otherwise.
 */
async function reserveFor(
  ctx: AppContext,
  account: AiAccount,
  messages: readonly ChatMessage[],
  maxTokens: number,
  cut: boolean,
): Promise<Reserved> {
  const promptBound = messages.reduce((n, m) => n + Buffer.byteLength(m.content), CHAT_TEMPLATE_TOKENS);
  const most = promptBound + maxTokens;
  const charge = await reserveTokens(ctx, account, most, cut ? promptBound + 1 : most);
  return { charge, tokens: chargedTokens(charge), promptBound };
}

/**
 * Runs `request` on `model` within what `reserved` paid for (its answer cut to fit), keeps what the
 * engine reports it used and gives back the rest, or all of it if the engine fails. Answers the
 * engine's usage and the charge kept.
 */
async function generateReserved(
  ctx: AppContext,
  account: AiAccount,
  model: ModelProvider,
  reserved: Reserved,
  request: Omit<GenerateRequest, 'maxTokens'>,
  onText: (text: string) => void,
): Promise<{ usage: GenerateUsage; kept: TokenCharge }> {
  try {
    const usage = await model.generate({ ...request, maxTokens: reserved.tokens - reserved.promptBound }, onText);
    const tokens = Math.min(reserved.tokens, usage.promptTokens + usage.completionTokens);
    return { usage, kept: await refundTokens(ctx, account, reserved.charge, reserved.tokens - tokens) };
  } catch (e) {
    await refundTokens(ctx, account, reserved.charge, reserved.tokens);
    throw e;
  }
}

/** A model's answer: its most possible cost (reserveFor, up to MODEL_MAX_TOKENS written) charged ahead, what the engine counted kept. */
export async function modelAnswer(
  ctx: AppContext,
  account: AiAccount,
  model: ModelProvider,
  system: string,
  prompt: string,
  citations: AiCitation[],
): Promise<PreparedAnswer> {
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: prompt },
  ];
  const reserved = await reserveFor(ctx, account, messages, MODEL_MAX_TOKENS, true);
  return {
    citations,
    async speak(onText, signal) {
      let text = '';
      const { kept } = await generateReserved(ctx, account, model, reserved, { messages, signal }, (piece) => {
        text += piece;
        onText(piece);
      });
      return { text, tokens: chargedTokens(kept), cancelled: signal.aborted };
    },
  };
}

/** The models a task's tool may ask for (ToolContext.modelFor), answering for the task's owner. */
export interface TaskModels {
  /**
   * The model of `tool`, each of its answers charged to the owner's tokens as a model's answer is
   * (reserveFor: 11003 when the account cannot pay the whole of the next); null for the classic provider.
   */
  modelFor(tool: AiTool): ModelProvider | null;
  /** Gives back all the task's answers were charged: it failed, so its owner has none of them. */
  refund(): Promise<void>;
}

/** The AI account of a task's owner: 3001 for an anonymous visitor's, as the AI calls answer one. */
async function ownerAccount(ctx: AppContext, ownerId: string): Promise<AiAccount> {
  const id = accountIdOfOwner(ownerId);
  return aiAccountOf(ctx, { ownerId, account: id === undefined ? undefined : await findAccount(ctx.db, id) });
}

/** TaskModels for a task of `ownerId`: their account's plan and bonus as they are when a model is first asked. */
export function taskModels(ctx: AppContext, ownerId: string): TaskModels {
  let owner: Promise<AiAccount> | undefined;
  const payer = () => (owner ??= ownerAccount(ctx, ownerId));
  const kept: TokenCharge = { plan: 0, bonus: 0 };
  return {
    modelFor(tool) {
      const model = ctx.modelFor(tool);
      if (!model) return null;
      return {
        ...model,
        async generate(request, onText) {
          const account = await payer();
          const answer = await generateReserved(
            ctx,
            account,
            model,
            await reserveFor(ctx, account, request.messages, request.maxTokens, false),
            request,
            onText,
          );
          kept.plan += answer.kept.plan;
          kept.bonus += answer.kept.bonus;
          return answer.usage;
        },
      };
    },
    async refund() {
      if (chargedTokens(kept) > 0) await refundTokens(ctx, await owner!, kept, chargedTokens(kept));
    },
  };
}
