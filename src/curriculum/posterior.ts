// Beta posteriors over a task's pass rate p, and family-level priors. The policy keeps changing, so each observation
// first shrinks older evidence toward the prior (exponential forgetting). Pure: functions never mutate their inputs.
// Why the discount and prior strength: docs/decisions/2026-12-02-curriculum-posterior.md.

export interface Beta {
  alpha: number;
  beta: number;
}

/** A Beta posterior that remembers the prior its evidence decays toward. */
export interface Posterior extends Beta {
  prior: Beta;
}

export const NEUTRAL_PRIOR: Readonly<Beta> = Object.freeze({ alpha: 1, beta: 1 });
/** Forgetting factor per training step that touched the task. */
export const DEFAULT_DISCOUNT = 0.9;
/** Pseudo-count strength of a family prior. */
export const DEFAULT_PRIOR_STRENGTH = 2;

export function posterior(prior: Beta = NEUTRAL_PRIOR): Posterior {
  return { alpha: prior.alpha, beta: prior.beta, prior: { alpha: prior.alpha, beta: prior.beta } };
}

/** Shrinks the evidence toward the prior by `factor` in (0, 1] (1: no forgetting); discount ** steps catches up several steps. */
export function decay(p: Posterior, factor: number): Posterior {
  if (!(factor > 0 && factor <= 1)) throw new RangeError(`discount must be in (0, 1], got ${factor}`);
  return {
    alpha: p.prior.alpha + (p.alpha - p.prior.alpha) * factor,
    beta: p.prior.beta + (p.beta - p.prior.beta) * factor,
    prior: p.prior,
  };
}

/** One step's evidence: discount the old, then add successes and failures. */
export function observe(p: Posterior, successes: number, failures: number, discount = DEFAULT_DISCOUNT): Posterior {
  if (successes < 0 || failures < 0) throw new RangeError('counts must be non-negative');
  const d = decay(p, discount);
  return { alpha: d.alpha + successes, beta: d.beta + failures, prior: d.prior };
}

export function mean(b: Beta): number {
  return b.alpha / (b.alpha + b.beta);
}

export function variance(b: Beta): number {
  const n = b.alpha + b.beta;
  return (b.alpha * b.beta) / (n * n * (n + 1));
}

/**
 * Expected learnability E[p(1-p)] under the Beta: mean·(1-mean) minus the variance, so an uncertain task scores a bit
 * lower than a confident p = 0.5 one, and a confident p ≈ 0 or 1 scores ≈ 0.
 */
export function learnability(b: Beta): number {
  const n = b.alpha + b.beta;
  return (b.alpha * b.beta) / (n * (n + 1));
}

/** Discounted success/failure counts pooled over one family key. */
export interface FamilyCounts {
  successes: number;
  failures: number;
  /** The step these counts were last brought up to date at. */
  step: number;
}

/**
 * Pools results per family key (generator family + knob setting) to give new tasks an informed prior. Discounted per
 * elapsed step, not per record: a family touched by ten tasks in one step must not forget ten times faster.
 */
export class FamilyStats {
  private readonly counts = new Map<string, FamilyCounts>();

  constructor(
    readonly discount = DEFAULT_DISCOUNT,
    readonly strength = DEFAULT_PRIOR_STRENGTH,
  ) {}

  record(key: string, successes: number, failures: number, step: number): void {
    const c = this.at(key, step) ?? { successes: 0, failures: 0, step };
    this.counts.set(key, { successes: c.successes + successes, failures: c.failures + failures, step: Math.max(step, c.step) });
  }

  /** Discounted counts as seen at `step` (the latest step recorded when omitted). */
  at(key: string, step?: number): FamilyCounts | undefined {
    const c = this.counts.get(key);
    if (!c) return undefined;
    const elapsed = Math.max(0, (step ?? c.step) - c.step);
    const f = this.discount ** elapsed;
    return { successes: c.successes * f, failures: c.failures * f, step: Math.max(c.step, step ?? c.step) };
  }

  /** Pooled mean with one neutral pseudo-success and pseudo-failure (0.5 without data). */
  mean(key: string, step?: number): number {
    const c = this.at(key, step);
    return c ? (c.successes + 1) / (c.successes + c.failures + 2) : 0.5;
  }

  /** A prior of fixed strength centred on the family's mean: Beta(1, 1) at strength 2 without data. */
  prior(key: string, step?: number): Beta {
    const m = this.mean(key, step);
    return { alpha: this.strength * m, beta: this.strength * (1 - m) };
  }

  keys(): string[] {
    return [...this.counts.keys()];
  }

  toJSON(): { discount: number; strength: number; counts: [string, FamilyCounts][] } {
    return { discount: this.discount, strength: this.strength, counts: [...this.counts.entries()].map(([k, c]) => [k, { ...c }]) };
  }

  static fromJSON(json: ReturnType<FamilyStats['toJSON']>): FamilyStats {
    const s = new FamilyStats(json.discount, json.strength);
    for (const [k, c] of json.counts) s.counts.set(k, { ...c });
    return s;
  }
}
