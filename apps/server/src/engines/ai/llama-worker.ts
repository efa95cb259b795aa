// The local model's engine: llama.cpp (node-llama-cpp's prebuilt binaries) in a child process.
// local.ts bundles it and starts it through runEngine, so a model runs under a time limit and a
// memory bound, never in the server, and a cancelled answer ends by ending the process. It reads
// its job from the JSON file named on its command line and writes one JSON line per piece of text
// with the tokens counted so far (what an answer stopped midway is charged), then the last line:
// the final counts, or why it failed.
import fs from 'node:fs';
import { LlamaChat } from 'node-llama-cpp';
import { chatHistoryOf, prebuiltLlama } from './llama.js';
import type { LlamaJob, LlamaLine } from './llamaJobs.js';

const say = (line: LlamaLine) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main() {
  const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LlamaJob;
  const llama = await prebuiltLlama();
  let model: Awaited<ReturnType<typeof llama.loadModel>>;
  try {
    model = await llama.loadModel({ modelPath: job.modelPath });
  } catch (e) {
    return say({ type: 'failed', stage: 'load', message: (e as Error).message });
  }
  // A fixed size, not one node-llama-cpp fits to the machine's free memory: the memory bound decides, the same on every run.
  const context = await model.createContext({ contextSize: Math.min(job.contextTokens, model.trainContextSize), threads: job.threads });
  const sequence = context.getSequence();
  const usage = () => ({ promptTokens: sequence.tokenMeter.usedInputTokens, completionTokens: sequence.tokenMeter.usedOutputTokens });
  const chat = new LlamaChat({ contextSequence: sequence });
  await chat.generateResponse(chatHistoryOf(job.messages), {
    maxTokens: job.maxTokens,
    temperature: job.temperature,
    onTextChunk: (text) => {
      if (text) say({ type: 'text', text, usage: usage() });
    },
  });
  say({ type: 'done', usage: usage() });
}

main().catch((e: unknown) => {
  say({ type: 'failed', stage: 'generate', message: e instanceof Error ? e.message : String(e) });
});
