// Re-validating a stored task from its directory: the bug still applies, its
// FAIL_TO_PASS tests still fail and pass again with the reference fix, and
// its PASS_TO_PASS tests still pass.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuiltEnv } from '../env/build.js';
import type { Runtime } from '../runtime/types.js';
import { originalsOf } from '../task/resolve.js';
import type { Task } from '../task/task.js';
import { addEverything, git } from '../util/git.js';
import { EnvValidator, type Verdict } from './validate.js';

export interface Revalidation {
  ok: boolean;
  verdict: Verdict;
  /** Stored labels that did not reproduce. */
  lostF2P: string[];
  lostP2P: string[];
}

export async function revalidate(
  task: Task,
  built: BuiltEnv,
  runtime: Runtime,
  dataDir: string,
  runs = { referenceRuns: 3, candidateRuns: 2 },
): Promise<Revalidation> {
  const v = new EnvValidator(built, runtime, dataDir, runs);
  const verdict = await v.validate({ bugPatch: task.bugPatch, fixPatch: task.fixPatch, originals: originalsOf(built, task.bugPatch) });
  if (!verdict.valid) return { ok: false, verdict, lostF2P: task.FAIL_TO_PASS, lostP2P: task.PASS_TO_PASS };
  const lostF2P = task.FAIL_TO_PASS.filter((id) => !verdict.f2p.includes(id));
  const lostP2P = task.PASS_TO_PASS.filter((id) => !verdict.p2p.includes(id));
  return { ok: lostF2P.length === 0 && lostP2P.length === 0, verdict, lostF2P, lostP2P };
}

/**
 * The patch in the other direction, against the snapshot. `given` is a fix
 * (it applies in reverse to the snapshot) or a bug (it applies forward).
 */
export async function reversePatch(snapshot: string, given: string, kind: 'fix' | 'bug'): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'fn-rev-')), 'repo');
  try {
    cpSync(snapshot, dir, { recursive: true });
    await git(['init', '-q', '--template='], { cwd: dir });
    await git(addEverything(), { cwd: dir });
    await git(['commit', '-qm', 'snapshot'], { cwd: dir });
    await git(['apply', ...(kind === 'fix' ? ['-R'] : []), '-'], { cwd: dir, input: given });
    await git(addEverything(), { cwd: dir });
    return await git(['diff', '--cached', ...(kind === 'bug' ? ['-R'] : []), '--no-color', '--no-ext-diff'], { cwd: dir });
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
}
