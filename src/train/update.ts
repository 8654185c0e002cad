// One policy update from a step's groups: advantages within each group (an
// infrastructure failure is left out, never scored), degenerate groups (all
// rewards equal: no signal) filtered and counted, the score-function gradient
// of every decision scaled by its rollout's advantage, one Adam step.
import { FEATURE_DIM } from '../policy/features.js';
import type { LinearPolicy } from '../policy/linear.js';
import { advantages, isDegenerate, type AdvantageMethod } from './advantages.js';
import type { RolloutResult } from './rollout.js';

export interface UpdateStats {
  groups: number;
  nonDegenerate: number;
  infraFailures: number;
  meanReward: number;
  gradNorm: number;
}

export function updatePolicy(policy: LinearPolicy, groups: RolloutResult[][], method: AdvantageMethod, lr: number): UpdateStats {
  const grad = new Float64Array(FEATURE_DIM);
  let nonDegenerate = 0, infra = 0, sum = 0, n = 0, rollouts = 0;
  for (const rs of groups) {
    const rewards = rs.map((r) => r.reward);
    rollouts += rs.length;
    infra += rewards.filter((r) => r === null).length;
    for (const r of rewards) if (r !== null) { sum += r; n++; }
    if (isDegenerate(rewards)) continue;
    nonDegenerate++;
    advantages(rewards, method).forEach((a, i) => {
      if (a) for (const d of rs[i]!.decisions) policy.accumulate(d, a, grad);
    });
  }
  // Mean over the step's rollouts (Dr. GRPO: no per-length normalisation).
  for (let i = 0; i < grad.length; i++) grad[i]! /= rollouts || 1;
  const gradNorm = nonDegenerate ? policy.update(grad, lr) : 0;
  return { groups: groups.length, nonDegenerate, infraFailures: infra, meanReward: n ? sum / n : 0, gradNorm };
}
