// A tiny llama-architecture GGUF for tests: a few layers of tiny dimension,
// seeded random F32 weights, a small SentencePiece ('llama') vocabulary with
// byte fallback, and a ChatML chat template. Its output is gibberish by
// design; it exists so the embedded GGUF path can be tested without weights
// from anywhere.
import { rng } from '../../src/util/rng.js';
import { writeGguf, type GgufTensor, type GgufValue } from './gguf.js';

// Token types as llama.cpp reads tokenizer.ggml.token_type.
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const BYTE = 6;

const SPECIALS = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
const IM_END = 4;
const WORDS = ['▁the', '▁a', '▁is', '▁of', 'he', 'll', 'in', 'er', 'on', '▁user', '▁assistant', 'user', 'assistant', 'system'];

const CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface TinyVocab {
  tokens: string[];
  scores: number[];
  types: number[];
  /** Ids that end generation (EOS, <|im_end|>). */
  eog: number[];
}

export function tinyVocab(): TinyVocab {
  const tokens: string[] = [...SPECIALS];
  const types: number[] = [UNKNOWN, CONTROL, CONTROL, CONTROL, CONTROL];
  const scores: number[] = SPECIALS.map(() => 0);
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(BYTE);
    scores.push(0);
  }
  const pieces = ['▁', ...Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)), ...WORDS];
  pieces.forEach((p, i) => {
    tokens.push(p);
    types.push(NORMAL);
    scores.push(-(i + 1) / 10 + p.length);
  });
  return { tokens, scores, types, eog: [2, IM_END] };
}

export interface TinyLlamaOptions {
  seed?: number;
  layers?: number;
  embd?: number;
  heads?: number;
  kvHeads?: number;
  ff?: number;
  contextLength?: number;
  /**
   * A model whose first token is always <|im_end|>: constant embeddings,
   * blocks that add nothing, and an output row for <|im_end|> aligned with
   * the final hidden state.
   */
  endAtOnce?: boolean;
}

/** Writes the tiny model to `path`; returns its vocabulary. */
export function writeTinyLlama(path: string, opts: TinyLlamaOptions = {}): TinyVocab {
  const { seed = 7, layers = 2, embd = 64, heads = 4, kvHeads = 2, ff = 128, contextLength = 512, endAtOnce = false } = opts;
  const vocab = tinyVocab();
  const nVocab = vocab.tokens.length;
  const headDim = embd / heads;
  const random = rng(seed);
  const weights = (n: number, scale: number) => Float32Array.from({ length: n }, () => (random() * 2 - 1) * scale);
  const ones = (n: number) => new Float32Array(n).fill(1);

  const output = weights(embd * nVocab, endAtOnce ? 0.1 : 1);
  // End-of-generation rows get zero logits, so greedy decoding (whose best
  // random logit is almost surely positive) runs to the token limit.
  for (const id of vocab.eog) output.fill(endAtOnce && id === IM_END ? 1 : 0, id * embd, (id + 1) * embd);
  const zeroIfEnd = (w: Float32Array) => (endAtOnce ? w.fill(0) : w);

  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [embd, nVocab], data: endAtOnce ? ones(embd * nVocab) : weights(embd * nVocab, 1) },
    { name: 'output_norm.weight', dims: [embd], data: ones(embd) },
    { name: 'output.weight', dims: [embd, nVocab], data: output },
  ];
  const kvDim = headDim * kvHeads;
  for (let l = 0; l < layers; l++) {
    const s = 1 / Math.sqrt(embd);
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [embd], data: ones(embd) },
      { name: `blk.${l}.attn_q.weight`, dims: [embd, embd], data: weights(embd * embd, s) },
      { name: `blk.${l}.attn_k.weight`, dims: [embd, kvDim], data: weights(embd * kvDim, s) },
      { name: `blk.${l}.attn_v.weight`, dims: [embd, kvDim], data: weights(embd * kvDim, s) },
      { name: `blk.${l}.attn_output.weight`, dims: [embd, embd], data: zeroIfEnd(weights(embd * embd, s)) },
      { name: `blk.${l}.ffn_norm.weight`, dims: [embd], data: ones(embd) },
      { name: `blk.${l}.ffn_gate.weight`, dims: [embd, ff], data: weights(embd * ff, s) },
      { name: `blk.${l}.ffn_up.weight`, dims: [embd, ff], data: weights(embd * ff, s) },
      { name: `blk.${l}.ffn_down.weight`, dims: [ff, embd], data: zeroIfEnd(weights(ff * embd, 1 / Math.sqrt(ff))) },
    );
  }

  const u32 = (value: number): GgufValue => ({ type: 'u32', value });
  writeGguf(
    path,
    {
      'general.architecture': { type: 'string', value: 'llama' },
      'general.name': { type: 'string', value: 'frognano-tiny-test' },
      'general.file_type': u32(0),
      'llama.context_length': u32(contextLength),
      'llama.embedding_length': u32(embd),
      'llama.block_count': u32(layers),
      'llama.feed_forward_length': u32(ff),
      'llama.attention.head_count': u32(heads),
      'llama.attention.head_count_kv': u32(kvHeads),
      'llama.attention.layer_norm_rms_epsilon': { type: 'f32', value: 1e-5 },
      'llama.rope.dimension_count': u32(headDim),
      'llama.rope.freq_base': { type: 'f32', value: 10000 },
      'llama.vocab_size': u32(nVocab),
      'tokenizer.ggml.model': { type: 'string', value: 'llama' },
      'tokenizer.ggml.tokens': { type: 'string[]', value: vocab.tokens },
      'tokenizer.ggml.scores': { type: 'f32[]', value: vocab.scores },
      'tokenizer.ggml.token_type': { type: 'i32[]', value: vocab.types },
      'tokenizer.ggml.unknown_token_id': u32(0),
      'tokenizer.ggml.bos_token_id': u32(1),
      'tokenizer.ggml.eos_token_id': u32(2),
      'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
      'tokenizer.ggml.add_space_prefix': { type: 'bool', value: false },
      'tokenizer.chat_template': { type: 'string', value: CHATML },
    },
    tensors,
  );
  return vocab;
}
