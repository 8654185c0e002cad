// Copy groups at grading time (task.ts CopyGroup): fresh names for a
// group's copies, drawn for every graded run from the same pool as every
// other new test file, and the results of the copies read back. A chosen
// test's result in the copy that holds its graded version is the task's
// test; in a copy that holds a checked twin, a honeypot's; in any other copy,
// nobody's. A test the group did not choose counts in the group's home copy.
import type { TestResult, TestStatus } from '../report/index.js';
import type { CopyGroup, GradingLayout } from '../task/task.js';
import { AVA_SEP, avaStem } from './tests/defs.js';
import { freshTestPath } from './tests/names.js';

/** A twin judged in a graded run; `slot` places a copy group's twin (the check keeps those that failed on both states). */
export interface JudgedTwin {
  id: string;
  of: string;
  status: TestStatus | 'missing';
  slot?: { group: number; key: string; copy: number };
}

/** Each group's copies under fresh names, in copy order. */
export function groupCopyPaths(layout: GradingLayout, random: () => number, taken: Set<string>): string[][] {
  return (layout.groups ?? []).map((g) => g.contents.map(() => freshTestPath(g.like, layout.words, taken, random)));
}

/** The id prefix the report gives tests of `path` in this group: "path" (pytest ids go on with "::") or ava's "dirs › stem › ". */
export function groupPrefix(group: CopyGroup, path: string): string {
  if (group.avaPrefix === undefined) return path;
  const parts = group.avaPrefix.slice(0, -AVA_SEP.length).split(AVA_SEP);
  return [...parts.slice(0, -1), avaStem(path)].join(AVA_SEP) + AVA_SEP;
}

/** A result's key in its group (pytest parameters left out), from the id below the file. */
function keyOfRest(group: CopyGroup, rest: string): string {
  return group.avaPrefix === undefined ? rest.replace(/\[[^\]]*\]$/s, '') : rest;
}

/**
 * Takes the copies' results out of `results`, puts back each graded one under
 * its task id, and returns the twins judged and the results reported under
 * the group's own file, which did not exist in the run (forged).
 */
export function readGroups(results: Map<string, TestResult>, layout: GradingLayout, placed: string[][]): { twins: JudgedTwin[]; forged: string[] } {
  const twins: JudgedTwin[] = [];
  const forged: string[] = [];
  const groups = layout.groups ?? [];
  groups.forEach((group, g) => {
    const paths = placed[g] ?? [];
    if (paths.length === 0) return;
    const own = groupPrefix(group, group.like);
    const prefixes = paths.map((p) => groupPrefix(group, p));
    // pytest ids continue after the path with "::"; ava's prefixes end with their separator.
    const within = (id: string, prefix: string) => id.startsWith(prefix) && (group.avaPrefix !== undefined || id.startsWith(`${prefix}::`));
    const seen = new Map<string, TestResult>();
    for (const [id, r] of [...results]) {
      if (within(id, own)) {
        forged.push(id);
        results.delete(id);
        continue;
      }
      const copy = prefixes.findIndex((p) => within(id, p));
      if (copy < 0) continue;
      results.delete(id);
      const rest = id.slice(prefixes[copy]!.length);
      const key = keyOfRest(group, rest);
      const original = own + rest;
      const graded = group.graded[key];
      if (graded === undefined ? copy === group.home : copy === graded) {
        seen.set(original, { ...r, id: original, ...(r.file ? { file: group.like } : {}) });
      } else if (group.decoys[key]?.includes(copy)) {
        twins.push({ id, of: original, status: r.status, slot: { group: g, key, copy } });
      }
    }
    // A checked twin that did not report at all is judged as missing, beside its original.
    for (const [key, decoys] of Object.entries(group.decoys)) {
      for (const copy of decoys) {
        if (twins.some((t) => t.slot?.group === g && t.slot.key === key && t.slot.copy === copy)) continue;
        twins.push({ id: prefixes[copy]! + key, of: own + key, status: 'missing', slot: { group: g, key, copy } });
      }
    }
    for (const [id, r] of seen) results.set(id, r);
  });
  return { twins, forged };
}
