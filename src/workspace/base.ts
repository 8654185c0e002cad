// Where a data directory's workspaces are made. Copying a workspace, removing
// it and git's work in it are file-system calls by the hundred per rollout; in
// memory (tmpfs) they cost about a fifth of what they cost on this machine's
// disk. Only for small environments and where /dev/shm has room, since the
// pool keeps copies of each image; FROGNANO_WORKSPACES=disk keeps them on disk,
// FROGNANO_WORKSPACES=DIR puts them in DIR. See
// docs/decisions/2026-12-05-inner-loop-floor.md.
import { createHash } from 'node:crypto';
import { accessSync, constants, lstatSync, readdirSync, rmdirSync, statfsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sweepOrphans, trackBase } from './cleanup.js';

/** The memory file system workspaces go to when it has room. */
export const MEMORY_ROOT = '/dev/shm';
/** Environments whose source is larger than this keep their workspaces on disk. */
export const MAX_MEMORY_SNAPSHOT_BYTES = 64 * 1024 * 1024;
/** Free space the memory file system must have for workspaces to go there. */
export const MIN_MEMORY_FREE_BYTES = 4 * 1024 * 1024 * 1024;

/** Each choice made once per process: it is asked for every workspace, and the file systems' checks need not be. */
const chosen = new Map<string, string>();
/** Memory roots already swept of what killed processes left (once per process). */
const sweptRoots = new Set<string>();

/** Bytes of the files under `dir`, counted until `limit` is passed (then limit + 1). */
export function treeBytes(dir: string, limit: number): number {
  let total = 0;
  const stack = [dir];
  while (stack.length && total <= limit) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) total += lstatSync(p).size;
      if (total > limit) return limit + 1;
    }
  }
  return total;
}

function memoryHasRoom(root: string, minFree: number): boolean {
  try {
    if (!statSync(root).isDirectory()) return false;
    accessSync(root, constants.W_OK);
    const fs = statfsSync(root);
    return fs.bavail * fs.bsize >= minFree;
  } catch {
    return false;
  }
}

export interface BaseOptions {
  /** FROGNANO_WORKSPACES by default. */
  setting?: string | undefined;
  memoryRoot?: string;
  maxSnapshotBytes?: number;
  minFreeBytes?: number;
}

/** The directory to make `snapshot`'s workspaces in, for the data directory `dataDir`. */
export function workspaceBase(dataDir: string, snapshot: string, o: BaseOptions = {}): string {
  const setting = 'setting' in o ? o.setting : process.env.FROGNANO_WORKSPACES;
  const key = JSON.stringify([dataDir, snapshot, setting, o.memoryRoot, o.maxSnapshotBytes, o.minFreeBytes]);
  let base = chosen.get(key);
  if (base === undefined) chosen.set(key, (base = choose(dataDir, snapshot, setting, o)));
  return base;
}

function choose(dataDir: string, snapshot: string, setting: string | undefined, o: BaseOptions): string {
  const onDisk = join(dataDir, 'tmp');
  if (setting === 'disk') return onDisk;
  if (setting && setting !== 'memory') return resolve(setting);
  const root = o.memoryRoot ?? MEMORY_ROOT;
  const max = o.maxSnapshotBytes ?? MAX_MEMORY_SNAPSHOT_BYTES;
  if (!memoryHasRoom(root, o.minFreeBytes ?? MIN_MEMORY_FREE_BYTES)) return onDisk;
  if (treeBytes(snapshot, max) > max) return onDisk;
  // One folder per user and data directory: orphans are swept per folder, by the pid in their names.
  const tag = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12);
  const prefix = `frognano-${process.getuid?.() ?? 0}-`;
  const base = join(root, prefix + tag);
  trackBase(base); // removed at exit once empty: no folder per data directory left in memory
  if (!sweptRoots.has(root)) {
    sweptRoots.add(root);
    sweepMemory(root, prefix);
  }
  return base;
}

/**
 * Workspaces that killed processes left in memory, under any data
 * directory's folder (a data directory may never be used again): removed by
 * the pid in their names, and the folders that are then empty.
 */
export function sweepMemory(root: string, prefix: string): number {
  let removed = 0;
  for (const name of readdirSync(root)) {
    if (!name.startsWith(prefix)) continue;
    const dir = join(root, name);
    try {
      removed += sweepOrphans(dir);
      rmdirSync(dir);
    } catch {
      /* in use by a live process, or gone */
    }
  }
  return removed;
}
