// Policy-gradient training simulated offline on recorded first decisions:
// how far the trainer's update (src/train/update.ts, unchanged) moves the
// policy toward fixes of tasks it did not train on, in seconds instead of a
// quarter-hour run. A simulated rollout draws up to K distinct candidates of
// one example (the real agent tries one repair at a time and never repeats
// one); it passes when a draw is the fix, and every other draw is an undone
// repair. What it leaves out: the tests' feedback between attempts (a repair
// that lowers the failing count is kept), and later decisions' changed
// context. Training tasks are drawn from the fit half of the trained-on
// environments, B per step, preferring those whose chance is inside
// [0.1, 0.9] (an oracle frontier); transfer is read on the fresh half and on
// the held-out environment. Same data as bench/policy-reach.ts:
//
//   npx tsx bench/policy-sim.ts --tasks /tmp/reach/tasks --trajectories /tmp/reach/traj \
//     [--lr X --epochs N --credit C --steps 8 --seeds 3 --sampler frontier|sticky|uniform --learn dense|all --drop dense,hash]
// (defaults: the trainer's)
import { parseArgs } from 'node:util';
import { DENSE_FEATURES } from '../src/policy/features.js';
import type { Decision } from '../src/policy/linear.js';
import { LinearPolicy } from '../src/policy/linear.js';
import { ADVANTAGE_METHODS, estimator, scoreGroup } from '../src/rl/advantages.js';
import type { Rollout } from '../src/rl/contract.js';
import { trajectoryOf, type EmbeddedTurn } from '../src/policy/decisions.js';
import { LEARNED_WEIGHTS, learnableSlots, TRAIN_DEFAULTS as D } from '../src/train/config.js';
import { CREDIT_METHODS, updatePolicy } from '../src/policy/update.js';
import { isOneOf } from '../src/util/guards.js';
import { rng } from '../src/util/rng.js';
import { hitK, loadExamples, mean, splitExamples, type Example } from './reach-examples.js';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string' },
    trajectories: { type: 'string' },
    'held-out': { type: 'string', default: 'md-tokens' },
    attempts: { type: 'string', default: '10' },
    lr: { type: 'string', default: String(D.lr) },
    steps: { type: 'string', default: '8' },
    batch: { type: 'string', default: String(D.batch) },
    group: { type: 'string', default: String(D.group) },
    credit: { type: 'string', default: D.credit },
    advantage: { type: 'string', default: D.advantage },
    seeds: { type: 'string', default: '3' },
    drop: { type: 'string', default: '' },
    sampler: { type: 'string', default: 'frontier' },
    'train-family': { type: 'string', default: '' },
    learn: { type: 'string', default: D.learn },
    epochs: { type: 'string', default: String(D.epochs) },
  },
});
if (!values.tasks || !values.trajectories) throw new Error('pass --tasks DIR and --trajectories DIR (see the header of this file)');
const { advantage, credit, learn } = values;
if (!isOneOf(ADVANTAGE_METHODS, advantage)) throw new Error(`--advantage: one of ${ADVANTAGE_METHODS.join(', ')}`);
if (!isOneOf(CREDIT_METHODS, credit)) throw new Error(`--credit: one of ${CREDIT_METHODS.join(', ')}`);
if (!isOneOf(LEARNED_WEIGHTS, learn)) throw new Error(`--learn: one of ${LEARNED_WEIGHTS.join(', ')}`);
const K = Number(values.attempts),
  B = Number(values.batch),
  G = Number(values.group),
  STEPS = Number(values.steps);

const { examples } = await loadExamples(values.tasks, values.trajectories, new LinearPolicy(), values.drop!.split(',').filter(Boolean));
const split = splitExamples(examples, values['held-out']!);
// --train-family F: train only on the trained-on half's tasks of that bug family (what a curriculum drifting to one family feeds the learner).
const train = values['train-family'] ? split.train.filter((e) => e.family === values['train-family']) : split.train;
if (train.length === 0)
  throw new Error(`no training task of family "${values['train-family']}" (families: ${[...new Set(split.train.map((e) => e.family))].join(', ')})`);
