// pass@k: the chance that at least one of k attempts solves a task, estimated
// without bias from n >= k scored attempts of which c succeeded (Chen et al.
// 2021, "Evaluating Large Language Models Trained on Code"):
//     pass@k = 1 - C(n-c, k) / C(n, k)
// computed as a running product so large n never overflows.

/** The unbiased pass@k estimate for one task; k is capped at n (n = 0 is not a score). */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 0 || c < 0 || c > n || k < 1) {
    throw new RangeError(`pass@k needs integers n >= c >= 0 and k >= 1 (n=${n}, c=${c}, k=${k})`);
  }
  if (n === 0) return Number.NaN;
  const kk = Math.min(k, n);
  if (n - c < kk) return 1;
  if (kk === 1) return c / n;
  // C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k / i)
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - kk / i;
  return 1 - miss;
}

/** Mean of the finite values; NaN when there are none. */
export function mean(values: number[]): number {
  const ok = values.filter((v) => Number.isFinite(v));
  return ok.length ? ok.reduce((a, b) => a + b, 0) / ok.length : Number.NaN;
}
