// The Tinker loss functions as SkyRL computes them, per token, for one datum.
// Each returns the weighted per-token loss (Tinker's elementwise_loss; the
// total is their plain sum, no normalisation) and its derivative with respect
// to the token's logprob under the model; tiny-model.ts chains that through
// the softmax. Sources (NovaSky-AI/SkyRL @a9564572):
//   skyrl/tinker/loss_fns.py            cross_entropy, importance_sampling, ppo, cispo (the Tinker definitions)
//   skyrl/backends/skyrl_train/utils/ppo_utils.py  dppo_policy_loss, gspo_policy_loss, reduce_loss (sum of loss * mask)
//   skyrl/backends/skyrl_train_backend.py          clip thresholds -> eps, dppo deltas -> config.dppo
//   skyrl/tinker/api.py                 the loss_fn_config keys each loss accepts
import type { Datum, LossFn, LossFnConfig } from '../tinker/types.js';
import { isToken } from './features.js';
import { LOSS_FN_CONFIG_KEYS } from '../tinker/wire.js';

export interface LossInputs {
  /** log p(target) under the model being trained. */
  logprobs: Float64Array;
  weights: Float64Array;
  /** The sampler's logprobs of the targets (loss_fn_inputs.logprobs); zeros for cross_entropy. */
  samplingLogprobs: Float64Array;
  advantages: Float64Array;
}

export interface PreparedDatum {
  tokens: number[];
  targets: number[];
  weights: Float64Array;
  samplingLogprobs: Float64Array;
  advantages: Float64Array;
}

export interface LossResult {
  /** Per-token loss, already multiplied by its weight (0 where the weight is 0). */
  elementwise: Float64Array;
  /** d(total loss) / d(logprobs[i]), with SkyRL's stop-gradients applied. */
  dLogprob: Float64Array;
}

export interface ResolvedLoss {
  name: LossFn;
  /** Whether the datum must carry loss_fn_inputs.logprobs and .advantages. */
  needsSamplingInputs: boolean;
  compute(inputs: LossInputs): LossResult;
}

// SkyRL's safe_exp_delta clamps the log ratio to ±20 before exp (and the clamp stops the gradient past it).
const LOG_RATIO_CLAMP = 20;
// gspo clamps the log of the token importance weight from above at 10 (ppo_utils.gspo_policy_loss).
const GSPO_LOG_RATIO_MAX = 10;

function settings(name: LossFn, config: LossFnConfig | undefined): (key: string, fallback: number) => number {
  const allowed = LOSS_FN_CONFIG_KEYS[name];
  for (const [key, value] of Object.entries(config ?? {})) {
    if (!allowed.includes(key)) {
      throw new Error(`loss_fn_config key '${key}' is not accepted by loss_fn '${name}' (accepted: ${allowed.join(', ') || 'none'})`);
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`loss_fn_config.${key} must be a finite number`);
  }
  return (key, fallback) => config?.[key] ?? fallback;
}

/** exp of a clamped log ratio, and whether the clamp let the gradient through. */
function safeRatio(logRatio: number): [ratio: number, passes: boolean] {
  const clamped = Math.min(LOG_RATIO_CLAMP, Math.max(-LOG_RATIO_CLAMP, logRatio));
  return [Math.exp(clamped), clamped === logRatio];
}

const clip = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** Runs a per-token rule on every token of nonzero weight: safe_loss_mask leaves weight-0 tokens at loss 0 and gradient 0. */
function perToken(inputs: LossInputs, rule: (i: number) => [loss: number, dLogprob: number]): LossResult {
  const n = inputs.logprobs.length;
  const elementwise = new Float64Array(n);
  const dLogprob = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const w = inputs.weights[i]!;
    if (w === 0) continue;
    const [loss, d] = rule(i);
    elementwise[i] = w * loss;
    dLogprob[i] = w * d;
  }
  return { elementwise, dLogprob };
}

/**
 * The loss `name` with its loss_fn_config checked and defaulted. Throws for
 * ppo_critic (no value head here), unknown names and unaccepted config keys.
 */