const { fresh, held } = split;

function rollout(p: LinearPolicy, e: Example, random: () => number): Rollout<EmbeddedTurn> {
  const left = e.feats.map((_, i) => i);
  const decisions: Decision[] = [];
  let reward = 0;
  for (let j = 0; j < K && left.length; j++) {
    const feats = left.map((i) => e.feats[i]!);
    const { index } = p.choose(feats, random);
    const picked = left[index]!;
    const hit = e.fix.includes(picked);
    decisions.push({ feats, chosen: index, temperature: 1, ...(hit ? {} : { undone: true }) });
    if (hit) {
      reward = 1;
      break;
    }
    left.splice(index, 1);
  }
  return { taskId: e.id, reward, trajectory: trajectoryOf(decisions), policyVersion: 0, steps: decisions.length, ms: 0, verifyMs: 0, cached: false };
}

const score = (p: LinearPolicy, xs: Example[], random: () => number) => 100 * mean(xs.map((e) => hitK(p, e, K, random, 100)));
const rows: number[][] = [];
for (let seed = 1; seed <= Number(values.seeds); seed++) {
  const random = rng(seed);
  const p = new LinearPolicy();
  let rollouts = 0,
    nonDegenerate = 0,
    groups = 0;
  let sticky: Example[] = [];
  for (let step = 0; step < STEPS; step++) {
    const chance = train.map((e) => hitK(p, e, K, random, 40));
    const inBand = train.filter((_, i) => chance[i]! >= 0.1 && chance[i]! <= 0.9);
    const from = values.sampler === 'uniform' || inBand.length < B ? train : inBand;
    // sticky: as the trainer's pool does, a task stays in the batch until the policy has learned it (chance > 0.9) or lost it (< 0.1).
    const draw = () => from[Math.floor(random() * from.length)]!;
    const keep = (e: Example) => {
      const c = chance[train.indexOf(e)]!;
      return c >= 0.1 && c <= 0.9;
    };
    const picked =
      values.sampler === 'sticky'
        ? (sticky = Array.from({ length: B }, (_, k) => (sticky[k] && keep(sticky[k]!) ? sticky[k]! : draw())))
        : Array.from({ length: B }, draw);
    const stepGroups = picked.map((e) => Array.from({ length: G }, () => rollout(p, e, random)));
    for (const g of stepGroups) {
      groups++;
      if (new Set(g.map((r) => r.reward)).size > 1) nonDegenerate++;
    }
    rollouts += B * G;
    const est = estimator(advantage);
    updatePolicy(
      p,
      stepGroups.map((g) => scoreGroup(g, est)),
      est,
      Number(values.lr),
      credit,
      Number(values.epochs),
      learnableSlots(learn),
    );
  }
  if (seed === 1) console.log(DENSE_FEATURES.map((n, i) => `${n} ${p.w[i]!.toFixed(2)}`).join('  '));
  const evalRandom = rng(100 + seed);
  rows.push([score(p, train, evalRandom), score(p, fresh, evalRandom), score(p, held, evalRandom), (100 * nonDegenerate) / groups, rollouts]);
}
const untrained = new LinearPolicy(),
  r0 = rng(99);
console.log(`${train.length} fit / ${fresh.length} fresh / ${held.length} held-out tasks; fix within ${K} draws, %`);
console.log(
  `untrained: fit ${score(untrained, train, r0).toFixed(1)}  fresh ${score(untrained, fresh, r0).toFixed(1)}  held-out ${score(untrained, held, r0).toFixed(1)}`,
);
const avg = (k: number) => mean(rows.map((r) => r[k]!)).toFixed(1);
console.log(
  `trained (${values.seeds} seeds, ${rows[0]![4]} rollouts each, lr ${values.lr}, credit ${values.credit}, ${values.sampler}): fit ${avg(0)}  fresh ${avg(1)}  held-out ${avg(2)}  non-degenerate ${avg(3)}%`,
);
