// The protocol's analysis (docs/evidence/protocol.md): per arm, the final held-out solve rate and the hand-written
// solve rate with stratified bootstrap intervals; paired differences from the frontier over (held-out environment,
// seed); rollouts each arm needed to reach the static curriculum's final rate; and a verdict on each hypothesis.
import { bootstrapMean, type Interval } from '../util/stats.js';
import { finalRate, handwrittenRate, type CellResult } from './result.js';
import { cellsOf, type Protocol } from './protocol.js';

/**
 * Seeds an environment needs before its spread counts: a bootstrap over one or two seeds has (almost) nothing to
 * resample, so its interval collapses onto the mean. With fewer, the estimate is marked thin and earns no verdict.
 */
export const MIN_SEEDS = 3;

/** A bootstrap interval, marked thin when some environment has fewer than MIN_SEEDS values (its width then means nothing). */
export type Estimate = Interval & { thin?: true };

function estimate(values: number[][]): Estimate | null {
  const i = bootstrapMean(values);
  return i && values.some((v) => v.length > 0 && v.length < MIN_SEEDS) ? { ...i, thin: true } : i;
}

/** The smallest gain in final held-out solve rate (absolute) the claim needs: an interval wholly below it refutes it. */
export const MARGIN = 0.03;

export interface ArmRow {
  arm: string;
  runs: number;
  final: Estimate | null;
  /** Arm minus frontier, paired by (held-out environment, seed). */
  vsFrontier: Estimate | null;
  handwritten: Estimate | null;
  handwrittenVsFrontier: Estimate | null;
  /** Runs that reached their pair's static final rate, and the median rollouts they took. */
  reached: number;
  medianRollouts: number | null;
  nonDegenerate: number;
  /** Mean rollouts per run spent on admission probes. */
  probeRollouts: number;
  /** Probe rollouts a run, arm minus frontier, paired. */
  probesVsFrontier: Estimate | null;
  /** Re-tries of earlier solved tasks still solved, of those tried (forgetting; 0 of 0 when not tracked). */
  stillSolved: { solved: number; tried: number };
  minutes: number;
}

/** Predicted against observed pass rates, in bins of the prediction; and the Brier score of the prediction per rollout. */
export interface Calibration {
  bins: { low: number; high: number; tasks: number; predicted: number; observed: number; rollouts: number }[];
  brier: number | null;
  /** The Brier score of always predicting the overall pass rate: what the model must beat. */
  baseline: number | null;
}

export function calibration(points: readonly [number, number, number][], binCount = 5): Calibration {
  const bins = Array.from({ length: binCount }, (_, i) => ({ low: i / binCount, high: (i + 1) / binCount, tasks: 0, predicted: 0, observed: 0, rollouts: 0 }));
  let sq = 0,
    n = 0,
    wins = 0;
  for (const [p, s, k] of points) {
    const b = bins[Math.min(binCount - 1, Math.floor(p * binCount))]!;
    b.tasks++;
    b.predicted += p * k;
    b.observed += s;
    b.rollouts += k;
    sq += s * (1 - p) ** 2 + (k - s) * p ** 2;
    n += k;
    wins += s;
  }
  for (const b of bins) {
    b.predicted = b.rollouts ? b.predicted / b.rollouts : 0;
    b.observed = b.rollouts ? b.observed / b.rollouts : 0;
  }
  const base = n ? wins / n : 0;
  return { bins: bins.filter((b) => b.tasks > 0), brier: n ? sq / n : null, baseline: n ? (wins * (1 - base) ** 2 + (n - wins) * base ** 2) / n : null };
}

export type Verdict = 'supported' | 'refuted' | 'not shown';

/**
 * A frontier variant's probe saving at equal final rate (protocol.md, gates): fewer probe rollouts than the frontier's own
 * runs, paired, with its final rate not below the frontier's by the margin. A variant that ends ahead still counts as equal.
 */
export function savingVerdict(probes: Estimate | null, final: Estimate | null): 'saves' | 'no saving' | 'not shown' {
  if (!probes || !final || probes.thin || final.thin) return 'not shown';
  if (probes.high >= 0) return 'no saving';
  return final.low > -MARGIN ? 'saves' : 'not shown';
}

