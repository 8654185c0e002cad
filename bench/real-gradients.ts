// Where a real training run's gradient comes from, per dense feature: the
// default `frognano train` run (or one with other settings), observed through
// the trainer's onGroups hook. Every credited decision's score-function term
// scale · (φ(chosen) − E_π[φ]) (scale as the update's credit gives it) is summed by kind of decision: all repairs of a
// failing rollout, repairs a passing rollout undid, the repairs a passing
// rollout kept, and whether it was the episode's first choice or a later one.
// Compare with bench/policy-sim.ts, which simulates first choices only.
//
//   npx tsx bench/real-gradients.ts [--out /tmp/rg] [--run-dir D] [--steps N] [--lr X] [--epochs N] [--credit C]
//
// Writes each step's groups (decisions with their dense features) to OUT/groups-S.json.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SUCCESS_THRESHOLD } from '../src/curriculum/probe.js';
import { starterEnvs } from '../src/env/load.js';
import { DENSE_FEATURES, FEATURE_DIM } from '../src/policy/features.js';
import { decisionsOf, type EmbeddedTurn } from '../src/policy/decisions.js';
import { EmbeddedLearner } from '../src/policy/learner.js';
import { selectRuntime } from '../src/runtime/select.js';
import { estimator } from '../src/rl/advantages.js';
import type { ScoredGroup } from '../src/rl/contract.js';
import { TRAIN_DEFAULTS } from '../src/train/config.js';
import { train } from '../src/train/trainer.js';
import { CREDIT_METHODS, decisionScales, type CreditMethod } from '../src/policy/update.js';
import { isOneOf } from '../src/util/guards.js';
import { table } from '../src/util/table.js';
import { heldOutRate } from '../src/cli/train-report.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/rg' },
    'run-dir': { type: 'string', default: '.frognano/runs/real-gradients' },
    steps: { type: 'string', default: String(TRAIN_DEFAULTS.steps) },
    lr: { type: 'string', default: String(TRAIN_DEFAULTS.lr) },
    epochs: { type: 'string', default: String(TRAIN_DEFAULTS.epochs) },
    credit: { type: 'string', default: TRAIN_DEFAULTS.credit },
    'time-limit': { type: 'string', default: String(TRAIN_DEFAULTS.timeLimitMin) },
  },
});
const out = values.out!;
function creditFlag(value: string | undefined): CreditMethod {
  if (!isOneOf(CREDIT_METHODS, value)) throw new Error(`--credit: one of ${CREDIT_METHODS.join(', ')}`);
  return value;
}
const credit = creditFlag(values.credit);
mkdirSync(out, { recursive: true });
const runDir = resolve(values['run-dir']!);
rmSync(runDir, { recursive: true, force: true });
const D = DENSE_FEATURES.length;
const KINDS = ['fail first', 'fail later', 'pass undone', 'pass kept first', 'pass kept later'] as const;
const total = new Map<string, Float64Array>(KINDS.map((k) => [k, new Float64Array(D)]));
const counts = new Map<string, number>(KINDS.map((k) => [k, 0]));

const cfg = {
  ...TRAIN_DEFAULTS,
  credit,
  steps: Number(values.steps),
  lr: Number(values.lr),
  epochs: Number(values.epochs),
  timeLimitMin: Number(values['time-limit']),
};
const learner = new EmbeddedLearner(cfg);

function observe(step: number, groups: ScoredGroup<EmbeddedTurn>[]): void {
  const policy = learner.linear;
  const dump: unknown[] = [];
  for (const g of groups) {
    const rs = g.rollouts;
    const rewards = rs.map((r) => r.reward);
    dump.push({
      task: g.taskId,
      rewards,
      rollouts: rs.map((r) =>
        decisionsOf(r.trajectory).map((d) => ({
          chosen: d.chosen,
          undone: Boolean(d.undone),
          feats: d.feats.map((f) => {
            const k = f.idx.findIndex((i) => i >= D);
            return k < 0 ? [f.idx, f.val] : [f.idx.slice(0, k), f.val.slice(0, k)];
          }),
        })),
      ),
    });
    if (g.degenerate) continue;
    const scales = decisionScales(g, estimator(TRAIN_DEFAULTS.advantage), credit); // as the trainer's update credits them
    rs.forEach((r, i) => {
      if (r.reward === null) return;
      const passed = r.reward >= SUCCESS_THRESHOLD;
      decisionsOf(r.trajectory).forEach((d, j) => {
        const kind = !passed ? (j === 0 ? 'fail first' : 'fail later') : d.undone ? 'pass undone' : j === 0 ? 'pass kept first' : 'pass kept later';
        const grad = new Float64Array(FEATURE_DIM);
        policy.accumulate(d, scales[i]![j] ?? 0, grad);
        const g = total.get(kind)!;
        for (let k = 0; k < D; k++) g[k]! += grad[k]!;
        counts.set(kind, counts.get(kind)! + 1);
      });
    });
  }
  writeFileSync(join(out, `groups-${step}.json`), JSON.stringify(dump));
  console.log(`step ${step}: ${groups.length} groups; weights ${DENSE_FEATURES.map((n, i) => `${n} ${policy.w[i]!.toFixed(2)}`).join(' ')}`);
}

const envs = new Map(starterEnvs().map((e) => [e.spec.name, e]));
await train(cfg, {
  envs,
  learner,
  runtime: selectRuntime({ warn: (m) => console.error(m) }),
  dataDir: '.frognano',
  runDir,
  bankDir: join(runDir, 'tasks'),
  runName: 'real-gradients',
  onGroups: observe,
  onEvent: (e) => {
    if (e.kind === 'eval') console.log(`held-out after step ${e.step}: ${heldOutRate(e)}`);
  },
});
console.log(
  `\nGradient by kind of decision (sum of scale x (phi(chosen) - E[phi]) over the run), decisions per kind: ${KINDS.map((k) => `${k} ${counts.get(k)}`).join(', ')}`,
);
console.log(
  table(
    ['feature', ...KINDS, 'sum'],
    [
      ...DENSE_FEATURES.map((n, i) => {
        const row = KINDS.map((k) => total.get(k)![i]!);
        return [n, ...row.map((x) => x.toFixed(2)), row.reduce((a, b) => a + b, 0).toFixed(2)];
      }),
    ],
  ),
);
