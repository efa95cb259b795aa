// A tiny llama-architecture GGUF model with random weights, written by the tests themselves: no
// model weights can be downloaded, and the AI layer's plumbing (streaming, stop, token counts,
// limits, errors) needs a real llama.cpp run, not a wise one.
//
// The vocabulary is SentencePiece-style: the three control tokens, the 256 byte-fallback tokens,
// and one token per character of TINY_MODEL_CHARS. With no token longer than one character every
// text has exactly one tokenisation, so a test can count tokens from text: one per character of
// TINY_MODEL_CHARS. The output rows of the control and byte tokens are zero while the others are
// random, so greedy decoding (temperature 0) never picks them and an answer never ends early.
import fs from 'node:fs';
import { LlamaCompletion } from 'node-llama-cpp';
import { prebuiltLlama } from '../src/engines/ai/llama.js';

/** The characters that are tokens of their own (the space as SentencePiece's ▁). */
export const TINY_MODEL_CHARS = ' abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,?!';

/** The tokens of `text`, which must be made of TINY_MODEL_CHARS (as the model's answers are): one a character. */
export function tinyModelTokens(text: string): number {
  const foreign = [...text].find((c) => !TINY_MODEL_CHARS.includes(c));
  if (foreign !== undefined) throw new Error(`${JSON.stringify(foreign)} is not one of the tiny model's one-character tokens`);
  return text.length;
}

/** Prose of exactly `n` characters: sentences of ordinary words, each character one of the tiny model's tokens. */
export function prose(n: number): string {
  const sentence = 'The river rose in the night, and by morning the lower fields were under water again. ';
  return sentence
    .repeat(Math.ceil(n / sentence.length))
    .slice(0, n - 1)
    .concat('.');
}

const EMBEDDING = 64;
const FEED_FORWARD = 128;
const HEADS = 4;
const LAYERS = 2;
const CONTEXT = 1 << 20;

const TYPE = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 } as const;
const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, byte: 6 } as const;
const GGML_F32 = 0;
const ALIGNMENT = 32;

type Value =
  | { uint32: number }
  | { float32: number }
  | { bool: boolean }
  | { string: string }
  | { strings: string[] }
  | { float32s: number[] }
  | { int32s: number[] };

class Writer {
  private chunks: Buffer[] = [];
  length = 0;
  bytes(b: Buffer) {
    this.chunks.push(b);
    this.length += b.length;
  }
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.bytes(b);
  }
  u64(n: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.bytes(b);
  }
  string(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.bytes(b);
  }
  padTo(alignment: number) {
    const pad = (alignment - (this.length % alignment)) % alignment;
    if (pad) this.bytes(Buffer.alloc(pad));
  }
  value(v: Value) {
    if ('uint32' in v) return this.typed(TYPE.uint32, () => this.u32(v.uint32));
    if ('float32' in v) return this.typed(TYPE.float32, () => this.bytes(f32([v.float32])));
    if ('bool' in v) return this.typed(TYPE.bool, () => this.bytes(Buffer.from([v.bool ? 1 : 0])));
    if ('string' in v) return this.typed(TYPE.string, () => this.string(v.string));
    if ('strings' in v)
      return this.array(TYPE.string, v.strings.length, () => {
        for (const s of v.strings) this.string(s);
      });
    if ('float32s' in v) return this.array(TYPE.float32, v.float32s.length, () => this.bytes(f32(v.float32s)));
    return this.array(TYPE.int32, v.int32s.length, () => this.bytes(Buffer.from(Int32Array.from(v.int32s).buffer)));
  }
  private typed(type: number, write: () => void) {
    this.u32(type);
    write();
  }
  private array(type: number, count: number, write: () => void) {
    this.u32(TYPE.array);
    this.u32(type);
    this.u64(count);
    write();
  }
  buffer() {
    return Buffer.concat(this.chunks);
  }
}

const f32 = (values: ArrayLike<number>) => Buffer.from(Float32Array.from(values).buffer);

