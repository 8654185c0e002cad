// The hashed context features of the tiny model, and its sampling rule. Each position's next-token
// logits are the sum of the weight rows of its FEATURES_PER_POSITION buckets.
// The features are chosen so that the model can memorise a fixed output format
// (position since the last special token, with the specials seen) and learn a
// choice that depends on the last few tokens (n-grams).

import type { DevSampleParams } from './backend.js';

/** Bias, last token, last two, last three, (distance, last three specials), (distance, last token). */
export const FEATURES_PER_POSITION = 6;
/** The distance from the last special token saturates here. */
export const SINCE_SPECIAL_CAP = 255;

const NONE = -1;

export const isToken = (t: unknown, vocab: number): t is number => typeof t === 'number' && Number.isInteger(t) && t >= 0 && t < vocab;

/** One round of murmur3's block mix: folds a 32-bit value into a running hash. */
function mix(h: number, value: number): number {
  let k = Math.imul(value | 0, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  let x = h ^ k;
  x = (x << 13) | (x >>> 19);
  return (Math.imul(x, 5) + 0xe6546b64) | 0;
}

/** murmur3's finaliser, so that nearby keys land in unrelated buckets. */
function finish(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The bucket of a feature: its kind and values, hashed. A fixed hash seed keeps buckets stable across models and checkpoints. */
export function bucketOf(buckets: number, kind: number, ...values: number[]): number {
  let h = mix(0x5eed1234, kind);
  for (const v of values) h = mix(h, v);
  return finish(h) % buckets;
}

/**
 * The state of a left-to-right read of a token sequence, enough to name the
 * features that predict the next token. forward_backward and sampling both go
 * through it, so a sampled token's logprob equals the trained logprob.
 */
export class ContextTracker {
  private last1 = NONE;
  private last2 = NONE;
  private last3 = NONE;
  private special1 = NONE;
  private special2 = NONE;
  private special3 = NONE;
  private sinceSpecial = 0;

  constructor(
    private readonly specials: ReadonlySet<number>,
    private readonly buckets: number,
  ) {}

  push(token: number): void {
    this.last3 = this.last2;
    this.last2 = this.last1;
    this.last1 = token;
    if (this.specials.has(token)) {
      this.special3 = this.special2;
      this.special2 = this.special1;
      this.special1 = token;
      this.sinceSpecial = 0;
    } else if (this.sinceSpecial < SINCE_SPECIAL_CAP) {
      this.sinceSpecial++;
    }
  }

  /** Writes the buckets of the features that predict the token after the last pushed one into out[offset, offset + FEATURES_PER_POSITION). */
  features(out: Int32Array, offset: number): void {
    const h = this.buckets;
    const d = this.sinceSpecial;
    out[offset] = bucketOf(h, 0);
    out[offset + 1] = bucketOf(h, 1, this.last1);
    out[offset + 2] = bucketOf(h, 2, this.last1, this.last2);
    out[offset + 3] = bucketOf(h, 3, this.last1, this.last2, this.last3);
    out[offset + 4] = bucketOf(h, 4, d, this.special1, this.special2, this.special3);
    out[offset + 5] = bucketOf(h, 5, d, this.last1);
  }

  clone(): ContextTracker {
    const copy = new ContextTracker(this.specials, this.buckets);
    copy.last1 = this.last1;
    copy.last2 = this.last2;
    copy.last3 = this.last3;
    copy.special1 = this.special1;
    copy.special2 = this.special2;
    copy.special3 = this.special3;
    copy.sinceSpecial = this.sinceSpecial;
    return copy;
  }
}

/** The feature buckets of every input position: row i (FEATURES_PER_POSITION wide) predicts the token after tokens[i]. */
export function sequenceFeatures(tokens: readonly number[], specials: ReadonlySet<number>, buckets: number): Int32Array {
  const out = new Int32Array(tokens.length * FEATURES_PER_POSITION);
  const tracker = new ContextTracker(specials, buckets);
  for (let i = 0; i < tokens.length; i++) {
    tracker.push(tokens[i]!);
    tracker.features(out, i * FEATURES_PER_POSITION);
  }
  return out;
}

/** Throws for a prompt outside the vocabulary or sampling parameters out of range. */
export function checkSampleArgs(prompt: number[], n: number, p: DevSampleParams, vocabSize: number): void {
  const bad = prompt.findIndex((t) => !isToken(t, vocabSize));
  if (bad >= 0) throw new Error(`prompt token ${String(prompt[bad])} at ${bad} is outside the vocabulary [0, ${vocabSize})`);
  if (!Number.isInteger(n) || n < 1) throw new Error(`num_samples must be a positive integer, got ${n}`);
  if (!Number.isInteger(p.maxTokens) || p.maxTokens < 0) throw new Error(`max_tokens must be an integer >= 0, got ${p.maxTokens}`);
  if (!(p.temperature >= 0) || !Number.isFinite(p.temperature)) throw new Error(`temperature must be >= 0, got ${p.temperature}`);
  if (!Number.isInteger(p.topK)) throw new Error(`top_k must be an integer, got ${p.topK}`);
  if (!(p.topP > 0 && p.topP <= 1)) throw new Error(`top_p must be in (0, 1], got ${p.topP}`);
  if (!Number.isInteger(p.seed)) throw new Error(`seed must be an integer, got ${p.seed}`);
}

/**
 * One token from raw logits: temperature 0 takes the argmax; otherwise the
 * logits are divided by the temperature, cut to the top_k (<= 0: all), then
 * to the smallest head whose probability reaches top_p (the top token always
 * stays), and drawn from the renormalised rest — SkyRL's order (tx/utils/generator.py).
 */
export function pickToken(logits: Float64Array, p: DevSampleParams, random: () => number): number {
  if (p.temperature === 0) {
    let best = 0;
    for (let j = 1; j < logits.length; j++) if (logits[j]! > logits[best]!) best = j;
    return best;
  }
  let order = Array.from(logits.keys());
  if (p.topK > 0 || p.topP < 1) order.sort((a, b) => logits[b]! - logits[a]! || a - b);
  if (p.topK > 0) order = order.slice(0, p.topK);
  const max = Math.max(...order.map((j) => logits[j]!));
  let weights = order.map((j) => Math.exp((logits[j]! - max) / p.temperature));
  if (p.topP < 1) {
    const total = weights.reduce((a, b) => a + b, 0);
    let before = 0;
    let keep = 0;
    while (keep < weights.length && (keep === 0 || before < p.topP * total)) before += weights[keep++]!;
    order = order.slice(0, keep);
    weights = weights.slice(0, keep);
  }
  let u = random() * weights.reduce((a, b) => a + b, 0);
  for (let k = 0; k < order.length; k++) {
    u -= weights[k]!;
    if (u < 0) return order[k]!;
  }
  return order[order.length - 1]!;
}
