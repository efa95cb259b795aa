// The local model's engine: llama.cpp (node-llama-cpp's prebuilt binaries) in a child process.
// local.ts bundles it and starts it through runEngine, so a model runs under a time limit and a
// memory bound, never in the server, and a cancelled job ends by ending the process. It reads its
// job from the JSON file named on its command line: a conversation to answer, written as one JSON
// line per piece of text with the tokens counted so far (what an answer stopped midway is
// charged), or a text to score, written as one line per piece the context holds. The last line
// is the final counts, or why it failed.
import fs from 'node:fs';
import { LlamaChat, type LlamaContextSequence, type LlamaModel } from 'node-llama-cpp';
import { chatHistoryOf, predictEach, prebuiltLlama, tokenOffsets } from './llama.js';
import type { LlamaJob, LlamaLine, ScoredTokenLine } from './llamaJobs.js';

const say = (line: LlamaLine) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function main() {
  const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LlamaJob;
  const llama = await prebuiltLlama();
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: job.modelPath });
  } catch (e) {
    return say({ type: 'failed', stage: 'load', message: (e as Error).message });
  }
  // A fixed size, not one node-llama-cpp fits to the machine's free memory: the memory bound decides, the same on every run.
  const context = await model.createContext({ contextSize: Math.min(job.contextTokens, model.trainContextSize), threads: job.threads });
  const sequence = context.getSequence();
  const usage = () => ({ promptTokens: sequence.tokenMeter.usedInputTokens, completionTokens: sequence.tokenMeter.usedOutputTokens });
  if (job.kind === 'score')
    return say({ type: 'done', usage: { promptTokens: await score(model, sequence, job.text), completionTokens: 0 } });
  await new LlamaChat({ contextSequence: sequence }).generateResponse(chatHistoryOf(job.messages), {
    maxTokens: job.maxTokens,
    temperature: job.temperature,
    onTextChunk: (text) => {
      if (text) say({ type: 'text', text, usage: usage() });
    },
  });
  say({ type: 'done', usage: usage() });
}

/** Probabilities this small or smaller are taken as this: a token the model rules out entirely still has a finite log-probability. */
const LEAST_PROBABILITY = 1e-30;

/**
 * Scores `text` in pieces of as many tokens as the context holds, each read from its start: each
 * token's log-probability and the entropy of the prediction it was drawn against. Resolves with
 * the tokens evaluated, counted here: node-llama-cpp's token meter counts a token with a
 * prediction asked of it as output, not input.
 */
async function score(model: LlamaModel, sequence: LlamaContextSequence, text: string): Promise<number> {
  const tokens = model.tokenize(text);
  const starts = tokenOffsets(model, text, tokens);
  // The start token gives each piece's first token a prediction; a model without one reads that token as context only.
  const bos = model.tokens.bos !== null && model.tokens.shouldPrependBosToken ? [model.tokens.bos] : [];
  const window = sequence.contextSize - bos.length;
  let evaluated = 0;
  for (let from = 0; from < tokens.length; from += window) {
    const piece = [...bos, ...tokens.slice(from, from + window)];
    const scored: ScoredTokenLine[] = [];
    await predictEach(sequence, piece, (i, probabilities) => {
      const next = from + i + 1 - bos.length;
      // The prediction after the piece's last token is of text beyond it.
      if (i + 1 === piece.length) return;
      let entropy = 0;
      for (const p of probabilities.values()) if (p > 0) entropy -= p * Math.log(p);
      scored.push([starts[next]!, Math.log(Math.max(probabilities.get(tokens[next]!) ?? 0, LEAST_PROBABILITY)), entropy]);
    });
    say({ type: 'scored', tokens: scored });
    evaluated += piece.length;
  }
  return evaluated;
}

main().catch((e: unknown) => {
  say({ type: 'failed', stage: 'run', message: e instanceof Error ? e.message : String(e) });
});
