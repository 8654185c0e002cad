// A new task's reach for the current policy, before any rollout: the chance
// that the fix is among the policy's first K repair choices. The curriculum
// knows each synthesized task's fix (TaskPilot made the bug), the policy does
// not; replaying the agent's opening (test run, listing, reads) up to its
// first choice gives every candidate's probability, and the candidate that
// turns the changed lines back into the fix patch's is the fix. A task the
// policy almost surely cannot reach (a removal bug no candidate undoes, or a
// fix it would try with a chance of 1 in 100) is turned away without paying
// an admission probe of four failing rollouts, the costliest kind.
import type { Opening } from '../policy/agent.js';
import { applyRepair } from '../policy/candidates.js';
import type { LinearPolicy } from '../policy/linear.js';
import { fileDiff } from '../util/diff.js';

/** Below this reach a task is rejected without a probe: four rollouts find a success less than ~8% of the time. */
export const REACH_FLOOR = 0.02;

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

/** The policy's reach on a task from its opening; null when it cannot be told (several files changed). */
export function reachOf(policy: LinearPolicy, opening: Opening, fixPatch: string, k: number, random: () => number): number | null {
  const fix = fixIndices(opening, fixPatch);
  if (fix === null) return null;
  return reachWithin(policy.probabilities(opening.feats), fix, k, random);
}