export function resolveLoss(name: LossFn, config: LossFnConfig | undefined): ResolvedLoss {
  if (!(name in LOSS_FN_CONFIG_KEYS)) throw new Error(`unknown loss_fn '${String(name)}'`);
  const get = settings(name, config);
  const rl = (compute: (inputs: LossInputs) => LossResult): ResolvedLoss => ({ name, needsSamplingInputs: true, compute });
  switch (name) {
    case 'cross_entropy':
      // loss = -w * logprob
      return { name, needsSamplingInputs: false, compute: (x) => perToken(x, (i) => [-x.logprobs[i]!, -1]) };
    case 'importance_sampling':
      // loss = -w * exp(logprob - sampling_logprob) * A  (plain exp, as loss_fns.py and ppo_utils.importance_sampling_loss)
      return rl((x) =>
        perToken(x, (i) => {
          const ratio = Math.exp(x.logprobs[i]! - x.samplingLogprobs[i]!);
          const a = x.advantages[i]!;
          return [-ratio * a, -ratio * a];
        }),
      );
    case 'ppo': {
      // loss = -w * min(r * A, clip(r, low, high) * A); defaults 0.8 / 1.2 (skyrl/backends/jax.py, eps_clip 0.2).
      // The gradient flows only where the unclipped branch is the minimum.
      const low = get('clip_low_threshold', 0.8);
      const high = get('clip_high_threshold', 1.2);
      return rl((x) =>
        perToken(x, (i) => {
          const [ratio, passes] = safeRatio(x.logprobs[i]! - x.samplingLogprobs[i]!);
          const a = x.advantages[i]!;
          const unclipped = ratio * a;
          const clipped = clip(ratio, low, high) * a;
          if (unclipped <= clipped) return [-unclipped, passes ? -unclipped : 0];
          return [-clipped, 0];
        }),
      );
    }
    case 'cispo': {
      // loss = -w * sg(clip(r, low, high)) * logprob * A. Defaults 0.0 / 4.0 are hosted Tinker's documented ones;
      // SkyRL's JAX backend defaults to 0.8 / 1.2 and its skyrl_train config to [0, 5].
      const low = get('clip_low_threshold', 0.0);
      const high = get('clip_high_threshold', 4.0);
      return rl((x) =>
        perToken(x, (i) => {
          const coeff = clip(safeRatio(x.logprobs[i]! - x.samplingLogprobs[i]!)[0], low, high) * x.advantages[i]!;
          return [-coeff * x.logprobs[i]!, -coeff];
        }),
      );
    }
    case 'dppo': {
      // Divergence PPO (binary_tv, SkyRL's default type): r = exp(logprob - sampling_logprob),
      // loss = -w * m * r * A with the no-gradient mask m = 0 where the probability already moved past
      // the trust region in the advantage's direction: A > 0 and p - mu > delta_high, or A < 0 and mu - p > delta_low.
      const deltaLow = get('delta_low', 0.2);
      const deltaHigh = get('delta_high', 0.2);
      return rl((x) =>
        perToken(x, (i) => {
          const lp = x.logprobs[i]!;
          const q = x.samplingLogprobs[i]!;
          const a = x.advantages[i]!;
          const diff = Math.exp(lp) - Math.exp(q);
          if ((a > 0 && diff > deltaHigh) || (a < 0 && -diff > deltaLow)) return [0, 0];
          const [ratio, passes] = safeRatio(lp - q);
          return [-ratio * a, passes ? -ratio * a : 0];
        }),
      );
    }
    case 'gspo': {
      // GSPO-token: s = exp(masked mean over the datum of (logprob - sampling_logprob)), the same for every
      // token; the token weight exp(sg(log s) + logprob - sg(logprob)) has value s and d/dlogprob = s.
      // Then the ppo rule on s with the clip bounds (clip thresholds map to 1 - eps_low, 1 + eps_high).
      const low = get('clip_low_threshold', 0.8);
      const high = get('clip_high_threshold', 1.2);
      return rl((x) => {
        let num = 0;
        let den = 0;
        for (let i = 0; i < x.logprobs.length; i++) {
          num += (x.logprobs[i]! - x.samplingLogprobs[i]!) * x.weights[i]!;
          den += x.weights[i]!;
        }
        const logS = num / Math.max(den, 1);
        const passes = logS <= GSPO_LOG_RATIO_MAX;
        const s = Math.exp(Math.min(logS, GSPO_LOG_RATIO_MAX));
        return perToken(x, (i) => {
          const a = x.advantages[i]!;
          const unclipped = s * a;
          const clipped = clip(s, low, high) * a;
          if (unclipped <= clipped) return [-unclipped, passes ? -unclipped : 0];
          return [-clipped, 0];
        });
      });
    }
    case 'ppo_critic':
      throw new Error("loss_fn 'ppo_critic' is not supported by the dev model (it has no value head)");
  }
}

/** A datum's tokens and loss inputs, checked against the vocabulary and the input length; absent weights are 1s. */
export function prepareDatum(datum: Datum, index: number, vocabSize: number, needsSamplingInputs: boolean): PreparedDatum {
  const where = `datum ${index}`;
  const tokens: number[] = [];
  for (const chunk of datum.model_input?.chunks ?? []) {
    if (chunk.type !== 'encoded_text') throw new Error(`${where}: only encoded_text chunks are supported by the dev model`);
    for (const t of chunk.tokens) tokens.push(t); // no spread: a long chunk would overflow the call stack
  }
  if (tokens.length === 0) throw new Error(`${where}: model_input has no tokens`);
  const bad = tokens.findIndex((t) => !isToken(t, vocabSize));
  if (bad >= 0) throw new Error(`${where}: input token ${String(tokens[bad])} at ${bad} is outside the vocabulary [0, ${vocabSize})`);
  const n = tokens.length;
  const inputs = datum.loss_fn_inputs ?? {};
  for (const [key, t] of Object.entries(inputs)) {
    if (!Array.isArray(t?.data)) throw new Error(`${where}: loss_fn_inputs.${key} has no data array`);
    if (t.data.length !== n) throw new Error(`${where}: loss_fn_inputs.${key} has ${t.data.length} values for ${n} input tokens`);
  }
  if (!inputs.target_tokens) throw new Error(`${where}: loss_fn_inputs.target_tokens is required`);
  const targets = inputs.target_tokens.data;
  const badTarget = targets.findIndex((t) => !isToken(t, vocabSize));
  if (badTarget >= 0) throw new Error(`${where}: target token ${String(targets[badTarget])} at ${badTarget} is outside the vocabulary [0, ${vocabSize})`);
  const floats = (key: 'weights' | 'logprobs' | 'advantages', fallback: number): Float64Array => {
    const t = inputs[key];
    if (!t) return new Float64Array(n).fill(fallback);
    const bad = t.data.findIndex((x) => typeof x !== 'number' || !Number.isFinite(x));
    if (bad >= 0) throw new Error(`${where}: loss_fn_inputs.${key}[${bad}] is not a finite number`);
    return Float64Array.from(t.data);
  };
  if (needsSamplingInputs) {
    for (const key of ['logprobs', 'advantages'] as const) {
      if (!inputs[key]) throw new Error(`${where}: this loss needs loss_fn_inputs.${key}`);
    }
  }
  return { tokens, targets, weights: floats('weights', 1), samplingLogprobs: floats('logprobs', 0), advantages: floats('advantages', 0) };
}
