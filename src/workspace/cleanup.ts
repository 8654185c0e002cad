// Workspaces are always removed: on normal exit, on Ctrl-C or SIGTERM, and,
// after a crash that ran no handler, by the next process that starts (each
// workspace directory carries the pid of the process that made it).
import { readdirSync, rmdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { installSignalExit } from '../util/signals.js';
import { processAlive } from '../util/process.js';

const live = new Set<string>();
let installed = false;

/** Base folders of workspaces (in memory, workspace/base.ts): removed at exit when nothing is left in them. */
const bases = new Set<string>();

function removeAll(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      /* best effort while exiting */
    }
  }
  live.clear();
  for (const dir of bases) {
    try {
      rmdirSync(dir); // fails, as it should, while another process's workspaces are there
    } catch {
      /* not empty, or gone */
    }
  }
}

export function trackBase(dir: string): void {
  install();
  bases.add(dir);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', removeAll);
  // A stop signal ends the process through process.exit, which runs removeAll (unless a command intercepts it to finish first).
  installSignalExit();
}

export function track(dir: string): void {
  install();
  live.add(dir);
}

export function untrack(dir: string): void {
  live.delete(dir);
}

const removing = new Set<Promise<void>>();

/**
 * Removes a tracked directory in the background (off the caller's path),
 * once `after` settles; the exit handler still removes it if the process ends
 * first.
 */
export function removeLater(dir: string, after: Promise<unknown> = Promise.resolve()): void {
  const done: Promise<void> = after
    .catch(() => {})
    .then(() => rm(dir, { recursive: true, force: true, maxRetries: 2 }))
    .then(() => untrack(dir))
    .catch(() => {
      /* left for the exit handler or the next process's sweep */
    })
    .finally(() => removing.delete(done));
  removing.add(done);
}

/** Resolves once every background removal started so far has ended. */
export async function removalsSettled(): Promise<void> {
  while (removing.size) await Promise.all([...removing]);
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
    if (!m || processAlive(Number(m[1]))) continue;
    rmSync(join(base, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
