// What a generative model offers the AI layer, whichever engine runs it: llama.cpp on the
// operator's GGUF file (`local`) or an OpenAI-compatible endpoint (`openai`). The classic provider
// is not a model and does not implement this.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerateRequest {
  messages: readonly ChatMessage[];
  /** Most tokens to generate. */
  maxTokens: number;
  temperature?: number;
  /** Aborting stops generation; `generate` then resolves with the tokens counted so far. */
  signal?: AbortSignal;
}

/** Tokens as the engine itself reports them: these are what an account is charged. */
export interface GenerateUsage {
  promptTokens: number;
  completionTokens: number;
}

/** How the model read one token of a text it scored. */
export interface ScoredToken {
  /** Where the token's text starts in the scored text (UTF-16 code units). */
  start: number;
  /** ln p(token | the tokens before it): the model's log-probability of what the text says next. */
  logprob: number;
  /**
   * The entropy (nats) of the model's prediction at this place: the log-loss it expects of its own
   * choice. A lower bound where an endpoint gives only its most likely tokens (openai.ts).
   */
  entropy: number;
}

/**
 * A text's tokens as the model read them, in order. The first token of the text (or of a piece of
 * a long text) has no prediction before it where the model has no start token: it is left out.
 */
export type TextScore =
  | {
      scored: true;
      tokens: ScoredToken[] /** Tokens the engine evaluated, start tokens and every piece of a long text counted. */;
      engineTokens: number;
    }
  /** The engine gives no log-probabilities of a text it is sent (an endpoint without `echo`); `why` is for the log. */
  | { scored: false; why: string };

export interface ModelProvider {
  readonly name: 'local' | 'openai';
  /** Streams the answer's text to `onText` as it comes; resolves with the engine's token counts. */
  generate(request: GenerateRequest, onText: (text: string) => void): Promise<GenerateUsage>;
  /**
   * The log-probability and entropy of each token of `text`, read in pieces that fit the model's
   * context. 11020 when the engine fails or runs out of time; aborting `signal` ends the work and
   * rejects with 3127 (cancelled).
   */
  score(text: string, signal: AbortSignal): Promise<TextScore>;
  /** Frees the model (the local worker) or the connection pool. */
  close(): Promise<void>;
}
