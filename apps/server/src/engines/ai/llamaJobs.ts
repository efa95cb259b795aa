// What the local model's provider (local.ts) and its worker (llama-worker.ts) say to each other.
import type { ChatMessage, GenerateUsage } from './model.js';

/** The job file: the model, its context and the conversation to answer. */
export interface LlamaJob {
  modelPath: string;
  contextTokens: number;
  /** CPU threads llama.cpp computes with. */
  threads: number;
  messages: readonly ChatMessage[];
  maxTokens: number;
  temperature: number | undefined;
}

/** One line of the worker's output. */
export type LlamaLine =
  | { type: 'text'; text: string; usage: GenerateUsage }
  | { type: 'done'; usage: GenerateUsage }
  | { type: 'failed'; stage: 'load' | 'generate'; message: string };
