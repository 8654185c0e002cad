// Combination: merge 2 to 4 validated bugs of one environment into one task,
// the main difficulty knob. Bugs combine only when their edits apply cleanly
// together (different sites); the merged change is validated like any other.
import type { BugEdit, Task } from '../task/task.js';
import { deriveSeed, rng, shuffle } from '../util/rng.js';
import type { Candidate } from './candidate.js';

type Single = { task: Task; files: Candidate['files']; edits: BugEdit[] };

/**
 * Applies each bug's file change on top of the others: possible when, in each
 * file, the bugs change disjoint line ranges of the same original.
 */
export function mergeFiles(parts: Candidate['files'][]): Candidate['files'] | null {
  const merged: Candidate['files'] = {};
  for (const files of parts) {
    for (const [rel, { before, after }] of Object.entries(files)) {
      const cur = merged[rel];
      if (!cur) {
        merged[rel] = { before, after };
        continue;
      }
      if (cur.before !== before) return null;
      const next = overlay(before, cur.after, after);
      if (next === null) return null;
      merged[rel] = { before, after: next };
    }
  }
  return merged;
}

/** The changed line range of `after` against `base` as [start, endBase, replacement]. */
function change(base: string[], after: string[]): [number, number, string[]] {
  let s = 0;
  while (s < base.length && s < after.length && base[s] === after[s]) s++;
  let e = 0;
  while (e < base.length - s && e < after.length - s && base[base.length - 1 - e] === after[after.length - 1 - e]) e++;
  return [s, base.length - e, after.slice(s, after.length - e)];
}

function overlay(base: string, a: string, b: string): string | null {
  const lines = base.split('\n');
  const ca = change(lines, a.split('\n'));
  const cb = change(lines, b.split('\n'));
  // Disjoint with at least one untouched line between them.
  if (!(ca[1] < cb[0] || cb[1] < ca[0])) return null;
  const [first, second] = ca[0] < cb[0] ? [ca, cb] : [cb, ca];
  const out = [...lines.slice(0, first[0]), ...first[2], ...lines.slice(first[1], second[0]), ...second[2], ...lines.slice(second[1])];
  return out.join('\n');
}

export function combineCandidates(singles: Single[], opts: { n: number; seed: number; salt: string }): Candidate[] {
  if (singles.length < 2) return [];
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < opts.n * 3 && out.length < opts.n; i++) {
    const seed = deriveSeed(opts.seed, opts.salt, 'combine', i);
    const random = rng(seed);
    const k = Math.min(singles.length, 2 + Math.floor(random() * 3));
    const chosen = shuffle(singles, random)
      .slice(0, k)
      .sort((a, b) => a.task.id.localeCompare(b.task.id));
    const key = chosen.map((s) => s.task.id).join('+');
    if (seen.has(key)) continue;
    seen.add(key);
    const files = mergeFiles(chosen.map((s) => s.files));
    if (!files) continue;
    out.push({
      env: chosen[0]!.task.env.name,
      strategy: 'combine',
      operators: [`combine×${k}`],
      edits: chosen.flatMap((s) => s.edits),
      seeds: [seed],
      files,
      parents: chosen.map((s) => s.task.id),
    });
  }
  return out;
}
