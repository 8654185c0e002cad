// The reference fix as files: what each file the fix touches holds once it is
// applied to the broken state (the oracle writes them; exports ship them).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { addEverything, git } from '../util/git.js';
import type { Task } from './task.js';

/** A file as the reference fix leaves it; content null: the fix deletes it. */
export interface FixedFile {
  path: string;
  content: string | null;
}

/** Both sides of every file header (either prefix order: reversed patches say "b/x a/x"). */
function pathsOf(patch: string): string[] {
  return [...patch.matchAll(/^diff --git [ab]\/(.+?) [ab]\/(.+)$/gm)].flatMap((m) => [m[1]!, m[2]!]);
}

/**
 * The content of each file the fix touches, computed by applying the fix to
 * the file as the agent's workspace has it (the snapshot with the bug applied).
 */
export async function referenceFiles(task: Task, snapshot: string): Promise<FixedFile[]> {
  const dir = mkdtempSync(join(tmpdir(), 'fn-oracle-'));
  try {
    for (const rel of new Set([...pathsOf(task.bugPatch), ...pathsOf(task.fixPatch)])) {
      if (!existsSync(join(snapshot, rel))) continue;
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      cpSync(join(snapshot, rel), join(dir, rel));
    }
    await git(['init', '-q', '--template='], { cwd: dir });
    if (task.bugPatch.trim()) await git(['apply', '--whitespace=nowarn', '-'], { cwd: dir, input: task.bugPatch });
    await git(addEverything(), { cwd: dir });
    await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', 'broken'], { cwd: dir });
    await git(['apply', '--whitespace=nowarn', '-'], { cwd: dir, input: task.fixPatch });
    await git(addEverything(), { cwd: dir });
    // What the fix changed, as git sees it: every path, deletions included, no rename pairing.
    const changed = (await git(['diff', '--cached', '--name-only', '--no-renames', '-z', 'HEAD'], { cwd: dir })).split('\0').filter(Boolean).sort();
    return changed.map((path) => ({ path, content: existsSync(join(dir, path)) ? readFileSync(join(dir, path), 'utf8') : null }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
