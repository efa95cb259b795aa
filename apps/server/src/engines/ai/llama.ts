// llama.cpp as the local model's worker and the tests' OpenAI-compatible server both start it.
import { type ChatHistoryItem, getLlama, type LlamaContextSequence, LlamaLogLevel, type LlamaModel, type Token } from 'node-llama-cpp';
import type { ChatMessage } from './model.js';

/** llama.cpp's CPU build from its npm package: building it (or fetching its source) at run time is never wanted. */
export function prebuiltLlama() {
  return getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    usePrebuiltBinaries: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.error,
  });
}

/** The conversation as node-llama-cpp's chat history, which its chat wrappers format for the model. */
export function chatHistoryOf(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  return messages.map((m) => (m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content }));
}

/** Tokens read before a token to decode it as it stands in the text (a leading space, the rest of a character). */
const DECODE_CONTEXT_TOKENS = 8;
/** How far past the last token placed the next one's text may start: over a character split into byte tokens. */
const RESYNC_CHARS = 16;

/**
 * Where each token's text starts in `text` (UTF-16 code units). Each token is decoded in its
 * context and found in the text from where the last one ended. A token whose decoded text is not
 * there as it stands (a space the tokenizer added before the text, one byte of a character split
 * over several tokens) starts where the last token placed ended.
 */
export function tokenOffsets(model: LlamaModel, text: string, tokens: readonly Token[]): number[] {
  let cursor = 0;
  return tokens.map((token, i) => {
    const piece = model.detokenize([token], false, tokens.slice(Math.max(0, i - DECODE_CONTEXT_TOKENS), i));
    const found = piece && !piece.includes('\uFFFD') ? text.indexOf(piece, cursor) : -1;
    if (found < 0 || found - cursor > RESYNC_CHARS) return cursor;
    cursor = found + piece.length;
    return found;
  });
}

/**
 * Distributions evaluated at once: each is a map as large as the vocabulary (150,000 entries for
 * some models, megabytes each), so a piece of text is evaluated a few tokens at a time.
 */
const PREDICTION_BATCH = 16;

/**
 * Evaluates `tokens` in `sequence` from its start and hands `onPrediction` the model's distribution
 * of the token after each: index i is the prediction of tokens[i + 1], or of what follows the last.
 */
export async function predictEach(
  sequence: LlamaContextSequence,
  tokens: readonly Token[],
  onPrediction: (index: number, probabilities: Map<Token, number>) => void,
): Promise<void> {
  await sequence.clearHistory();
  for (let from = 0; from < tokens.length; from += PREDICTION_BATCH) {
    const batch = tokens.slice(from, from + PREDICTION_BATCH);
    const results = await sequence.controlledEvaluate(batch.map((token) => [token, { generateNext: { probabilities: true } }]));
    results.forEach((result, i) => {
      if (result?.next.probabilities) onPrediction(from + i, result.next.probabilities);
    });
  }
}
