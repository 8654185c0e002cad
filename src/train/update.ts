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
//
// 'repair' goes one step further: every repair choice of the group is a
// trial with its own reward (1 when it is part of a passing rollout's
// submitted change, 0 when it was undone or its rollout failed), and the
// advantage method runs over those trials instead of the rollouts. With
// 'attempt' each of a failing rollout's ten wrong choices carried the whole
// failure (-1 in a group of two under RLOO) while the fix carried a share
// of the success: one wrong choice with an unusual feature value decided a
// step's direction (a default run's first step moved one weight by -1.07
// that way). Per repair, a wrong choice weighs about the group's share of
// fixes among its choices and the fix about one less that share. The group
// is still filtered by its rollouts' rewards (all pass or all fail: no
// update), as the curriculum counts it. On hidden-test tasks the agent keeps
// any repair that leaves the visible tests green, so a passing rollout's
// needless edits score 1 with the fix (as under 'attempt').
import { FEATURE_DIM } from '../policy/features.js';
import type { Decision, LinearPolicy } from '../policy/linear.js';
import { SUCCESS_THRESHOLD } from '../curriculum/probe.js';
import { advantages, isDegenerate, type AdvantageMethod } from './advantages.js';
import type { RolloutResult } from './rollout.js';

export type CreditMethod = 'episode' | 'attempt' | 'repair';
export const CREDIT_METHODS: readonly CreditMethod[] = ['repair', 'attempt', 'episode'];

/** The scale of every decision of a group's rollouts (rollouts with a null reward get none), in order. */
export function decisionScales(rs: RolloutResult[], method: AdvantageMethod, credit: CreditMethod): (number | null)[][] {
  const rewards = rs.map((r) => r.reward);
  if (credit === 'repair') {
    const won = rs.map((r) => (r.reward === null ? null : r.decisions.map((d) => (r.reward! >= SUCCESS_THRESHOLD && !d.undone ? 1 : 0))));
    const adv = advantages(won.flatMap((w) => w ?? []), method);
    let k = 0;
    return won.map((w, i) => (w === null ? rs[i]!.decisions.map(() => null) : w.map(() => adv[k++]!)));
  }
  const adv = advantages(rewards, method);
  const failed = adv[rewards.findIndex((r) => r !== null && r < SUCCESS_THRESHOLD)] ?? 0;
  return rs.map((r, i) => r.decisions.map((d) => {
    const a = adv[i]!;
    return a !== null && credit === 'attempt' && r.reward! >= SUCCESS_THRESHOLD && d.undone ? failed : a;
  }));
}

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
    decisionScales(rs, method, credit).forEach((scales, i) => scales.forEach((scale, j) => {
      const d = rs[i]!.decisions[j]!;
      if (scale) credited.push({ d, scale, old: epochs > 1 ? policy.logprob(d) : 0 });
    }));
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