export interface Analysis {
  rows: ArmRow[];
  /** Frontier minus static and minus uniform in final held-out solve rate, and the verdicts. */
  h1: { vs: string; gain: Estimate | null; verdict: Verdict }[];
  /** Frontier over static rollouts to reach static's final rate (paired; below 1: fewer). */
  h2: { ratio: Estimate | null; pairs: number; verdict: Verdict };
  /** The difficulty model's calibration over every run's probes. */
  calibration: Calibration;
  /** Per arm that tracked forgetting: earlier solved tasks tried again, by steps since each was first solved. */
  forgetting: ForgettingCurve[];
  cells: number;
  totalMinutes: number;
  /** Per held-out environment with cells still to run: how many, and the mean minutes its finished runs took (null: none yet). */
  left: { heldOut: string; cells: number; minutesPerRun: number | null }[];
}

/** The share still solved against age: [steps since first solved, still solved, tried] per age, all runs of the arm pooled. */
export interface ForgettingCurve {
  arm: string;
  byAge: [number, number, number][];
}

export function forgettingCurves(p: Protocol, results: readonly CellResult[]): ForgettingCurve[] {
  return p.arms.flatMap(({ name: arm }) => {
    const byAge = new Map<number, [number, number]>();
    for (const r of results.filter((x) => x.arm === arm))
      for (const f of r.forgetting ?? [])
        for (const [age, passed] of f.byAge) {
          const [s, n] = byAge.get(age) ?? [0, 0];
          byAge.set(age, [s + passed, n + 1]);
        }
    const points = [...byAge.entries()].sort((a, b) => a[0] - b[0]).map(([age, [s, n]]): [number, number, number] => [age, s, n]);
    return points.length ? [{ arm, byAge: points }] : [];
  });
}

const key = (r: CellResult) => `${r.heldOutEnv}/${r.seed}`;
/** The untrained policy's held-out solve rate (a run's first point). */
const untrained = (r: CellResult) => r.heldOut[0]?.solveRate ?? 0;

/** Values per held-out environment (the strata): seeds resample within their environment. */
function strata(results: CellResult[], value: (r: CellResult) => number | null): number[][] {
  const by = new Map<string, number[]>();
  for (const r of results) {
    const v = value(r);
    if (v !== null) by.set(r.heldOutEnv, [...(by.get(r.heldOutEnv) ?? []), v]);
  }
  return [...by.values()];
}

/** Rollouts until a run's held-out solve rate first reached `goal` (null: never). */
export function rolloutsToReach(r: CellResult, goal: number): number | null {
  return r.heldOut.find((p) => p.solveRate >= goal - 1e-9)?.rollouts ?? null;
}

/** H2's rule for a ratio of rollouts (frontier over static): below 1 throughout supports it, at or above 1 refutes it. */
export function ratioVerdict(ratio: Estimate | null): Verdict {
  return !ratio || ratio.thin ? 'not shown' : ratio.high < 1 ? 'supported' : ratio.low >= 1 ? 'refuted' : 'not shown';
}

/** Refuted first: an interval wholly below the margin leaves no gain the claim needs, even one surely above zero. */
function verdict(gain: Estimate | null): Verdict {
  if (!gain || gain.thin) return 'not shown';
  if (gain.high < MARGIN) return 'refuted';
  if (gain.low > 0) return 'supported';
  return 'not shown';
}

