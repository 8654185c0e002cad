// One policy update from a step's groups: advantages within each group (an
// infrastructure failure is left out, never scored), degenerate groups (all
// rewards equal: no signal) filtered and counted, the score-function gradient
// of every decision scaled by its rollout's advantage, one optimizer step (LinearPolicy.update).
//
// Credit ('episode' or 'attempt'): with 'episode' every repair choice of a
// rollout gets the rollout's advantage, including repairs a passing rollout
// tried and undid before it found the fix, which pushes those wrong choices up
// as much as the fix. With 'attempt' an undone repair of a passing rollout gets
// the advantage of a failing rollout of its group instead: the tests said it
// was wrong, exactly as they said for every repair of a failing rollout. This
// treats each repair as its own trial (less noise, a small bias: an undone try
// also used one of the episode's attempts).
import { FEATURE_DIM } from '../policy/features.js';
import type { Decision, LinearPolicy } from '../policy/linear.js';
import { SUCCESS_THRESHOLD } from '../curriculum/probe.js';
import { advantages, isDegenerate, type AdvantageMethod } from './advantages.js';
import type { RolloutResult } from './rollout.js';

export type CreditMethod = 'episode' | 'attempt';
export const CREDIT_METHODS: readonly CreditMethod[] = ['attempt', 'episode'];

/** PPO's clip range: later epochs stop pushing a choice once its probability moved this far (as a ratio). */
export const PPO_CLIP = 0.2;

/**
 * `epochs` optimizer steps on the same rollouts (PPO-style): the first is the
 * plain policy gradient; later ones weight each decision by how much more (or
 * less) likely the updated policy makes it than the policy that acted, and
 * drop a decision once that ratio leaves [1 - PPO_CLIP, 1 + PPO_CLIP] in its
 * advantage's direction. A step of this trainer costs ~16 rollouts and a few
 * milliseconds of update, so reusing each batch a few times is nearly free;
 * offline (bench/policy-sim.ts) 4 epochs moved the held-out tasks as far as
 * 4x the rollouts did with one. Only the first `learnable` weights move
 * (learnableSlots). Returns the gradient norm of the first step taken (0 when
 * every group was degenerate: no update).
 */
export function updatePolicy(
  policy: LinearPolicy, groups: RolloutResult[][], method: AdvantageMethod, lr: number, credit: CreditMethod = 'episode', epochs = 1, learnable = FEATURE_DIM,
): number {
  const credited: { d: Decision; scale: number; old: number }[] = [];
  let nonDegenerate = 0, rollouts = 0;
  for (const rs of groups) {
    const rewards = rs.map((r) => r.reward);
    rollouts += rs.length;
    if (isDegenerate(rewards)) continue;
    nonDegenerate++;
    const adv = advantages(rewards, method);
    const failed = adv[rewards.findIndex((r) => r !== null && r < SUCCESS_THRESHOLD)] ?? 0;
    adv.forEach((a, i) => {
      if (a === null) return;
      const passed = rewards[i]! >= SUCCESS_THRESHOLD;
      for (const d of rs[i]!.decisions) {
        const scale = credit === 'attempt' && passed && d.undone ? failed : a;
        if (scale) credited.push({ d, scale, old: epochs > 1 ? policy.logprob(d) : 0 });
      }
    });
  }
  if (!nonDegenerate) return 0;
  let firstNorm = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const grad = new Float64Array(FEATURE_DIM);
    let live = 0;
    for (const { d, scale, old } of credited) {
      const ratio = epoch === 0 ? 1 : Math.exp(policy.logprob(d) - old);
      if ((scale > 0 && ratio > 1 + PPO_CLIP) || (scale < 0 && ratio < 1 - PPO_CLIP)) continue;
      live++;
      // Mean over the step's rollouts (Dr. GRPO: no per-length normalisation).
      policy.accumulate(d, (scale * ratio) / (rollouts || 1), grad);
    }
    if (!live) break; // every choice has moved as far as the clip allows
    grad.fill(0, learnable); // slots past `learnable` keep their weights
    const norm = policy.update(grad, lr);
    if (epoch === 0) firstNorm = norm;
  }
  return firstNorm;
}
