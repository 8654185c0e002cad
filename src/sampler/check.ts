// The gate every sampler's output passes before it can become training data.
// A bad logprob does not crash training; it silently biases the policy
// gradient (the importance ratio uses it), so anything doubtful is refused
// here as an infrastructure fault: the rollout is dropped or retried, never
// blamed on the model. SkyRL, for one, fills missing vLLM logprobs with zeros
// under load (shared/reference/tinker-and-trainers.md, risk 5).
import { InfraError } from '../util/errors.js';
import type { Sample } from './types.js';

export type SamplerFaultKind =
  // From checkSample:
  | 'missing-logprobs'
  | 'length-mismatch'
  | 'zero-logprobs'
  | 'bad-logprob'
  | 'bad-token'
  | 'empty'
  // From a sampler talking to a server (vllm.ts):
  | 'bad-response'
  | 'http'
  | 'unreachable'
  | 'aborted';

/** A sample that cannot be trusted, or none came: the sampler's fault, not the model's. */
export class SamplerFault extends InfraError {
  constructor(
    readonly kind: SamplerFaultKind,
    detail: string,
    /** The HTTP status, for kind 'http'. */
    readonly status?: number,
  ) {
    super(kind === 'aborted' ? detail : `${detail} (sampler fault '${kind}': an infrastructure failure, not the model's fault; discard this rollout)`);
    this.name = 'SamplerFault';
  }
}

/** Rounding can push a near-certain token's logprob a hair above 0; more than this is an error. */
export const POSITIVE_LOGPROB_TOLERANCE = 1e-6;

export interface RawSample {
  tokens: readonly number[];
  /** null entries (a server that had no logprob for a position) count as missing. */
  logprobs: readonly (number | null)[] | null | undefined;
  stopReason: Sample['stopReason'];
}

const show = (xs: readonly unknown[]) => (xs.length > 8 ? `[${xs.slice(0, 8).join(', ')}, …]` : `[${xs.join(', ')}]`);

/**
 * The sample, checked and copied, or a SamplerFault saying what was wrong.
 *
 * Zero logprobs: a sequence of two or more tokens whose logprobs are ALL
 * exactly 0 is refused as a zero fill. A single 0 among others is legitimate
 * (a token the model was certain of, in float32), and so is a one-token
 * sequence with logprob 0 (e.g. an immediate, certain end-of-turn): refusing
 * it would drop real samples, and one position biases little.
 *
 * Tiny positive logprobs (≤ POSITIVE_LOGPROB_TOLERANCE) are rounding and come
 * back as 0, so every returned logprob is ≤ 0. -Infinity is refused like NaN:
 * a sampled token cannot have probability 0 (vLLM itself floors at -9999).
 */
export function checkSample(raw: RawSample): Sample {
  const { tokens, logprobs, stopReason } = raw;
  if (logprobs === null || logprobs === undefined) {
    throw new SamplerFault('missing-logprobs', `the sampler returned ${tokens.length} tokens without logprobs`);
  }
  if (tokens.length === 0) {
    // A sampler asked for at least one token always samples one, even when it stops at once.
    throw new SamplerFault('empty', 'the sampler returned no tokens');
  }
  if (logprobs.length !== tokens.length) {
    throw new SamplerFault('length-mismatch', `the sampler returned ${tokens.length} tokens but ${logprobs.length} logprobs`);
  }
  const badToken = tokens.findIndex((t) => !Number.isSafeInteger(t) || t < 0);
  if (badToken >= 0) {
    throw new SamplerFault('bad-token', `token ${badToken} is ${String(tokens[badToken])}, not a non-negative integer id: ${show(tokens)}`);
  }
  const missing = logprobs.findIndex((lp) => lp === null);
  if (missing >= 0) {
    throw new SamplerFault('missing-logprobs', `the sampler returned no logprob for token ${missing} of ${tokens.length} (id ${tokens[missing]})`);
  }
  const checked: number[] = [];
  for (const [i, lp] of logprobs.entries()) {
    if (typeof lp !== 'number' || !Number.isFinite(lp) || lp > POSITIVE_LOGPROB_TOLERANCE) {
      throw new SamplerFault('bad-logprob', `logprob ${i} (token id ${tokens[i]}) is ${String(lp)}; a logprob must be a finite number ≤ 0`);
    }
    checked.push(Math.min(lp, 0));
  }
  if (logprobs.length > 1 && logprobs.every((lp) => lp === 0)) {
    throw new SamplerFault(
      'zero-logprobs',
      `all ${checked.length} logprobs are exactly 0, the zero fill a server sends when it lost the real logprobs under load (SkyRL does this)`,
    );
  }
  return { tokens: [...tokens], logprobs: checked, stopReason };
}
