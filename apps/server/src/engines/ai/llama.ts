// llama.cpp as the local model's worker and the tests' OpenAI-compatible server both start it.
import { type ChatHistoryItem, getLlama, LlamaLogLevel } from 'node-llama-cpp';
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
