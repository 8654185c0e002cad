// The dev server's model: a log-linear next-token model over hashed context
// features (features.ts). logits(next | context) = sum of the weight rows of
// the context's active buckets, so forward_backward computes the real loss
// and the exact gradient (only the active rows get one), optim_step is a real
// AdamW step (adam.ts), and asample samples from the same distribution.
import { rng } from '../util/rng.js';
import type { AdamParams, Datum, ForwardBackwardOutput, LossFn, LossFnConfig, LossFnOutput, SampledSequence, TensorData } from '../tinker/types.js';
import type { DevModel, DevSampleParams } from './backend.js';
import {
  adamwStep,
  copyAdamState,
  copyRows,
  decodeCheckpoint,
  emptyAdamState,
  encodeCheckpoint,
  rowOf,
  type AdamState,
  type ModelShape,
  type SparseRows,
} from './adam.js';
import { checkSampleArgs, ContextTracker, FEATURES_PER_POSITION, isToken, pickToken, sequenceFeatures } from './features.js';
import { prepareDatum, resolveLoss } from './losses.js';

export interface TinyModelOptions {
  vocabSize: number;
  /** Token ids whose positions anchor the "distance since the last special token" features. */
  specialIds: number[];
  seed: number;
  /** Rows of the hashed feature table (default 8192). */
  buckets?: number;
  /** Uniform(-initScale, initScale) initial weights from the seed; 0 (default) starts from all zeros. */
  initScale?: number;
}

const F = FEATURES_PER_POSITION;

function tensor(values: Float64Array): TensorData {
  return { data: Array.from(values), dtype: 'float32', shape: [values.length] };
}

export class TinyModel implements DevModel {
  readonly vocabSize: number;
  readonly buckets: number;
  readonly specialIds: readonly number[];
  private readonly specials: ReadonlySet<number>;
  private weights: SparseRows = new Map();
  private grads: SparseRows = new Map();
  // Zeroed gradient rows kept from the last optim_step: reusing them saves reallocating megabytes every step.
  private spareGradRows: Float64Array[] = [];
  private adam: AdamState = emptyAdamState();
  private frozen = false;

  constructor(opts: TinyModelOptions) {
    const { vocabSize, specialIds, seed, buckets = 8192, initScale = 0 } = opts;
    if (!Number.isInteger(vocabSize) || vocabSize < 2) throw new Error(`vocabSize must be an integer >= 2, got ${vocabSize}`);
    if (!Number.isInteger(buckets) || buckets < 1) throw new Error(`buckets must be a positive integer, got ${buckets}`);
    if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
    for (const id of specialIds) if (!isToken(id, vocabSize)) throw new Error(`special id ${id} is outside the vocabulary [0, ${vocabSize})`);
    if (!(initScale >= 0)) throw new Error(`initScale must be >= 0, got ${initScale}`);
    this.vocabSize = vocabSize;
    this.buckets = buckets;
    this.specialIds = [...specialIds];
    this.specials = new Set(specialIds);
    if (initScale > 0) {
      const random = rng(seed);
      for (let row = 0; row < buckets; row++) {
        const w = rowOf(this.weights, row, vocabSize);
        for (let j = 0; j < vocabSize; j++) w[j] = (2 * random() - 1) * initScale;
      }
    }
  }

