// Benchmark: the three curricula (frontier, uniform, static) on the same
// rollout budget, several seeds each. Prints a table (final held-out solve
// rate, rollouts the curriculum needed to reach the uniform curriculum's final
// held-out solve rate, share of non-degenerate groups; the same for the
// held-out reach, a low-noise figure beside the solve rate) and writes plots
// of both against rollouts (SVG) and the raw results (JSON).
//
// Runs share one task bank and the verifier/test-run caches (deterministic
// results, see src/train/rollout.ts), so later runs pay less synthesis and
// fewer sandboxed test runs; every run still spends its own rollout budget.
//
//   npx tsx bench/curriculum.ts [--seeds 3] [--budget 150] [--eval-tasks 20] [--envs a,b] [--held-out c,d] [--track trained|all] [--extend 0] [--out bench/out]
import { EmbeddedLearner } from '../src/policy/learner.js';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { starterEnvs } from '../src/env/load.js';
import { selectRuntime } from '../src/runtime/select.js';
import { CURRICULA, TRAIN_DEFAULTS, type CurriculumName, TRACKED_TASKS, type TrainConfig } from '../src/train/config.js';
import { ResultReuse } from '../src/grading/reuse.js';
import { train } from '../src/train/trainer.js';
import type { HeldOutPoint } from '../src/train/state.js';
import { linePlot, type Series } from '../src/util/svg-plot.js';
import { heldOutRate } from '../src/cli/train-report.js';
import { isOneOf, isRecord } from '../src/util/guards.js';
import { table } from '../src/util/table.js';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '3' },
    budget: { type: 'string', default: '150' },
    /** Held-out tasks per evaluation (1 rollout each): 10 moves in 10% steps, too coarse for small budgets. */
    'eval-tasks': { type: 'string', default: '20' },
    envs: { type: 'string', default: 'durations,lru-cache,semver-ranges' },
    'held-out': { type: 'string', default: 'md-tokens' },
    out: { type: 'string', default: 'bench/out' },
    data: { type: 'string', default: '.frognano/bench-curriculum' },
    curricula: { type: 'string', default: CURRICULA.join(',') },
    /** Posterior tracking and all-fail extension, as `frognano train --track/--extend` (defaults: the trainer's). */
    track: { type: 'string', default: TRAIN_DEFAULTS.track },
    extend: { type: 'string', default: String(TRAIN_DEFAULTS.extend) },
    /** Print the table and write the plot from an earlier run's curriculum.json (e.g. a partial one). */
    'report-only': { type: 'boolean', default: false },
  },
});
const track = values.track;
if (!isOneOf(TRACKED_TASKS, track)) throw new Error(`--track must be one of ${TRACKED_TASKS.join(', ')}`);
const seeds = Array.from({ length: Number(values.seeds) }, (_, i) => i + 1);
const curricula = values.curricula!.split(',');
if (!curricula.every((c) => isOneOf(CURRICULA, c))) throw new Error(`--curricula takes some of ${CURRICULA.join(', ')}`);
const base: TrainConfig = {
  ...TRAIN_DEFAULTS,
  envs: values.envs!.split(','),
  heldOut: values['held-out']!.split(','),
  track,
  extend: Number(values.extend),
  budget: Number(values.budget),
  steps: 1000,
  timeLimitMin: 0,
  evalEvery: 2,
  evalTasks: Number(values['eval-tasks']),
  initialTasks: 4,
};

const envs = new Map(starterEnvs().map((e) => [e.spec.name, e]));
const runtime = selectRuntime({ warn: (m) => console.error(m) });
const dataDir = resolve(values.data!);
const reuse = new ResultReuse();
mkdirSync(values.out!, { recursive: true });

/** groups / heldChecks: training groups and replay checks that held (absent in results from before replay checks). */
interface RunResult {
  curriculum: CurriculumName;
  seed: number;
  heldOut: HeldOutPoint[];
  nonDegenerate: number;
  groups?: number;
  heldChecks?: number;
  rollouts: number;
  minutes: number;
}
const optional = (v: unknown, type: 'number' | 'object') => v === undefined || typeof v === type;
const isHeldOutPoint = (v: unknown): v is HeldOutPoint =>
  isRecord(v) &&
  ['step', 'rollouts', 'solveRate'].every((k) => typeof v[k] === 'number') &&
  ['solved', 'attempts', 'reach'].every((k) => optional(v[k], 'number')) &&
  optional(v.reachByTask, 'object');
const isRunResult = (v: unknown): v is RunResult =>
  isRecord(v) &&
  isOneOf(CURRICULA, v.curriculum) &&
  ['seed', 'nonDegenerate', 'rollouts', 'minutes'].every((k) => typeof v[k] === 'number') &&
  ['groups', 'heldChecks'].every((k) => optional(v[k], 'number')) &&
  Array.isArray(v.heldOut) &&
  v.heldOut.every(isHeldOutPoint);
