// Extends a group that came back all fail, a wave at a time, until one of its rollouts passes: under RLOO an
// all-fail group teaches nothing, one pass among many failures teaches most. Off by default (--extend N); extension
// rollouts count against the budget. See docs/decisions/2026-12-03-extend-all-fail.md.
import { isSuccess } from '../curriculum/probe.js';
import type { Rollout as RolloutResult } from '../rl/contract.js';
import type { MoreRollouts } from './more-rollouts.js';

export interface ExtendOptions extends MoreRollouts {
  /** Rollouts a group may gain at most. */
  max: number;
}

/** A group that scored and never passed. */
export function allFail(rs: readonly RolloutResult[]): boolean {
  return rs.some((r) => r.reward !== null) && !rs.some((r) => isSuccess(r.reward));
}

/** Extends every all-fail group in place; returns the rollouts added per task (only tasks that gained some). */
export async function extendAllFail(groups: Map<string, RolloutResult[]>, o: ExtendOptions): Promise<Map<string, number>> {
  const added = new Map<string, number>();
  for (const [id, rs] of groups) {
    let n = 0;
    while (allFail(rs) && n < o.max && o.budgetLeft() > 0) {
      const wave = Math.min(o.workers, o.max - n, o.budgetLeft());
      const indices = Array.from({ length: wave }, (_, k) => rs.length + k);
      for (let k = 0; k < wave; k++) o.spend();
      n += wave;
      rs.push(...(await Promise.all(indices.map((i) => o.run(id, i)))));
    }
    if (n) added.set(id, n);
  }
  return added;
}
