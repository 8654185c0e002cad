// Rates as users read them: the share with its counts, and intervals where
// one more success would move the figure by many points. Written out rather
// than taken from a library: two short formulas (Wilson's interval, a
// percentile bootstrap) are all the project needs.
import { rng } from './rng.js';

/** A share as a percentage: `25.0%`. */
/** The middle value (the mean of the two middle ones for an even count); undefined for none. */
export function median(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

/** `25.0% (3/12)`; `-` when nothing was counted. */
export function rate(successes: number, total: number): string {
  return total > 0 ? `${((100 * successes) / total).toFixed(1)}% (${successes}/${total})` : '-';
}

/** Wilson score interval for a binomial share (95% by default); [0, 1] when n is 0. */
export function wilson(successes: number, n: number, z = 1.96): [number, number] {
  if (n <= 0) return [0, 1];
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * The mean of paired differences (after - before, one pair per item) with a
 * 95% percentile-bootstrap interval over items, seeded so it is the same on
 * every run. Null without pairs.
 */
export function pairedGain(before: number[], after: number[], seed = 1, resamples = 4000): Interval | null {
  return bootstrapMean([before.map((b, i) => after[i]! - b)], seed, resamples);
}

/** A mean with its 95% interval. */
export interface Interval {
  mean: number;
  low: number;
  high: number;
}

/**
 * The mean of values grouped in strata (for example paired differences, one per seed, in each held-out environment)
 * with a 95% percentile-bootstrap interval that resamples within each stratum, so every stratum keeps its size.
 * Seeded: the same interval on every run. Null without values.
 */
export function bootstrapMean(strata: readonly (readonly number[])[], seed = 1, resamples = 4000): Interval | null {
  const kept = strata.filter((s) => s.length > 0);
  const n = kept.reduce((a, s) => a + s.length, 0);
  if (n === 0) return null;
  const mean = kept.reduce((a, s) => a + s.reduce((x, y) => x + y, 0), 0) / n;
  const random = rng(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (const s of kept) for (let i = 0; i < s.length; i++) sum += s[Math.floor(random() * s.length)]!;
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  return { mean, low: means[Math.floor(0.025 * resamples)]!, high: means[Math.ceil(0.975 * resamples) - 1]! };
}
