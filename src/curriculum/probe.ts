// The admission probe: a few rollouts of the current policy decide whether a fresh task enters the pool. It stops at
// the first mixed result, which already proves 0 < p < 1; refining p̂ is left to training groups.
// See docs/decisions/2026-12-02-task-admission.md.

export type ProbeVerdict = 'admit' | 'too-easy' | 'too-hard';

/** A reward at or above this counts as a success (verifier rewards are 0 or 1). */
export const SUCCESS_THRESHOLD = 0.5;

/** A scored reward that counts as a success (null, an infrastructure failure, is neither). */
export const isSuccess = (reward: number | null): boolean => reward !== null && reward >= SUCCESS_THRESHOLD;

/** A group's successes and failures among its scored rewards (infrastructure failures are neither). */
export function outcomes(rewards: readonly (number | null)[]): { successes: number; failures: number } {
  const scored = rewards.filter((r) => r !== null);
  const successes = scored.filter(isSuccess).length;
  return { successes, failures: scored.length - successes };
}

export class Probe {
  private wins = 0;
  private losses = 0;
  private infra = 0;

  constructor(readonly k = 4) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`probe size must be a positive integer, got ${k}`);
  }

  /** Records one rollout's reward; null (an infrastructure failure) is counted apart, never as a failure. */
  add(reward: number | null): void {
    if (this.done) throw new Error('probe is already done');
    if (reward === null) this.infra++;
    else if (isSuccess(reward)) this.wins++;
    else this.losses++;
  }

  get successes(): number {
    return this.wins;
  }

  get failures(): number {
    return this.losses;
  }

  /** Rollouts that scored (infrastructure failures excluded). */
  get rollouts(): number {
    return this.wins + this.losses;
  }

  get infraFailures(): number {
    return this.infra;
  }

  get done(): boolean {
    return (this.wins > 0 && this.losses > 0) || this.rollouts >= this.k;
  }

  /** null while the probe still needs rollouts. */
  get verdict(): ProbeVerdict | null {
    if (!this.done) return null;
    if (this.wins > 0 && this.losses > 0) return 'admit';
    return this.wins > 0 ? 'too-easy' : 'too-hard';
  }

  /** The observed pass rate, biased by the early stop: for steering difficulty, not as a final estimate. */
  get passRate(): number {
    return this.rollouts === 0 ? NaN : this.wins / this.rollouts;
  }
}
