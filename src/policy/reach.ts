// A new task's reach for the current policy, before any rollout: the chance
// that the fix is among the policy's first K repair choices. The curriculum
// knows each synthesized task's fix (TaskPilot made the bug), the policy does
// not; replaying the agent's opening (test run, listing, reads) up to its
// first choice gives every candidate's probability, and the candidate that
// turns the changed lines back into the fix patch's is the fix. A task the
// policy almost surely cannot reach (a removal bug no candidate undoes, or a
// fix it would try with a chance of 1 in 100) is turned away without paying
// an admission probe of four failing rollouts, the costliest kind.
import type { Opening } from './agent.js';
import { applyRepair } from './candidates.js';
import type { LinearPolicy } from './linear.js';
import { fileDiff } from '../util/diff.js';
import { deriveSeed, rng } from '../util/rng.js';

/** The one file a patch changes; null when it changes several (no single repair undoes that). */
export function patchedFile(patch: string): string | null {
  const files = [...patch.matchAll(/^diff --git a\/.+? b\/(.+)$/gm)].map((m) => m[1]!);
  return files.length === 1 ? files[0]! : null;
}

/**
 * Indices of the opening's candidates that turn their file into the fixed
 * one: their diff is the fix patch itself (synthesized tasks' patches are
 * written by the same fileDiff, so equal diffs of the same text mean equal
 * results). Null when the patch changes several files.
 */
export function fixIndices(opening: Opening, fixPatch: string): number[] | null {
  const file = patchedFile(fixPatch);
  if (!file) return null;
  return opening.cands.flatMap(({ r, text }, k) => (r.file === file && fileDiff(file, text, applyRepair(text, r)) === fixPatch ? [k] : []));
}

/**
 * The chance that one of `fix` is among k distinct draws from `probs` (the
 * agent never tries a repair twice), by Monte Carlo.
 */
export function reachWithin(probs: number[], fix: number[], k: number, random: () => number, runs = 200): number {
  if (fix.length === 0) return 0;
  const isFix = new Set(fix);
  let hits = 0;
  for (let r = 0; r < runs; r++) {
    const w = [...probs];
    let total = w.reduce((a, b) => a + b, 0);
    for (let j = 0; j < k && total > 0; j++) {
      let u = random() * total, c = 0;
      while (c < w.length - 1 && (u -= w[c]!) > 0) c++;
      if (isFix.has(c)) { hits++; break; }
      total -= w[c]!;
      w[c] = 0;
    }
  }
  return hits / runs;
}

/** Monte Carlo draws per task for a reach read again after updates: about ±1.5% per task. */
export const REACH_RUNS = 1000;

/**
 * Tasks' openings and fix candidates, kept: the openings do not depend on the
 * weights (the agent reads the same files whatever they are), so each later
 * reach costs a softmax and the draws, the same draws at every call (seeded
 * per task), so differences come from the policy.
 */
export class Openings {
  private readonly made = new Map<string, { opening: Opening; fix: number[] }>();

  constructor(private readonly seed: number | string, private readonly k: number, private readonly runs = REACH_RUNS) {}

  /** Keeps a task's opening when some candidate can make its fix; says whether it did. */
  keep(taskId: string, fixPatch: string, opening: Opening | null): boolean {
    const fix = opening && fixIndices(opening, fixPatch);
    if (!opening || !fix) return false;
    this.made.set(taskId, { opening, fix });
    return true;
  }

  drop(taskId: string): void {
    this.made.delete(taskId);
  }

  has(taskId: string): boolean {
    return this.made.has(taskId);
  }

  ids(): string[] {
    return [...this.made.keys()];
  }

  /** The task's reach for `policy` as it is now; null when no opening is kept (a fix no candidate makes counts 0). */
  reach(policy: LinearPolicy, taskId: string): number | null {
    const m = this.made.get(taskId);
    return m ? reachWithin(policy.probabilities(m.opening.feats), m.fix, this.k, rng(deriveSeed(this.seed, 'reach', taskId)), this.runs) : null;
  }
}