  forwardBackward(data: Datum[], lossFn: LossFn, config: LossFnConfig | undefined, backward: boolean): ForwardBackwardOutput {
    if (backward) this.assertTrainable('forward_backward');
    const loss = resolveLoss(lossFn, config);
    // Check every datum before touching the gradients, so a bad batch leaves no partial accumulation.
    const prepared = data.map((d, i) => prepareDatum(d, i, this.vocabSize, loss.needsSamplingInputs));
    const outputs: LossFnOutput[] = [];
    let total = 0;
    const v = this.vocabSize;
    for (const d of prepared) {
      const n = d.tokens.length;
      const features = sequenceFeatures(d.tokens, this.specials, this.buckets);
      // The backward pass reuses every position's logits; a forward alone needs one position's at a time.
      const logits = new Float64Array(backward ? n * v : v);
      const lse = new Float64Array(n);
      const logprobs = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const z = backward ? logits.subarray(i * v, (i + 1) * v) : logits;
        lse[i] = this.logitsAt(features, i * F, z);
        logprobs[i] = z[d.targets[i]!]! - lse[i]!;
      }
      const result = loss.compute({ logprobs, weights: d.weights, samplingLogprobs: d.samplingLogprobs, advantages: d.advantages });
      if (backward) this.accumulate(features, d.targets, result.dLogprob, logits, lse);
      for (const l of result.elementwise) total += l;
      outputs.push({ logprobs: tensor(logprobs), elementwise_loss: tensor(result.elementwise) });
    }
    // The name SkyRL's FSDP backend reports (JAX reports none; hosted Tinker says loss:sum): lm/learner.ts reads any of them.
    return { loss_fn_output_type: 'scalar', loss_fn_outputs: outputs, metrics: { 'total_loss:sum': total } };
  }

  optimStep(adam: AdamParams): Record<string, number> {
    this.assertTrainable('optim_step');
    const gradNorm = adamwStep(this.weights, this.grads, this.adam, adam, this.vocabSize);
    this.clearGrads();
    return { 'skyrl.ai/grad_norm': gradNorm, 'skyrl.ai/learning_rate': adam.learning_rate };
  }

  /**
   * Samples n continuations of prompt. Each sequence draws from its own PRNG
   * seeded by (seed, index), so a seed fixes every token. The returned
   * logprobs are those of the model's raw distribution (temperature 1, no
   * top-k/top-p), as SkyRL returns them: its JAX sampler takes
   * logits_to_logprobs of the unscaled logits (skyrl/tx/utils/generator.py)
   * and vLLM's default logprobs_mode is raw_logprobs. They therefore equal
   * forward_backward's logprobs of the same tokens.
   */
  sample(prompt: number[], n: number, params: DevSampleParams): SampledSequence[] {
    checkSampleArgs(prompt, n, params, this.vocabSize);
    const start = new ContextTracker(this.specials, this.buckets);
    for (const t of prompt) start.push(t);
    const stop = new Set(params.stop);
    const features = new Int32Array(F);
    const logits = new Float64Array(this.vocabSize);
    const out: SampledSequence[] = [];
    for (let s = 0; s < n; s++) {
      const random = rng(((params.seed >>> 0) + Math.imul(s, 0x9e3779b9)) >>> 0);
      const tracker = start.clone();
      const tokens: number[] = [];
      const logprobs: number[] = [];
      let stopReason: SampledSequence['stop_reason'] = 'length';
      while (tokens.length < params.maxTokens) {
        tracker.features(features, 0);
        const lse = this.logitsAt(features, 0, logits);
        const token = pickToken(logits, params, random);
        tokens.push(token);
        logprobs.push(logits[token]! - lse);
        if (stop.has(token)) {
          stopReason = 'stop';
          break;
        }
        tracker.push(token);
      }
      out.push({ tokens, logprobs, stop_reason: stopReason });
    }
    return out;
  }

  save(withOptimizer: boolean): unknown {
    return encodeCheckpoint(this.shape(), this.weights, withOptimizer ? this.adam : undefined);
  }

  load(state: unknown, withOptimizer: boolean): void {
    this.assertTrainable('load');
    const { weights, adam } = decodeCheckpoint(state, this.shape(), withOptimizer);
    this.weights = weights;
    this.adam = adam;
    this.clearGrads();
  }

  clone(): TinyModel {
    const copy = new TinyModel({ vocabSize: this.vocabSize, specialIds: [...this.specialIds], seed: 0, buckets: this.buckets });
    copy.weights = copyRows(this.weights);
    copy.adam = copyAdamState(this.adam);
    copy.frozen = true;
    return copy;
  }

  // --- Test-only access (finite-difference gradient checks); not used by the server. ---

  /** Test-only: the accumulated gradient of weight (row, col), 0 where none. */
  testOnlyGradient(row: number, col: number): number {
    return this.grads.get(row)?.[col] ?? 0;
  }

  /** Test-only: the rows that hold an accumulated gradient. */
  testOnlyGradientRows(): number[] {
    return [...this.grads.keys()].sort((a, b) => a - b);
  }

  /** Test-only: adds delta to weight (row, col). */
  testOnlyNudgeWeight(row: number, col: number, delta: number): void {
    const values = rowOf(this.weights, row, this.vocabSize);
    values[col] = values[col]! + delta;
  }

  // --- internals ---

  private shape(): ModelShape {
    return { vocabSize: this.vocabSize, buckets: this.buckets, specialIds: this.specialIds };
  }

  private assertTrainable(what: string): void {
    if (this.frozen) throw new Error(`${what} on a frozen copy of the dev model (a sampler snapshot) is not allowed`);
  }

  private gradRow(row: number): Float64Array {
    let values = this.grads.get(row);
    if (!values) {
      values = this.spareGradRows.pop() ?? new Float64Array(this.vocabSize);
      this.grads.set(row, values);
    }
    return values;
  }

  private clearGrads(): void {
    for (const values of this.grads.values()) this.spareGradRows.push(values.fill(0));
    this.grads.clear();
  }

  /** Fills out with the logits of one position's features and returns their log-sum-exp. */
  private logitsAt(features: Int32Array, offset: number, out: Float64Array): number {
    const v = out.length;
    out.fill(0);
    for (let k = 0; k < F; k++) {
      const row = this.weights.get(features[offset + k]!);
      if (row) for (let j = 0; j < v; j++) out[j]! += row[j]!;
    }
    let max = -Infinity;
    for (let j = 0; j < v; j++) if (out[j]! > max) max = out[j]!;
    let sum = 0;
    for (let j = 0; j < v; j++) sum += Math.exp(out[j]! - max);
    return max + Math.log(sum);
  }

  /**
   * Adds dL/dlogits = dL/dlogprob * (onehot(target) - softmax) to every active
   * row of each position with a nonzero dL/dlogprob; logits holds every
   * position's logits (overwritten here) and lse their log-sum-exps.
   */
  private accumulate(features: Int32Array, targets: number[], dLogprob: Float64Array, logits: Float64Array, lse: Float64Array): void {
    const v = this.vocabSize;
    const rows: Float64Array[] = [];
    for (let i = 0; i < targets.length; i++) {
      const g = dLogprob[i]!;
      if (g === 0) continue;
      const z = logits.subarray(i * v, (i + 1) * v);
      for (let j = 0; j < v; j++) z[j] = -g * Math.exp(z[j]! - lse[i]!);
      z[targets[i]!]! += g;
      for (let k = 0; k < F; k++) rows[k] = this.gradRow(features[i * F + k]!);
      for (let k = 0; k < F; k++) {
        const row = rows[k]!;
        for (let j = 0; j < v; j++) row[j]! += z[j]!;
      }
    }
  }
}