export function analyse(p: Protocol, results: CellResult[]): Analysis {
  const pairOf = new Map<string, Map<string, CellResult>>();
  for (const r of results) pairOf.set(key(r), (pairOf.get(key(r)) ?? new Map<string, CellResult>()).set(r.arm, r));
  const frontierOf = (r: CellResult) => pairOf.get(key(r))?.get('frontier');
  // The goal is static's final rate, where static got above the untrained policy's: otherwise there is nothing to reach.
  const goalOf = (r: CellResult) => {
    const s = pairOf.get(key(r))?.get('static');
    return s && finalRate(s) > untrained(s) ? finalRate(s) : null;
  };
  const rows: ArmRow[] = p.arms
    .map((a) => a.name)
    .filter((arm) => results.some((r) => r.arm === arm))
    .map((arm) => {
      const runs = results.filter((r) => r.arm === arm);
      const diff = (f: (r: CellResult) => number) => (r: CellResult) => {
        const fr = frontierOf(r);
        return fr && arm !== 'frontier' ? f(r) - f(fr) : null;
      };
      const reach = runs.map((r) => {
        const goal = goalOf(r);
        return goal === null ? null : rolloutsToReach(r, goal);
      });
      const got = reach.filter((x): x is number => x !== null).sort((a, b) => a - b);
      const scoredHw = runs.filter((r) => r.handwritten.attempts > 0);
      return {
        arm,
        runs: runs.length,
        final: estimate(strata(runs, finalRate)),
        vsFrontier: estimate(strata(runs, diff(finalRate))),
        handwritten: estimate(strata(scoredHw, handwrittenRate)),
        handwrittenVsFrontier: estimate(strata(scoredHw, diff(handwrittenRate))),
        reached: got.length,
        medianRollouts: got.length ? got[Math.floor((got.length - 1) / 2)]! : null,
        probeRollouts: runs.reduce((a, r) => a + (r.probeRollouts ?? 0), 0) / runs.length,
        probesVsFrontier: estimate(
          strata(
            runs,
            diff((r) => r.probeRollouts ?? 0),
          ),
        ),
        stillSolved: {
          solved: runs.reduce((a, r) => a + (r.forgetting ?? []).reduce((s, f) => s + f.solved, 0), 0),
          tried: runs.reduce((a, r) => a + (r.forgetting ?? []).reduce((s, f) => s + f.tried, 0), 0),
        },
        nonDegenerate:
          runs.reduce((a, r) => a + (r.groups - r.degenerate), 0) /
          Math.max(
            1,
            runs.reduce((a, r) => a + r.groups, 0),
          ),
        minutes: runs.reduce((a, r) => a + r.minutes, 0),
      };
    });
  const frontierRuns = results.filter((r) => r.arm === 'frontier');
  const h1 = ['static', 'uniform'].map((vs) => {
    const gain = estimate(
      strata(frontierRuns, (r) => {
        const other = pairOf.get(key(r))?.get(vs);
        return other ? finalRate(r) - finalRate(other) : null;
      }),
    );
    return { vs, gain, verdict: verdict(gain) };
  });
  // H2: how many rollouts the frontier needs to reach static's final rate, as a share of what static needed (its last point).
  // Only runs evaluated between start and end tell when a rate was reached (with two points both reach it at the end).
  const ratios = strata(frontierRuns, (r) => {
    const s = pairOf.get(key(r))?.get('static');
    const goal = goalOf(r);
    if (!s || goal === null || r.heldOut.length < 3 || s.heldOut.length < 3) return null;
    const mine = rolloutsToReach(r, goal);
    const theirs = rolloutsToReach(s, goal);
    // Never reached within the budget: counted as the whole budget, the best case it could still have had.
    return theirs ? (mine ?? p.budget) / theirs : null;
  });
  const ratio = estimate(ratios);
  return {
    rows,
    h1,
    h2: { ratio, pairs: ratios.reduce((a, s) => a + s.length, 0), verdict: ratioVerdict(ratio) },
    calibration: calibration(results.flatMap((r) => r.calibration ?? [])),
    forgetting: forgettingCurves(p, results),
    cells: results.length,
    totalMinutes: results.reduce((a, r) => a + r.minutes, 0),
    left: cellsLeft(p, results),
  };
}

/**
 * The protocol's unfinished cells per held-out environment, with the mean minutes a run of them should take: each at
 * the pace of the environment's finished runs of its curriculum (an ablation or gate runs the frontier), else of all
 * its finished runs. Environments differ (a Python run costs more), and so do curricula (a frontier run probes).
 */
function cellsLeft(p: Protocol, results: readonly CellResult[]): Analysis['left'] {
  const finished = new Set(results.map((r) => r.cell));
  const curriculumOf = (arm: string) => p.arms.find((a) => a.name === arm)?.curriculum;
  const mean = (runs: readonly CellResult[]) => (runs.length ? runs.reduce((a, r) => a + r.minutes, 0) / runs.length : null);
  return p.groups.flatMap(({ heldOut }): Analysis['left'] => {
    const cells = cellsOf(p).filter((c) => c.group.heldOut === heldOut && !finished.has(c.id));
    const runs = results.filter((r) => r.heldOutEnv === heldOut);
    if (!cells.length) return [];
    if (!runs.length) return [{ heldOut, cells: cells.length, minutesPerRun: null }];
    const minutes = cells.map((c) => mean(runs.filter((r) => curriculumOf(r.arm) === c.arm.curriculum)) ?? mean(runs)!);
    return [{ heldOut, cells: cells.length, minutesPerRun: minutes.reduce((a, m) => a + m, 0) / cells.length }];
  });
}
