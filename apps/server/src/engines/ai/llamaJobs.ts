// What the local model's provider (local.ts) and its worker (llama-worker.ts) say to each other.
import type { ChatMessage, GenerateUsage } from './model.js';

/** What the worker is asked: answer a conversation, or score a text. */
export type LlamaTask =
  | { kind: 'generate'; messages: readonly ChatMessage[]; maxTokens: number; temperature: number | undefined }
  | { kind: 'score'; text: string };

/** The job file: the model, its context, and the task. */
export type LlamaJob = {
  modelPath: string;
  contextTokens: number;
  /** CPU threads llama.cpp computes with. */
  threads: number;
} & LlamaTask;

/** A scored token as the worker writes it, short as a scored text has thousands: [start, logprob, entropy]. */
export type ScoredTokenLine = [start: number, logprob: number, entropy: number];

/** One line of the worker's output: `usage` counts the tokens llama.cpp evaluated so far. */
export type LlamaLine =
  | { type: 'text'; text: string; usage: GenerateUsage }
  /** The tokens of one piece of a scored text (as much as the context holds). */
  | { type: 'scored'; tokens: ScoredTokenLine[] }
  | { type: 'done'; usage: GenerateUsage }
  | { type: 'failed'; stage: 'load' | 'run'; message: string };
