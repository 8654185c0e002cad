// Replays of retired tasks, run as checks of whether the policy still solves them. A check that passes throughout
// stops at the probe's size (an all-pass group has no signal under group-relative advantages); one that fails is
// filled to a full group and trained on. See docs/decisions/2026-12-03-replay-checks.md.
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
  await inParallel(
    jobs.map((j, k) => ({ ...j, k })),
    o.workers,
    async ({ id, index, k }) => void (got[k] = await o.run(id, index)),
  );
  jobs.forEach(({ id }, k) => groups.get(id)!.push(got[k]!)); // in index order, whatever finished first
  return out;
}
