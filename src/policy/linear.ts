// The embedded policy's parameters: a log-linear model over candidate repairs, π(a) ∝ exp(w·φ(a) / T), with exact
// log-probabilities, the score-function gradient (φ(a) − E_π[φ]) / T, Adam-style updates and small JSON checkpoints.
import { readFileSync } from 'node:fs';
import { isRecord } from '../util/guards.js';
import { FEATURE_DIM, FEATURE_VERSION, priorWeights, type Sparse } from './features.js';
import { writeJsonAtomic } from '../util/atomic-json.js';

/** One choice the policy made: every candidate's features and the one taken. */
export interface Decision {
  feats: Sparse[];
  chosen: number;
  temperature: number;
  /** The repair was undone (the tests did not improve) or did not apply: no part of the submitted change. */
  undone?: boolean;
}

export interface PolicyCheckpoint {
  schema: 'frognano.embedded-policy/v1';
  featureVersion: number;
  step: number;
  weights: number[];
  adam: { m: number[]; v: number[]; t: number };
}

function dot(w: Float64Array, f: Sparse): number {
  let s = 0;
  for (let i = 0; i < f.idx.length; i++) s += w[f.idx[i]!]! * f.val[i]!;
  return s;
}

export class LinearPolicy {
  /** Where the weights start, and where weight decay pulls them back to. */
  readonly w0: Float64Array;
  readonly w: Float64Array;
  private m = new Float64Array(FEATURE_DIM);
  private v = new Float64Array(FEATURE_DIM);
  private t = 0;
  step = 0;

  /** Starts at the prior of `features.ts` (a person's first guess of where to look); `zero` starts at all zeros. */
  constructor(init: 'prior' | 'zero' = 'prior') {
    this.w0 = init === 'prior' ? priorWeights() : new Float64Array(FEATURE_DIM);
    this.w = Float64Array.from(this.w0);
  }

  probabilities(feats: Sparse[], temperature = 1): number[] {
    const logits = feats.map((f) => dot(this.w, f) / temperature);
    const max = Math.max(...logits);
    const exps = logits.map((l) => Math.exp(l - max));
    const z = exps.reduce((a, b) => a + b, 0);
    return exps.map((e) => e / z);
  }

  /** Samples a candidate; `greedy` takes the most probable (evaluation). */
  choose(feats: Sparse[], random: () => number, temperature = 1, greedy = false): { index: number; logprob: number } {
    const p = this.probabilities(feats, temperature);
    let index = 0;
    if (greedy) index = p.indexOf(Math.max(...p));
    else {
      let r = random();
      for (index = 0; index < p.length - 1; index++) if ((r -= p[index]!) <= 0) break;
    }
    return { index, logprob: Math.log(Math.max(p[index]!, 1e-300)) };
  }

  logprob(d: Decision): number {
    return Math.log(Math.max(this.probabilities(d.feats, d.temperature)[d.chosen]!, 1e-300));
  }

  /** Adds scale · ∇ log π(chosen) into `grad`. */
  accumulate(d: Decision, scale: number, grad: Float64Array): void {
    const p = this.probabilities(d.feats, d.temperature);
    const k = scale / d.temperature;
    d.feats.forEach((f, i) => {
      const coef = ((i === d.chosen ? 1 : 0) - p[i]!) * k;
      if (coef === 0) return;
      for (let j = 0; j < f.idx.length; j++) grad[f.idx[j]!]! += coef * f.val[j]!;
    });
  }

  /**
   * One ascent step: Adam's momentum with one second moment for the whole gradient, so a step is about `lr` long and
   * weights move in proportion to their gradients. Decoupled weight decay pulls toward the starting weights.
   * `v` stays per coordinate (all equal) so checkpoints keep their shape. See docs/decisions/2026-12-03-policy-optimizer.md.
   */
  update(grad: Float64Array, lr: number, decay = 1e-3): number {
    const b1 = 0.9,
      b2 = 0.999,
      eps = 1e-8;
    this.t++;
    let norm = 0;
    for (let i = 0; i < FEATURE_DIM; i++) norm += grad[i]! * grad[i]!;
    this.v.fill(b2 * this.v[0]! + (1 - b2) * norm);
    const vh = this.v[0]! / (1 - b2 ** this.t);
    for (let i = 0; i < FEATURE_DIM; i++) {
      this.w[i]! -= lr * decay * (this.w[i]! - this.w0[i]!);
      this.m[i] = b1 * this.m[i]! + (1 - b1) * grad[i]!;
      this.w[i]! += (lr * this.m[i]!) / (1 - b1 ** this.t) / (Math.sqrt(vh) + eps);
    }
    this.step++;
    return Math.sqrt(norm);
  }

  toJSON(): PolicyCheckpoint {
    return {
      schema: 'frognano.embedded-policy/v1',
      featureVersion: FEATURE_VERSION,
      step: this.step,
      weights: [...this.w],
      adam: { m: [...this.m], v: [...this.v], t: this.t },
    };
  }

  /** A checkpoint's policy; throws, naming what it holds and what this version expects, for any other data. */
  static fromJSON(data: unknown): LinearPolicy {
    const c = asCheckpoint(data);
    const p = new LinearPolicy();
    p.w.set(c.weights);
    p.m.set(c.adam.m);
    // A checkpoint of the per-coordinate optimizer: the sum of its second
    // moments is exactly the running mean of the squared norm this one keeps.
    const total = c.adam.v.every((x) => x === c.adam.v[0]) ? c.adam.v[0]! : c.adam.v.reduce((a, b) => a + b, 0);
    p.v.fill(total);
    p.t = c.adam.t;
    p.step = c.step;
    return p;
  }

  /** Written to a temporary file and renamed, so a crash never leaves half a checkpoint. */
  save(path: string): void {
    writeJsonAtomic(path, this.toJSON());
  }

  static load(path: string): LinearPolicy {
    const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return LinearPolicy.fromJSON(data);
  }
}

const isNumbers = (v: unknown, n?: number): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number') && (n === undefined || v.length === n);

/** The data as a checkpoint of this feature version, or an error saying what it is instead. */
function asCheckpoint(x: unknown): PolicyCheckpoint {
  const d = isRecord(x) ? x : {};
  const adam = isRecord(d.adam) ? d.adam : {};
  if (
    d.schema === 'frognano.embedded-policy/v1' &&
    d.featureVersion === FEATURE_VERSION &&
    typeof d.step === 'number' &&
    isNumbers(d.weights, FEATURE_DIM) &&
    isNumbers(adam.m, FEATURE_DIM) &&
    isNumbers(adam.v, FEATURE_DIM) &&
    typeof adam.t === 'number'
  ) {
    return { schema: d.schema, featureVersion: d.featureVersion, step: d.step, weights: d.weights, adam: { m: adam.m, v: adam.v, t: adam.t } };
  }
  const weights = Array.isArray(d.weights) ? d.weights.length : 'no';
  throw new Error(
    `not a checkpoint of this embedded policy version (schema ${String(d.schema)}, ${weights} weights, feature version ${String(d.featureVersion)}; ` +
      `expected ${FEATURE_DIM} weights, version ${FEATURE_VERSION}): train it again with this version`,
  );
}
