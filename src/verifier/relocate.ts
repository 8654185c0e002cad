// Required pytest tests run from files under names the agent never saw.
//
// Code the agent's patch puts in the test process (a pytest hook registered
// from the source module) can rewrite the result of one exact node id, e.g.
// "tests/test_calc.py::test_add", and nothing else: the canaries and the
// twins (which share only the test's name) stay honest. So for the graded run
// every test file holding a required test is renamed, in its own folder, to
// the twins' pattern with a fresh nonce (the environment's canary path says
// the command collects that pattern); its results are mapped back to the
// original ids afterwards. A hook now has only the test's name to go on, which
// the twins share, or the test's content (a hole that stays; see the red-team
// tests). A result reported under an original file name, which did not exist
// in the run, is forged.
import { randomBytes } from 'node:crypto';
import { lstatSync, renameSync } from 'node:fs';
import { posix } from 'node:path';
import type { TestRun } from '../grading/testrun.js';

export interface Relocation {
  from: string;
  to: string;
}

/**
 * One relocation per pytest file (`path.py::…` ids) among the required ids.
 * `canaryPattern` is the environment's canary path; without one (no pattern
 * known to be collected) or for other id shapes, nothing moves.
 */
export function planRelocation(required: readonly string[], canaryPattern: string | undefined, nonce = () => randomBytes(6).toString('hex')): Relocation[] {
  if (!canaryPattern?.endsWith('.py')) return [];
  const base = posix.basename(canaryPattern).replace(/canary[_-]?/i, '');
  const files = new Set(required.map((id) => id.split('::')[0]!).filter((f) => f.endsWith('.py') && !f.startsWith('/') && !f.split('/').includes('..')));
  return [...files].map((from) => ({ from, to: posix.join(posix.dirname(from), base.replaceAll('{nonce}', nonce())) }));
}

/** Renames the planned files under `root` (regular files only); returns the ones moved. */
export function relocate(root: string, plan: readonly Relocation[]): Relocation[] {
  const moved: Relocation[] = [];
  for (const r of plan) {
    const from = posix.join(root, r.from);
    let ok = false;
    try {
      ok = lstatSync(from).isFile();
    } catch {
      ok = false; // not there (e.g. a test file the bug's patch removed): nothing to move
    }
    if (!ok) continue;
    renameSync(from, posix.join(root, r.to));
    moved.push(r);
  }
  return moved;
}

/**
 * Maps results of moved files back to their original ids, in place. Returns
 * the forged ids: results under an original file name, which the run did not
 * have.
 */
export function restoreIds(run: TestRun, moved: readonly Relocation[]): string[] {
  if (moved.length === 0) return [];
  const forged: string[] = [];
  const tests = new Map<string, TestRun['tests'] extends Map<string, infer R> ? R : never>();
  for (const [id, result] of run.tests) {
    if (moved.some((r) => id.startsWith(`${r.from}::`))) {
      forged.push(id);
      continue;
    }
    const r = moved.find((m) => id.startsWith(`${m.to}::`));
    if (!r) {
      tests.set(id, result);
      continue;
    }
    const original = r.from + id.slice(r.to.length);
    tests.set(original, { ...result, id: original, ...(result.file === r.to ? { file: r.from } : {}) });
  }
  run.tests.clear();
  for (const [id, result] of tests) run.tests.set(id, result);
  return forged;
}