/** An earlier run's results (--report-only), checked: the file may be from an older version of this script. */
function readResults(path: string): RunResult[] {
  const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(data) || !data.every(isRunResult)) throw new Error(`${path} is not a list of curriculum results`);
  return data;
}
const results: RunResult[] = values['report-only'] ? readResults(join(values.out!, 'curriculum.json')) : [];
for (const seed of values['report-only'] ? [] : seeds) {
  for (const curriculum of curricula) {
    const runDir = join(dataDir, 'runs', `${curriculum}-${seed}`);
    rmSync(runDir, { recursive: true, force: true });
    const t0 = Date.now();
    const state = await train(
      { ...base, curriculum, seed },
      {
        envs,
        runtime,
        dataDir,
        runDir,
        bankDir: join(dataDir, 'bank'),
        runName: `bench-${curriculum}-${seed}`,
        reuse,
        learner: new EmbeddedLearner(base),
        onEvent: (e) => {
          if (e.kind === 'eval')
            console.error(
              `${curriculum} seed ${seed}: held-out ${heldOutRate(e)}${e.reach === undefined ? '' : ` (reach ${(100 * e.reach).toFixed(1)}%)`} at ${e.rollouts} rollouts`,
            );
          if (e.kind === 'step')
            console.error(
              `${curriculum} seed ${seed}: step ${e.metrics.step}, ${e.metrics.rollouts} rollouts, reward ${e.metrics.meanReward.toFixed(2)}, non-degenerate ${e.metrics.nonDegenerate}/${e.metrics.groups}`,
            );
        },
      },
    );
    const share = state.groups.total ? 1 - state.groups.degenerate / state.groups.total : 0;
    results.push({
      curriculum,
      seed,
      heldOut: state.heldOut,
      nonDegenerate: share,
      groups: state.groups.total,
      heldChecks: state.groups.heldChecks ?? 0,
      rollouts: state.rolloutsUsed,
      minutes: (Date.now() - t0) / 60000,
    });
    writeFileSync(join(values.out!, 'curriculum.json'), JSON.stringify(results, null, 2));
  }
}

const meanOf = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const sd = (xs: number[]) => Math.sqrt(meanOf(xs.map((x) => (x - meanOf(xs)) ** 2)));
type Measure = (p: HeldOutPoint) => number | undefined;
const solved: Measure = (p) => p.solveRate;
const reached: Measure = (p) => p.reach;
const final = (r: RunResult, m: Measure = solved) => (r.heldOut.length ? m(r.heldOut.at(-1)!) : undefined);
/** Rollouts until the measure first reaches `goal` (null: never). */
const firstAt = (r: RunResult, goal: number, m: Measure) => r.heldOut.find((p) => (m(p) ?? -1) >= goal)?.rollouts ?? null;
/** Per run, the rollouts it took to reach its seed's uniform run's final figure; the mean over seeds that got there. */
function toUniform(runs: RunResult[], m: Measure): string {
  const needed = runs.map((r) => {
    const uniform = results.find((u) => u.curriculum === 'uniform' && u.seed === r.seed);
    const goal = uniform && final(uniform, m);
    return goal === undefined ? null : firstAt(r, goal, m);
  });
  const got = needed.filter((n): n is number => n !== null);
  return got.length ? `${Math.round(meanOf(got))} (${got.length}/${runs.length} seeds)` : 'never';
}

const rows = curricula
  .filter((c) => results.some((r) => r.curriculum === c))
  .map((c) => {
    const runs = results.filter((r) => r.curriculum === c);
    const finals = runs.map((r) => final(r) ?? 0);
    const reaches = runs.map((r) => final(r, reached)).filter((x): x is number => x !== undefined);
    return [
      c,
      `${(100 * meanOf(finals)).toFixed(1)}% ± ${(100 * sd(finals)).toFixed(1)}`,
      runs.map((r) => (r.heldOut.length ? heldOutRate(r.heldOut.at(-1)!) : '-')).join(' '),
      toUniform(runs, solved),
      reaches.length ? `${(100 * meanOf(reaches)).toFixed(1)}% ± ${(100 * sd(reaches)).toFixed(1)}` : '-',
      toUniform(runs, reached),
      `${(100 * meanOf(runs.map((r) => r.nonDegenerate))).toFixed(1)}% (mean of ${runs.length} runs)`,
      runs.map((r) => `${r.groups ?? '?'}/${r.heldChecks ?? '?'}`).join(' '),
      `${meanOf(runs.map((r) => r.minutes)).toFixed(1)} min`,
    ];
  });
console.log(
  table(
    [
      'curriculum',
      'final held-out (mean ± sd)',
      'per seed',
      'rollouts to uniform final',
      'final held-out reach',
      'rollouts to uniform final reach',
      'non-degenerate groups',
      'groups / replay checks held (per seed)',
      'wall per run',
    ],
    rows,
  ),
);

/** One plot of a held-out measure against rollouts: each seed faint, the mean over seeds bold. */
function plot(m: Measure, title: string, yLabel: string, file: string): void {
  const series: Series[] = [];
  for (const c of curricula) {
    const runs = results.filter((r) => r.curriculum === c);
    if (runs.length === 0) continue;
    const pts = (ps: HeldOutPoint[]) => ps.filter((p) => m(p) !== undefined).map((p): [number, number] => [p.rollouts, m(p)!]);
    for (const r of runs) series.push({ name: `${c} seed ${r.seed}`, group: c, faint: true, points: pts(r.heldOut) });
    // Mean over seeds at each evaluation index (runs evaluate on the same schedule).
    const n = Math.min(...runs.map((r) => pts(r.heldOut).length));
    const points: [number, number][] = Array.from({ length: n }, (_, i) => [
      meanOf(runs.map((r) => pts(r.heldOut)[i]![0])),
      meanOf(runs.map((r) => pts(r.heldOut)[i]![1])),
    ]);
    series.push({ name: `${c} (mean of ${runs.length})`, group: c, bold: true, points });
  }
  writeFileSync(join(values.out!, file), linePlot({ title, xLabel: 'rollouts (probes included)', yLabel, series, yDomain: [0, 1] }));
}
plot(solved, 'Held-out solve rate against rollouts', 'held-out solve rate', 'curriculum.svg');
plot(reached, 'Held-out reach against rollouts', 'held-out reach (fix among the first 10 choices)', 'curriculum-reach.svg');
console.log(`wrote ${join(values.out!, 'curriculum.svg')}, curriculum-reach.svg and curriculum.json`);
