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
export function pairedGain(before: number[], after: number[], seed = 1, resamples = 4000): { mean: number; low: number; high: number } | null {
  const d = before.map((b, i) => after[i]! - b);
  if (d.length === 0) return null;
  const mean = d.reduce((a, b) => a + b, 0) / d.length;
  const random = rng(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < d.length; i++) s += d[Math.floor(random() * d.length)]!;
    means.push(s / d.length);
  }
  means.sort((a, b) => a - b);
  return { mean, low: means[Math.floor(0.025 * resamples)]!, high: means[Math.ceil(0.975 * resamples) - 1]! };
}
