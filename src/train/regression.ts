// Replays of the regression set (retired tasks), run as checks. A retired
// task was learned; replaying it asks whether it still is. Its group starts
// at the admission probe's size: when every rollout passes, the task still
// holds and the check stops there (its posterior takes the evidence, but an
// all-pass group has no signal under group-relative advantages, so no full
// group is spent and none is trained on). When one fails, the policy may be
// forgetting it: the group is filled up to full size and trains like any other.
import { isSuccess } from '../curriculum/probe.js';
import type { Rollout as RolloutResult } from '../rl/contract.js';
import type { MoreRollouts } from './more-rollouts.js';
import { pool as inParallel } from '../util/pool.js';

export interface ReplayCheckOptions extends MoreRollouts {
  /** Full group size a failing check is filled up to. */
  group: number;
}

/** Rollouts a replayed retired task starts with: the probe's size, never more than a group. */
export const checkSize = (probe: number, group: number): number => Math.min(probe, group);

/** A check that held: it scored, and every scored rollout passed. */
export function held(rs: readonly RolloutResult[]): boolean {
  const scored = rs.filter((r) => r.reward !== null);
  return scored.length > 0 && scored.every((r) => isSuccess(r.reward));
}

/**
 * Settles the replays' checks in `groups`: a check that held is left as it
 * is; any other is filled up to a full group, as far as the budget allows.
 * Returns the ids whose check held (not training groups).
 */
export async function settleReplays(groups: Map<string, RolloutResult[]>, replays: readonly string[], o: ReplayCheckOptions): Promise<Set<string>> {
  const out = new Set<string>();
  const fill: { id: string; index: number }[] = [];
  for (const id of replays) {
    const rs = groups.get(id);
    if (!rs) continue;
    if (held(rs)) out.add(id);
    else for (let i = rs.length; i < o.group; i++) fill.push({ id, index: i });
  }
  const jobs = fill.slice(0, Math.max(0, o.budgetLeft()));
  for (let k = 0; k < jobs.length; k++) o.spend();
  const got: RolloutResult[] = [];
  await inParallel(jobs.map((j, k) => ({ ...j, k })), o.workers, async ({ id, index, k }) => void (got[k] = await o.run(id, index)));
  jobs.forEach(({ id }, k) => groups.get(id)!.push(got[k]!)); // in index order, whatever finished first
  return out;
}
