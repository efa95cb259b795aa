// Builds the generative model behind the AI tools whose provider is `local` (the operator's GGUF
// file run by llama.cpp) or `openai` (an OpenAI-compatible endpoint). Until those engines are in,
// a tool set to either answers 11020: the service says it is not available rather than pretend.
import { ErrorCode, QuireError } from '@quire/contracts';
import type { Config } from './config.js';
import type { ModelProvider } from './engines/ai/model.js';

/** The model of a provider, built once per process on first use; 11020 when it cannot be. */
export function createModelProvider(_provider: ModelProvider['name'], _config: Config): ModelProvider {
  throw new QuireError(ErrorCode.AiUnavailable);
}
