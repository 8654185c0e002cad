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
import type { LinearPolicy } from '../policy/linear.js';
import { SUCCESS_THRESHOLD } from '../curriculum/probe.js';
import { advantages, isDegenerate, type AdvantageMethod } from './advantages.js';
import type { RolloutResult } from './rollout.js';

/** The gradient norm of the step taken (0 when every group was degenerate: no update). */
export type CreditMethod = 'episode' | 'attempt';
export const CREDIT_METHODS: readonly CreditMethod[] = ['attempt', 'episode'];

export function updatePolicy(policy: LinearPolicy, groups: RolloutResult[][], method: AdvantageMethod, lr: number, credit: CreditMethod = 'episode'): number {
  const grad = new Float64Array(FEATURE_DIM);
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
        if (scale) policy.accumulate(d, scale, grad);
      }
    });
  }
  // Mean over the step's rollouts (Dr. GRPO: no per-length normalisation).
  for (let i = 0; i < grad.length; i++) grad[i]! /= rollouts || 1;
  return nonDegenerate ? policy.update(grad, lr) : 0;
}
