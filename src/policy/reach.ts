// A task's reach for the current policy before any rollout: the chance the fix is among its first K repair choices,
// from the agent's opening and the known fix patch. It lets the curriculum turn away a task the policy cannot reach
// without paying a probe of failing rollouts. See docs/decisions/2026-12-02-pass-rate-figures.md.
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
 * Indices of the opening's candidates whose diff is the fix patch itself (tasks' patches are written by the same
 * fileDiff, so equal diffs mean equal results). Null when the patch changes several files.
 */
export function fixIndices(opening: Opening, fixPatch: string): number[] | null {
  const file = patchedFile(fixPatch);
  if (!file) return null;
  return opening.cands.flatMap(({ r, text }, k) => (r.file === file && fileDiff(file, text, applyRepair(text, r)) === fixPatch ? [k] : []));
}

/** The chance that one of `fix` is among k distinct draws from `probs` (the agent never tries a repair twice), by Monte Carlo. */
export function reachWithin(probs: number[], fix: number[], k: number, random: () => number, runs = 200): number {
  if (fix.length === 0) return 0;
  const isFix = new Set(fix);
  let hits = 0;
  for (let r = 0; r < runs; r++) {
    const w = [...probs];
    let total = w.reduce((a, b) => a + b, 0);
    for (let j = 0; j < k && total > 0; j++) {
      let u = random() * total,
        c = 0;
      while (c < w.length - 1 && (u -= w[c]!) > 0) c++;
      if (isFix.has(c)) {
        hits++;
        break;
      }
      total -= w[c]!;
      w[c] = 0;
    }
  }
  return hits / runs;
}

/** Monte Carlo draws per task for a reach read again after updates: enough that its changes are not draw noise. */
export const REACH_RUNS = 1000;

/**
 * Tasks' openings and fix candidates, kept: openings do not depend on the weights, so a later reach costs a softmax
 * and the same seeded draws, and differences come from the policy.
 */
export class Openings {
  private readonly made = new Map<string, { opening: Opening; fix: number[] }>();

  constructor(
    private readonly seed: number | string,
    private readonly k: number,
    private readonly runs = REACH_RUNS,
  ) {}

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
