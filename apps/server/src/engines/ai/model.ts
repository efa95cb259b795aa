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

export interface ModelProvider {
  readonly name: 'local' | 'openai';
  /** Streams the answer's text to `onText` as it comes; resolves with the engine's token counts. */
  generate(request: GenerateRequest, onText: (text: string) => void): Promise<GenerateUsage>;
  /** Frees the model (the local worker) or the connection pool. */
  close(): Promise<void>;
}
