// The embedded learner's update: the score-function gradient of every repair
// choice, scaled by its credit (CreditMethod), over a step's scored groups;
// degenerate groups skipped; a few PPO-clipped epochs on the same rollouts.
// Why per-repair credit and several epochs: docs/decisions/2026-12-03-credit-per-repair.md.
import { SUCCESS_THRESHOLD } from '../curriculum/probe.js';
import type { AdvantageEstimator, ScoredGroup } from '../rl/contract.js';
import { decisionsOf, type EmbeddedTurn } from './decisions.js';
import { FEATURE_DIM } from './features.js';
import type { Decision, LinearPolicy } from './linear.js';

export type CreditMethod = 'episode' | 'attempt' | 'repair';
export const CREDIT_METHODS: readonly CreditMethod[] = ['repair', 'attempt', 'episode'];

/** The scale of every decision of a group's rollouts (rollouts with a null reward get none), in order. */
export function decisionScales(g: ScoredGroup<EmbeddedTurn>, estimator: AdvantageEstimator, credit: CreditMethod): (number | null)[][] {
  const rs = g.rollouts;
  const decisions = rs.map((r) => decisionsOf(r.trajectory));
  if (credit === 'repair') {
    const won = rs.map((r, i) => (r.reward === null ? null : decisions[i]!.map((d) => (r.reward! >= SUCCESS_THRESHOLD && !d.undone ? 1 : 0))));
    const adv = estimator.advantages(won.flatMap((w) => w ?? []));
    let k = 0;
    return won.map((w, i) => (w === null ? decisions[i]!.map(() => null) : w.map(() => adv[k++]!)));
  }
  const adv = g.advantages;
  const failed = adv[rs.findIndex((r) => r.reward !== null && r.reward < SUCCESS_THRESHOLD)] ?? 0;
  return rs.map((r, i) =>
    decisions[i]!.map((d) => {
      const a = adv[i]!;
      return a !== null && credit === 'attempt' && r.reward! >= SUCCESS_THRESHOLD && d.undone ? failed : a;
    }),
  );
}

/** PPO's clip range: later epochs stop pushing a choice once its probability moved this far (as a ratio). */
export const PPO_CLIP = 0.2;

/**
 * `epochs` optimizer steps on the same rollouts: the first is the plain policy
 * gradient; later ones weight each decision by its probability ratio to the
 * acting policy and drop it once the ratio leaves [1 - PPO_CLIP, 1 + PPO_CLIP]
 * in its advantage's direction. Only the first `learnable` weights move.
 * Returns the first step's gradient norm (0: every group degenerate).
 */
export function updatePolicy(
  policy: LinearPolicy,
  groups: readonly ScoredGroup<EmbeddedTurn>[],
  estimator: AdvantageEstimator,
  lr: number,
  credit: CreditMethod = 'episode',
  epochs = 1,
  learnable = FEATURE_DIM,
): number {
  const credited: { d: Decision; scale: number; old: number }[] = [];
  let nonDegenerate = 0,
    rollouts = 0;
  for (const g of groups) {
    rollouts += g.rollouts.length;
    if (g.degenerate) continue;
    nonDegenerate++;
    decisionScales(g, estimator, credit).forEach((scales, i) =>
      scales.forEach((scale, j) => {
        const d = decisionsOf(g.rollouts[i]!.trajectory)[j]!;
        if (scale) credited.push({ d, scale, old: epochs > 1 ? policy.logprob(d) : 0 });
      }),
    );
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
