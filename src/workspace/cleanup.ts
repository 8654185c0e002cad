// Workspaces are always removed: on normal exit, on Ctrl-C or SIGTERM, and,
// after a crash that ran no handler, by the next process that starts (each
// workspace directory carries the pid of the process that made it).
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCode } from '../util/errors.js';

const live = new Set<string>();
let installed = false;

function removeAll(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      /* best effort while exiting */
    }
  }
  live.clear();
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', removeAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      removeAll();
      // Leave with the conventional status for the signal.
      process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const)[signal]);
    });
  }
}

export function track(dir: string): void {
  install();
  live.add(dir);
}

export function untrack(dir: string): void {
  live.delete(dir);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM';
  }
}

/** Removes workspaces left by processes that no longer run. Returns how many. */
export function sweepOrphans(base: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return 0;
  }
  for (const name of names) {
    const m = /^ws-(\d+)-/.exec(name);
    if (!m || alive(Number(m[1]))) continue;
    rmSync(join(base, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
