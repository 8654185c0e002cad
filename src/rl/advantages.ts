// Group-relative advantages for G rollouts of one task. A null reward (infrastructure failure) says nothing about the
// policy, so it is left out of the group and gets a null advantage: scoring it 0 would push every real success up.
// Why these estimators: docs/decisions/2026-12-02-advantage-estimators.md.

import type { AdvantageEstimator, Rollout, ScoredGroup } from './contract.js';

export type AdvantageMethod = 'grpo' | 'dr-grpo' | 'rloo';

export const GRPO_EPS = 1e-6;

function valid(rewards: readonly (number | null)[]): number[] {
  return rewards.filter((r): r is number => r !== null && Number.isFinite(r));
}

/**
 * Advantages aligned with `rewards` (null where the reward was null). grpo: (r − mean) / (std + ε); dr-grpo: r − mean;
 * rloo: r_i − mean of the other G−1 rewards (0 with fewer than 2 valid rewards).
 */
export function advantages(rewards: readonly (number | null)[], method: AdvantageMethod): (number | null)[] {
  const xs = valid(rewards);
  const g = xs.length;
  const m = g === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / g;
  const sum = m * g;
  let scale: (r: number) => number;
  switch (method) {
    case 'grpo': {
      const std = g === 0 ? 0 : Math.sqrt(xs.reduce((a, r) => a + (r - m) ** 2, 0) / g);
      scale = (r) => (r - m) / (std + GRPO_EPS);
      break;
    }
    case 'dr-grpo':
      scale = (r) => r - m;
      break;
    case 'rloo':
      scale = (r) => (g < 2 ? 0 : r - (sum - r) / (g - 1));
      break;
    default:
      throw new Error(`unknown advantage method: ${String(method)}`);
  }
  return rewards.map((r) => (r === null || !Number.isFinite(r) ? null : scale(r)));
}

/** All valid rewards equal, or fewer than two: zero advantages under every method, so DAPO-style filtering drops it. */
export function isDegenerate(rewards: readonly (number | null)[]): boolean {
  const xs = valid(rewards);
  return xs.length < 2 || xs.every((r) => r === xs[0]);
}

export const ADVANTAGE_METHODS: readonly AdvantageMethod[] = ['rloo', 'grpo', 'dr-grpo'];

/** The estimator for a method, as the RL contract takes it. */
export function estimator(method: AdvantageMethod): AdvantageEstimator {
  return { name: method, advantages: (rewards) => advantages(rewards, method) };
}

/** A group scored for a learner: its advantages by `est`, and whether it is degenerate. */
export function scoreGroup<D>(rollouts: Rollout<D>[], est: AdvantageEstimator): ScoredGroup<D> {
  const rewards = rollouts.map((r) => r.reward);
  return { taskId: rollouts[0]?.taskId ?? '', rollouts, advantages: est.advantages(rewards), degenerate: isDegenerate(rewards) };
}
