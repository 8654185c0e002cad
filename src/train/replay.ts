// How an update moved a task's pass rate, read off the policy itself.
//
// The pool's posterior learns that the policy changed only by spending a group
// on the task. But one update often teaches a task outright: a probe with one
// success is enough for the next group of 8 to pass every time (measured: four
// tasks the untrained policy solved 7 times in 32 went 8/8 right after their
// probe groups trained). The embedded policy's choices are exact and cheap to
// replay, so for a task with a passing rollout in the step, the trainer scores
// that rollout's kept repairs (the ones that made the fix) under the weights
// before and after the update. The model's estimate of its pass rate is
// Π_j 1 − (1 − q_j)^K (q_j: probability of kept repair j at its choice, K: the
// attempts an episode has), a crude figure (contexts change between attempts),
// so only its change is used: the posterior mean moves by the same amount on
// the logit scale, and the observed evidence keeps setting the level.
import { MAX_ATTEMPTS } from '../policy/agent.js';
import type { LinearPolicy } from '../policy/linear.js';
import { SUCCESS_THRESHOLD } from '../curriculum/probe.js';
import type { RolloutResult } from './rollout.js';

/** The model's pass-rate estimate from one passing rollout's kept repairs (null: none kept). */
export function replayPassRate(policy: LinearPolicy, r: RolloutResult, attempts = MAX_ATTEMPTS): number | null {
  const kept = r.decisions.filter((d) => !d.undone);
  if (r.reward === null || r.reward < SUCCESS_THRESHOLD || kept.length === 0) return null;
  return kept.reduce((p, d) => p * (1 - (1 - Math.exp(policy.logprob(d))) ** attempts), 1);
}

/** Mean estimate over a task's passing rollouts, or null when it had none. */
export function taskReplayRate(policy: LinearPolicy, rollouts: readonly RolloutResult[]): number | null {
  const rates = rollouts.map((r) => replayPassRate(policy, r)).filter((x): x is number => x !== null);
  return rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null;
}

/** Per task with a passing rollout among the groups, its mean estimate under the policy's current weights. */
export function replayRates(policy: LinearPolicy, groups: readonly RolloutResult[][]): Map<string, number> {
  const byTask = new Map<string, RolloutResult[]>();
  for (const r of groups.flat()) byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r]);
  const out = new Map<string, number>();
  for (const [id, rs] of byTask) {
    const rate = taskReplayRate(policy, rs);
    if (rate !== null) out.set(id, rate);
  }
  return out;
}

const EDGE = 0.02;
const clamp = (p: number) => Math.min(1 - EDGE, Math.max(EDGE, p));
const logit = (p: number) => Math.log(clamp(p) / (1 - clamp(p)));

/** `mean` moved on the logit scale by the change from `before` to `after`, kept inside [0.02, 0.98]. */
export function shiftedMean(mean: number, before: number, after: number): number {
  const z = logit(mean) + logit(after) - logit(before);
  return clamp(1 / (1 + Math.exp(-z)));
}
