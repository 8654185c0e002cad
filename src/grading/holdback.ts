// Held-back tests: where a task has several failing tests, some are removed
// from the agent's copy of their files and used only in grading. Code that
// returns the visible tests' expected values for their inputs, instead of
// fixing the bug, then fails the tests it never saw. A test is held back
// whole (a pytest function with all its parameters); at least one failing
// test always stays visible.
import { writeFileSync, lstatSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentSpec } from '../env/spec.js';
import { shuffle } from '../util/rng.js';
import { baseTestId, idStyle, indexDefs, type TestDef } from './tests/defs.js';
import { editTests } from './tests/edit.js';
import { projectTestFiles } from './tests/project.js';

/** The failing tests to hold back: about a third of the definitions they come from, none when there is only one. */
export async function chooseHeldBack(snapshot: string, spec: EnvironmentSpec, f2p: readonly string[], random: () => number): Promise<string[]> {
  const style = idStyle(spec.test.report.format, spec.language);
  const index = indexDefs(await projectTestFiles(snapshot, spec, f2p), style);
  const units = new Map<TestDef, string[]>();
  let unlocated = 0;
  for (const id of f2p) {
    const def = index.get(baseTestId(id, style));
    if (!def) unlocated++;
    else units.set(def, [...(units.get(def) ?? []), id]);
  }
  const total = units.size + unlocated;
  if (total < 2 || units.size === 0) return [];
  const k = Math.min(units.size, total - 1, Math.max(1, Math.floor(total / 3)));
  return shuffle([...units.values()], random)
    .slice(0, k)
    .flat()
    .sort();
}

/** Test files without the held-back tests: path to new content. */
export async function withoutHeldBack(snapshot: string, spec: EnvironmentSpec, heldBack: readonly string[]): Promise<Record<string, string>> {
  const style = idStyle(spec.test.report.format, spec.language);
  const files = await projectTestFiles(snapshot, spec, heldBack);
  const index = indexDefs(files, style);
  const out: Record<string, string> = {};
  for (const file of files) {
    const gone = new Map<TestDef, null>();
    for (const id of heldBack) {
      const def = index.get(baseTestId(id, style));
      if (def?.file === file.rel) gone.set(def, null);
    }
    if (gone.size) out[file.rel] = editTests(file, gone);
  }
  return out;
}

/** Writes new contents over files of a work tree, keeping their times (nothing in them says they were edited). */
export function rewriteKeepingTimes(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    const st = lstatSync(path);
    if (!st.isFile()) continue;
    writeFileSync(path, content);
    utimesSync(path, st.atime, st.mtime);
  }
}
