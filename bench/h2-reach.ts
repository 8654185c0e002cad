// H2 read off the held-out reach curve instead of the scheduled evaluations (issue 25; exploratory, not the
// protocol's H2). The protocol measures H2 on the held-out solve rate, evaluated every 10 steps: three points in a
// frontier run (the start, step 10 at 221 to 284 rollouts, the end), so "first reached" can take only those. The
// embedded policy's reach (its own pass probability on each held-out task, averaged) is logged after every step in
// metrics.jsonl at no rollout cost, so it gives the same comparison step by step. It is the learner's estimate, not a measured solve rate: the bench prints
// how the two agree at the end of each run before using it.
//
// Per (held-out environment, seed) pair with frontier and static finished: the goal is static's final reach, where it
// rose above static's untrained reach; the ratio is the frontier's rollouts (probes included, as in H2) to first reach
// it over static's own, a frontier that never gets there counted at the whole budget. Also the paired reach gap at
// equal rollouts (each curve read at its last step within the count). Intervals: the protocol's bootstrap, seeds
// resampled within each held-out environment.
//
//   npx tsx bench/h2-reach.ts [--out docs/evidence/full] [--protocol full]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cellDir, PROTOCOLS } from '../src/evidence/protocol.js';
import type { CellResult } from '../src/evidence/result.js';
import { readResults } from '../src/evidence/run.js';
import { isOneOf, isRecord } from '../src/util/guards.js';
import { bootstrapMean, type Interval } from '../src/util/stats.js';
import { table } from '../src/util/table.js';

const { values } = parseArgs({
  options: { out: { type: 'string', default: 'docs/evidence/full' }, protocol: { type: 'string', default: 'full' } },
});
if (!isOneOf(['full', 'reduced'] as const, values.protocol)) throw new Error('--protocol must be full or reduced');
const protocol = PROTOCOLS[values.protocol];
const outDir = values.out!;

/**
 * [rollouts, reach] after each step, the untrained point first (at the rollouts its fixed set's probes took, for static);
 * a step logged twice (a resumed run) counts once.
 */
type Curve = [number, number][];

function curveOf(r: CellResult): Curve | null {
  const start = r.heldOut[0];
  const path = join(cellDir(outDir, r.cell), 'metrics.jsonl');
  if (start?.reach === undefined || !existsSync(path)) return null;
  const byStep = new Map<number, [number, number]>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    let m: unknown = null;
    try {
      m = JSON.parse(line);
    } catch {
      // A blank line, or one cut short by a crash while it was written: the step is logged again when it reruns.
    }
    if (isRecord(m) && typeof m.step === 'number' && typeof m.rollouts === 'number' && typeof m.heldOutReach === 'number')
      byStep.set(m.step, [m.rollouts, m.heldOutReach]);
  }
  return [[start.rollouts, start.reach], ...[...byStep.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p)];
}

const firstReach = (c: Curve, goal: number) => c.find(([, reach]) => reach >= goal - 1e-9)?.[0] ?? null;
/** The reach after the last step that fits within `rollouts` (the untrained reach when none does). */
const reachAt = (c: Curve, rollouts: number) => (c.filter(([n]) => n <= rollouts).at(-1) ?? c[0]!)[1];

const results = readResults(protocol, outDir);
/** A (held-out environment, seed) pair's curves, and each arm's final [reach, solve rate]. */
interface Pair {
  env: string;
  seed: number;
  frontier?: Curve;
  static?: Curve;
  finals: Record<string, [number, number]>;
}
type Complete = Pair & { frontier: Curve; static: Curve };
const pairs = new Map<string, Pair>();
for (const r of results) {
  if (r.arm !== 'frontier' && r.arm !== 'static') continue;
  const curve = curveOf(r);
  if (!curve) continue;
  const k = `${r.heldOutEnv}/${r.seed}`;
  const pair = pairs.get(k) ?? { env: r.heldOutEnv, seed: r.seed, finals: {} };
  pair[r.arm] = curve;
  pair.finals[r.arm] = [curve.at(-1)![1], r.final.attempts ? r.final.solved / r.final.attempts : 0];
  pairs.set(k, pair);
}

const envs = [...new Set([...pairs.values()].map((p) => p.env))];
const complete = [...pairs.values()].filter((p): p is Complete => p.frontier !== undefined && p.static !== undefined);
const strata = (f: (p: Complete) => number | null) =>
  envs.map((env) =>
    complete
      .filter((p) => p.env === env)
      .map(f)
      .filter((x): x is number => x !== null),
  );
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const show = (i: Interval | null, scale = 1, unit = '') =>
  i ? `${(scale * i.mean).toFixed(2)}${unit} [${(scale * i.low).toFixed(2)}, ${(scale * i.high).toFixed(2)}]` : 'none';

const rows = complete
  .sort((a, b) => a.env.localeCompare(b.env) || a.seed - b.seed)
  .map((p) => {
    const { frontier: f, static: s } = p;
    const goal = s.at(-1)![1];
    const gained = goal > s[0]![1];
    const mine = gained ? firstReach(f, goal) : null;
    const theirs = gained ? firstReach(s, goal) : null;
    return [
      `${p.env} s${p.seed}`,
      `${pct(p.finals.frontier![0])} / ${pct(p.finals.frontier![1])}`,
      `${pct(p.finals.static![0])} / ${pct(p.finals.static![1])}`,
      gained ? pct(goal) : 'static did not gain',
      mine === null ? (gained ? `never (${f.at(-1)![0]})` : '-') : String(mine),
      theirs === null ? '-' : String(theirs),
      gained && theirs ? ((mine ?? protocol.budget) / theirs).toFixed(2) : '-',
    ];
  });
console.log(
  table(
    [
      'pair',
      'frontier final reach / solve rate',
      'static final reach / solve rate',
      'goal (static final reach)',
      'frontier rollouts to goal',
      'static rollouts to goal',
      'ratio',
    ],
    rows,
  ),
);

const ratios = strata((p) => {
  const goal = p.static.at(-1)![1];
  if (goal <= p.static[0]![1]) return null;
  const theirs = firstReach(p.static, goal);
  return theirs ? (firstReach(p.frontier, goal) ?? protocol.budget) / theirs : null;
});
const verdictOf = (i: Interval | null) => (!i ? 'none' : i.high < 1 ? 'fewer rollouts' : i.low >= 1 ? 'more rollouts' : 'not shown either way');
console.log(
  `\nH2 on the reach curve, frontier over static rollouts to static's final reach (${ratios.flat().length} pairs where static gained): ${show(bootstrapMean(ratios))} -> ${verdictOf(bootstrapMean(ratios))}`,
);
for (const at of [50, 100, 150, 200, 250, protocol.budget]) {
  const gap = bootstrapMean(strata((p) => reachAt(p.frontier, at) - reachAt(p.static, at)));
  console.log(`reach gap, frontier minus static, after at most ${at} rollouts: ${show(gap, 100, ' pts')}`);
}
const agree = bootstrapMean(strata((p) => p.finals.frontier![0] - p.finals.frontier![1]));
const agreeS = bootstrapMean(strata((p) => p.finals.static![0] - p.finals.static![1]));
console.log(`final reach minus final solve rate: frontier ${show(agree, 100, ' pts')}, static ${show(agreeS, 100, ' pts')}`);