/** A small deterministic generator (mulberry32): the same seed writes the same model. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary() {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types: number[] = [TOKEN_TYPE.unknown, TOKEN_TYPE.control, TOKEN_TYPE.control];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_TYPE.byte);
  }
  for (const c of TINY_MODEL_CHARS) {
    tokens.push(c === ' ' ? '\u2581' : c);
    types.push(TOKEN_TYPE.normal);
  }
  return { tokens, types };
}

/** Writes the model to `file` (about 1 MB) and returns its vocabulary size. */
export function writeTinyModel(file: string, seed = 1): number {
  const { tokens, types } = vocabulary();
  const vocab = tokens.length;
  const next = random(seed);
  const weights = (count: number, scale: number) => Array.from({ length: count }, () => (next() * 2 - 1) * scale);
  const ones = (count: number) => new Array<number>(count).fill(1);

  const output = weights(EMBEDDING * vocab, 0.5);
  // Rows of tokens greedy decoding must never pick: every logit of theirs is 0, below the best random one.
  types.forEach((type, row) => {
    if (type !== TOKEN_TYPE.normal) output.fill(0, row * EMBEDDING, (row + 1) * EMBEDDING);
  });
  const tensors: { name: string; dims: number[]; data: number[] }[] = [
    { name: 'token_embd.weight', dims: [EMBEDDING, vocab], data: weights(EMBEDDING * vocab, 1) },
    { name: 'output_norm.weight', dims: [EMBEDDING], data: ones(EMBEDDING) },
    { name: 'output.weight', dims: [EMBEDDING, vocab], data: output },
  ];
  for (let layer = 0; layer < LAYERS; layer++) {
    const blk = (name: string, dims: number[], data: number[]) => tensors.push({ name: `blk.${layer}.${name}.weight`, dims, data });
    const square = () => weights(EMBEDDING * EMBEDDING, 0.2);
    blk('attn_norm', [EMBEDDING], ones(EMBEDDING));
    blk('attn_q', [EMBEDDING, EMBEDDING], square());
    blk('attn_k', [EMBEDDING, EMBEDDING], square());
    blk('attn_v', [EMBEDDING, EMBEDDING], square());
    blk('attn_output', [EMBEDDING, EMBEDDING], square());
    blk('ffn_norm', [EMBEDDING], ones(EMBEDDING));
    blk('ffn_gate', [EMBEDDING, FEED_FORWARD], weights(EMBEDDING * FEED_FORWARD, 0.2));
    blk('ffn_up', [EMBEDDING, FEED_FORWARD], weights(EMBEDDING * FEED_FORWARD, 0.2));
    blk('ffn_down', [FEED_FORWARD, EMBEDDING], weights(EMBEDDING * FEED_FORWARD, 0.2));
  }

  const metadata: [string, Value][] = [
    ['general.architecture', { string: 'llama' }],
    ['general.name', { string: 'quire-tiny-test' }],
    ['general.alignment', { uint32: ALIGNMENT }],
    ['llama.context_length', { uint32: CONTEXT }],
    ['llama.embedding_length', { uint32: EMBEDDING }],
    ['llama.block_count', { uint32: LAYERS }],
    ['llama.feed_forward_length', { uint32: FEED_FORWARD }],
    ['llama.attention.head_count', { uint32: HEADS }],
    ['llama.attention.head_count_kv', { uint32: HEADS }],
    ['llama.rope.dimension_count', { uint32: EMBEDDING / HEADS }],
    ['llama.attention.layer_norm_rms_epsilon', { float32: 1e-5 }],
    ['llama.vocab_size', { uint32: vocab }],
    ['tokenizer.ggml.model', { string: 'llama' }],
    ['tokenizer.ggml.tokens', { strings: tokens }],
    ['tokenizer.ggml.scores', { float32s: tokens.map((_, i) => -i) }],
    ['tokenizer.ggml.token_type', { int32s: types }],
    ['tokenizer.ggml.unknown_token_id', { uint32: 0 }],
    ['tokenizer.ggml.bos_token_id', { uint32: 1 }],
    ['tokenizer.ggml.eos_token_id', { uint32: 2 }],
    ['tokenizer.ggml.add_bos_token', { bool: true }],
    ['tokenizer.ggml.add_eos_token', { bool: false }],
  ];

  const w = new Writer();
  w.bytes(Buffer.from('GGUF'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(metadata.length);
  for (const [key, value] of metadata) {
    w.string(key);
    w.value(value);
  }
  let offset = 0;
  for (const t of tensors) {
    w.string(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(GGML_F32);
    w.u64(offset);
    offset += Math.ceil((t.data.length * 4) / ALIGNMENT) * ALIGNMENT;
  }
  w.padTo(ALIGNMENT);
  for (const t of tensors) {
    w.bytes(f32(t.data));
    w.padTo(ALIGNMENT);
  }
  fs.writeFileSync(file, w.buffer());
  return vocab;
}

/**
 * `prompt` and the `count` tokens the model at `modelPath` writes after it, each its most likely
 * (greedy): text a machine wrote, as predictable to the model as any text can be.
 */
export async function tinyModelWriting(modelPath: string, prompt: string, count: number): Promise<string> {
  const llama = await prebuiltLlama();
  const model = await llama.loadModel({ modelPath });
  try {
    const context = await model.createContext({ contextSize: 4096, threads: 1 });
    const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
    return prompt + (await completion.generateCompletion(prompt, { maxTokens: count, temperature: 0 }));
  } finally {
    await model.dispose();
    await llama.dispose();
  }
}
