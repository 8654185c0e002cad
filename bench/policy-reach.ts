// How close the embedded policy's first choice is to the fix, offline.
//
// For tasks whose trajectories `frognano eval --trajectories` recorded, replays
// each episode's opening (test run, file listing, reads) through a fresh agent
// up to its first repair choice, finds the candidate that restores the original
// source (single-bug tasks of the repairable families), and reports: the
// probability the policy puts on it, and the chance it is among K distinct
// draws (K attempts, ignoring what the tests say between them). With --fit,
// also fits the weights to the fixes of the non-held-out environments
// (supervised, so an upper bound on what the features let training reach) and
// reports the held-out environment before and after, and a fresh half of the
// trained-on environments' tasks the fit did not see. --drop leaves feature
// groups out (dense, hash); --epochs and --lr size the fit.
//
//   npx frognano synth --env durations,lru-cache,semver-ranges,md-tokens --n 20 --strategy procedural \
//     --operators operations,control --hint full --visibility visible --out /tmp/reach/tasks
//   npx frognano eval --tasks /tmp/reach/tasks --model embedded --trajectories /tmp/reach/traj
//   npx tsx bench/policy-reach.ts --tasks /tmp/reach/tasks --trajectories /tmp/reach/traj [--checkpoint P] [--fit]
import { parseArgs } from 'node:util';
import { DENSE_FEATURES, FEATURE_DIM } from '../src/policy/features.js';
import { LinearPolicy } from '../src/policy/linear.js';
import { rng } from '../src/util/rng.js';
import { hitK, loadExamples, mean, pFix, splitExamples, type Example } from './reach-examples.js';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string' },
    trajectories: { type: 'string' },
    checkpoint: { type: 'string' },
    'held-out': { type: 'string', default: 'md-tokens' },
    attempts: { type: 'string', default: '10' },
    fit: { type: 'boolean', default: false },
    epochs: { type: 'string', default: '20' },
    lr: { type: 'string', default: '0.1' },
    drop: { type: 'string', default: '' },
  },
});
if (!values.tasks || !values.trajectories) throw new Error('pass --tasks DIR and --trajectories DIR (see the header of this file)');
const K = Number(values.attempts);
const policy = values.checkpoint ? LinearPolicy.load(values.checkpoint) : new LinearPolicy();
const { examples, unreachable } = await loadExamples(values.tasks, values.trajectories, policy, values.drop!.split(',').filter(Boolean));
const { train, fresh, held } = splitExamples(examples, values['held-out']!);
function report(label: string, p: LinearPolicy): void {
  const random = rng(1);
  const row = (xs: Example[]) =>
    `${String(xs.length).padStart(3)} tasks  p(fix) ${mean(xs.map((e) => pFix(p, e))).toFixed(3)}  fix within ${K} draws ${(100 * mean(xs.map((e) => hitK(p, e, K, random)))).toFixed(1)}%`;
  console.log(`${label.padEnd(18)} fit half: ${row(train)} | fresh half: ${row(fresh)} | ${values['held-out']}: ${row(held)}`);
}
console.log(`${examples.length} single-bug tasks with a reachable fix; ${unreachable} unreachable (removal-like bugs no candidate undoes)`);
report(values.checkpoint ? 'checkpoint' : 'untrained (prior)', policy);
report('zero weights', new LinearPolicy('zero'));
if (values.fit) {
  const fitted = values.checkpoint ? LinearPolicy.load(values.checkpoint) : new LinearPolicy();
  for (let epoch = 1; epoch <= Number(values.epochs); epoch++) {
    const grad = new Float64Array(FEATURE_DIM);
    for (const e of train) {
      const pr = fitted.probabilities(e.feats),
        pf = pFix(fitted, e);
      for (const k of e.fix) fitted.accumulate({ feats: e.feats, chosen: k, temperature: 1 }, pr[k]! / pf / train.length, grad);
    }
    fitted.update(grad, Number(values.lr));
  }
  report('supervised fit', fitted);
  // The dense weights the fit ended with (the transferable part).
  console.log(DENSE_FEATURES.map((n, i) => `${n} ${fitted.w[i]!.toFixed(2)}`).join('  '));
}
