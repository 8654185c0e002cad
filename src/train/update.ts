// One policy update from a step's groups: advantages within each group (an
// infrastructure failure is left out, never scored), degenerate groups (all
// rewards equal: no signal) filtered and counted, the score-function gradient
// of every decision scaled by its rollout's advantage, one Adam step.
import { FEATURE_DIM } from '../policy/features.js';
import type { LinearPolicy } from '../policy/linear.js';
import { advantages, isDegenerate, type AdvantageMethod } from './advantages.js';
import type { RolloutResult } from './rollout.js';

/** The gradient norm of the step taken (0 when every group was degenerate: no update). */
export function updatePolicy(policy: LinearPolicy, groups: RolloutResult[][], method: AdvantageMethod, lr: number): number {
  const grad = new Float64Array(FEATURE_DIM);
  let nonDegenerate = 0, rollouts = 0;
  for (const rs of groups) {
    const rewards = rs.map((r) => r.reward);
    rollouts += rs.length;
    if (isDegenerate(rewards)) continue;
    nonDegenerate++;
    advantages(rewards, method).forEach((a, i) => {
      if (a) for (const d of rs[i]!.decisions) policy.accumulate(d, a, grad);
    });
  }
  // Mean over the step's rollouts (Dr. GRPO: no per-length normalisation).
  for (let i = 0; i < grad.length; i++) grad[i]! /= rollouts || 1;
  return nonDegenerate ? policy.update(grad, lr) : 0;
}
