// The `local` provider: the operator's GGUF model run by llama.cpp in a child process
// (llama-worker.ts) started through runEngine, one process per answer or scored text. The process
// holds the model only while it works: a memory bound and a time limit apply to each job, a
// cancelled one ends by ending the process, and the server holds no model memory between them.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import { EngineTimeout, runEngine } from '../run.js';
import { bundledWorker } from '../workerBundle.js';
import type { LlamaJob, LlamaLine, LlamaTask } from './llamaJobs.js';
import type { GenerateRequest, GenerateUsage, ModelProvider, ScoredToken, TextScore } from './model.js';

const workerFile = bundledWorker(path.join(import.meta.dirname, 'llama-worker.ts'), ['node-llama-cpp']);

export interface LocalModelSettings {
  modelPath: string;
  /** Address space of the worker: the model file is mapped into it, and its context and buffers come on top. */
  memoryMb: number;
  contextTokens: number;
  /**
   * CPU threads of one answer. llama.cpp's threads wait for each other at every step by spinning:
   * on a machine busy with other work, more threads than free cores make an answer many times slower.
   */
  threads: number;
  /** One answer, from starting the worker to its last token. */
  timeoutMs: number;
  /** Where the job file (the conversation) is written for the worker, and removed after. */
  workDir: string;
}

const GGUF_MAGIC = 'GGUF';

/** Why the model file cannot be used, or undefined when it looks like a GGUF model (a cheap check for the start). */
export async function modelFileProblem(modelPath: string): Promise<string | undefined> {
  if (!modelPath) return 'no model file is named';
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(modelPath, 'r');
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    if (bytesRead < 4 || buffer.toString('latin1') !== GGUF_MAGIC) return 'it is not a GGUF file';
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : (e as Error).message;
  } finally {
    await handle?.close();
  }
}

const unavailable = (why: string) => {
  console.warn(`AI local model: ${why}`);
  return new QuireError(ErrorCode.AiUnavailable);
};

export function localModel(settings: LocalModelSettings): ModelProvider {
  return {
    name: 'local',
    generate: (request, onText) => generate(settings, request, onText),
    score: (text, signal) => score(settings, text, signal),
    // Nothing is held between answers: each worker ends with its answer.
    close: async () => {},
  };
}

async function generate(settings: LocalModelSettings, request: GenerateRequest, onText: (text: string) => void): Promise<GenerateUsage> {
  let usage: GenerateUsage = { promptTokens: 0, completionTokens: 0 };
  if (request.signal?.aborted) return usage;
  const job = { kind: 'generate', messages: request.messages, maxTokens: request.maxTokens, temperature: request.temperature } as const;
  const finished = await runWorker(settings, job, request.signal, (line) => {
    if (line.type === 'text' || line.type === 'done') usage = line.usage;
    if (line.type === 'text') onText(line.text);
  });
  // Cancelled: the answer so far stands, charged with the tokens llama.cpp had counted.
  return finished === 'cancelled' ? usage : finished.usage;
}

async function score(settings: LocalModelSettings, text: string, signal: AbortSignal): Promise<TextScore> {
  if (signal.aborted) throw new QuireError(ErrorCode.Cancelled);
  const tokens: ScoredToken[] = [];
  const finished = await runWorker(settings, { kind: 'score', text }, signal, (line) => {
    if (line.type === 'scored') for (const [start, logprob, entropy] of line.tokens) tokens.push({ start, logprob, entropy });
  });
  if (finished === 'cancelled') throw new QuireError(ErrorCode.Cancelled);
  return { scored: true, tokens, engineTokens: finished.usage.promptTokens };
}

/**
 * Runs `job` in a worker, handing `onLine` each line it writes until its last; resolves with that
 * last line (`done`), or 'cancelled' once `signal` aborts (the lines still in the pipe are dropped:
 * they were never shown). 11020 when the model cannot be used or the worker runs out of time.
 */
async function runWorker(
  settings: LocalModelSettings,
  task: LlamaTask,
  signal: AbortSignal | undefined,
  onLine: (line: LlamaLine) => void,
): Promise<Extract<LlamaLine, { type: 'done' }> | 'cancelled'> {
  const problem = await modelFileProblem(settings.modelPath);
  if (problem) throw unavailable(`${settings.modelPath}: ${problem}`);
  const job: LlamaJob = { modelPath: settings.modelPath, contextTokens: settings.contextTokens, threads: settings.threads, ...task };
  await fs.mkdir(settings.workDir, { recursive: true });
  const jobFile = path.join(settings.workDir, `llama-job-${crypto.randomUUID()}.json`);
  // The conversation or text is the user's: readable by this user only, removed once done.
  await fs.writeFile(jobFile, JSON.stringify(job), { mode: 0o600 });
  let last = undefined as LlamaLine | undefined;
  let stderr = '';
  try {
    const result = await runEngine(process.execPath, [await workerFile(), jobFile], {
      timeoutMs: settings.timeoutMs,
      memoryMb: settings.memoryMb,
      signal,
      onLine: (line) => {
        if (!line.startsWith('{') || signal?.aborted) return;
        last = JSON.parse(line) as LlamaLine;
        if (last.type !== 'failed') onLine(last);
      },
    });
    stderr = result.stderr;
  } catch (e) {
    if (!(e instanceof EngineTimeout)) throw e;
    if (signal?.aborted) return 'cancelled';
    throw unavailable(`${settings.modelPath}: no answer within ${settings.timeoutMs / 1000} s`);
  } finally {
    await fs.rm(jobFile, { force: true });
  }
  if (last?.type === 'done') return last;
  // llama.cpp failing to allocate under the bound reports it (a context it cannot create) or dies (no last line).
  const bounds = `memory bound ${settings.memoryMb} MB (QUIRE_AI_MODEL_MEMORY_MB), context ${settings.contextTokens} tokens`;
  if (last?.type === 'failed')
    throw unavailable(`${settings.modelPath}: ${last.stage === 'load' ? 'cannot be loaded' : 'failed'}: ${last.message}; ${bounds}`);
  throw unavailable(`${settings.modelPath}: the worker ended without an answer; ${bounds}: ${stderr.trim().slice(-500)}`);
}
