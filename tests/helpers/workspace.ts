import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Runtime } from '../../src/runtime/types.js';
import { Workspace } from '../../src/workspace/workspace.js';

// Every temporary directory a test file made goes when its process exits
// (node --test runs each file in a process of its own): a suite run used to
// leave a few hundred behind.
const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'fn-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A snapshot directory holding the given files. */
export function makeSnapshot(files: Record<string, string>): string {
  const dir = tempDir('fn-snap-');
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

export function makeWorkspace(runtime: Runtime, files: Record<string, string> = { 'README.md': 'hello\n' }, baseDir = tempDir('fn-base-')) {
  return Workspace.create({ snapshot: makeSnapshot(files), layers: [], runtime, baseDir });
}

/** Pids of live processes owned by a uid (zombies excluded). */
export function processesOf(uid: number): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const u = /^Uid:\s+(\d+)/m.exec(status);
      const state = /^State:\s+(\w)/m.exec(status);
      if (u && Number(u[1]) === uid && state?.[1] !== 'Z') pids.push(Number(pid));
    } catch {
      /* exited */
    }
  }
  return pids;
}

export async function waitFor(pred: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return pred();
}
