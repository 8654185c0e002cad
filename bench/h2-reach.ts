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
//   npx tsx bench/h2-reach.ts [--out data/evidence/full] [--protocol full]
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cellDir, PROTOCOLS } from '../src/evidence/protocol.js';
import { ratioVerdict } from '../src/evidence/analysis.js';
import { interval, ratioInterval } from '../src/evidence/report.js';
import { finalRate, type CellResult } from '../src/evidence/result.js';
import { readResults } from '../src/evidence/run.js';
import { isOneOf, isRecord } from '../src/util/guards.js';
import { bootstrapMean, percent } from '../src/util/stats.js';
import { table } from '../src/util/table.js';

const { values } = parseArgs({
  options: { out: { type: 'string', default: 'data/evidence/full' }, protocol: { type: 'string', default: 'full' } },
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
  pair.finals[r.arm] = [curve.at(-1)![1], finalRate(r)];
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

/** H2 for one pair on the reach curves: static's final reach as the goal (null when static's reach did not rise). */
function h2Of({ frontier, static: fixed }: Complete) {
  const goal = fixed.at(-1)![1];
  if (goal <= fixed[0]![1]) return null;
  const mine = firstReach(frontier, goal);
  const theirs = firstReach(fixed, goal);
  return { goal, mine, theirs, ratio: theirs ? (mine ?? protocol.budget) / theirs : null };
}

const rows = complete
  .sort((a, b) => a.env.localeCompare(b.env) || a.seed - b.seed)
  .map((p) => {
    const h2 = h2Of(p);
    return [
      `${p.env} s${p.seed}`,
      `${percent(p.finals.frontier![0])} / ${percent(p.finals.frontier![1])}`,
      `${percent(p.finals.static![0])} / ${percent(p.finals.static![1])}`,
      h2 ? percent(h2.goal) : 'static did not gain',
      !h2 ? '-' : h2.mine === null ? `never (${p.frontier.at(-1)![0]})` : String(h2.mine),
      h2?.theirs == null ? '-' : String(h2.theirs),
      h2?.ratio == null ? '-' : h2.ratio.toFixed(2),
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

// The protocol's H2 rule, in words that do not claim a test: the reach is the learner's estimate.
const words = { supported: 'fewer rollouts', refuted: 'more rollouts', 'not shown': 'not shown either way' };
const ratios = strata((p) => h2Of(p)?.ratio ?? null);
const ratio = bootstrapMean(ratios);
console.log(
  `\nH2 on the reach curve, frontier over static rollouts to static's final reach (${ratios.flat().length} pairs where static gained): ${ratio ? ratioInterval(ratio) : 'none'} -> ${words[ratioVerdict(ratio)]}`,
);
for (const at of [50, 100, 150, 200, 250, protocol.budget]) {
  const gap = bootstrapMean(strata((p) => reachAt(p.frontier, at) - reachAt(p.static, at)));
  console.log(`reach gap, frontier minus static, after at most ${at} rollouts: ${interval(gap, true)}`);
}
const bias = (arm: 'frontier' | 'static') => interval(bootstrapMean(strata((p) => p.finals[arm]![0] - p.finals[arm]![1])), true);
console.log(`final reach minus final solve rate: frontier ${bias('frontier')}, static ${bias('static')}`);
