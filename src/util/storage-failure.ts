// Failures of the disk under the data directory (read-only, full, no
// permission, a damaged store): one line with the cause and a fix, never a
// stack trace. Node's system errors and SQLite's carry a code; the code, not
// the message, decides.
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { errnoCode, StateError } from './errors.js';
import { isRecord } from './guards.js';

const READ_ONLY = new Set(['EROFS', 'SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'SQLITE_READONLY_DIRECTORY', 'SQLITE_READONLY_CANTINIT']);
const FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const DENIED = new Set(['EACCES', 'EPERM', 'SQLITE_PERM', 'SQLITE_AUTH']);
const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_VTAB']);
const IO = new Set(['EIO', 'SQLITE_IOERR', 'SQLITE_CANTOPEN']);
/** Codes whose cause is plain without asking the disk. */
const KNOWN = [READ_ONLY, FULL, DENIED, DAMAGED];

/**
 * Whether an error is the data directory's disk failing (nothing a retry of
 * the same work would fix): work loops stop on it instead of counting it as
 * one failure. Only a failure under `dataDir` (or the store's, which names no
 * path) counts: an agent can fill its own workspace's disk or make its files
 * unreadable, and that must stay one rollout's failure, never stop a run.
 */
export function isStorageFailure(err: unknown, dataDir: string): boolean {
  const code = errnoCode(err) ?? '';
  if (!([READ_ONLY, FULL, DAMAGED].some((s) => s.has(code)) || code.startsWith('SQLITE_IOERR'))) return false;
  const path = pathOf(err);
  return path === undefined || isWithin(resolve(dataDir), resolve(path));
}

const isWithin = (dir: string, path: string) => path === dir || path.startsWith(`${dir}${sep}`);

/** The file the failed call wrote: a copy's destination (its `path` is the source), else its path. */
function pathOf(err: unknown): string | undefined {
  if (!isRecord(err)) return undefined;
  if (typeof err.dest === 'string') return err.dest;
  return typeof err.path === 'string' ? err.path : undefined;
}

/**
 * The user's message for a storage failure, or null for any other error.
 * `dataDir` is the data directory the command used; `store` its SQLite file.
 */
export function storageFailure(err: unknown, dataDir: string, store: string): StateError | null {
  const given = errnoCode(err);
  if (given === undefined) return null;
  let code: string = given;
  // A file that could not be opened or made (ENOENT after a failed mkdir, SQLite's CANTOPEN) often hides the disk's own refusal: ask the disk.
  // SQLite says read-only for a folder it may not write too: the probe tells a read-only disk from a missing permission.
  if (!KNOWN.some((set) => set.has(code)) || code.startsWith('SQLITE_READONLY')) {
    const refusal = probeWrite(dataDir);
    if (refusal === undefined) return code.startsWith('SQLITE_READONLY') ? readOnly(store, code) : IO.has(code) ? ioFailure(code, pathOf(err) ?? store) : null;
    code = refusal;
    err = undefined;
  }
  const path = pathOf(err) ?? (code.startsWith('SQLITE_') ? store : dataDir);
  const elsewhere = `pass --data-dir (or set FROGNANO_HOME) to a folder on a writable disk`;
  if (READ_ONLY.has(code)) return readOnly(path, code);
  if (FULL.has(code))
    return new StateError(
      `cannot write ${path}: the disk is full (${code})`,
      isWithin(resolve(dataDir), resolve(path))
        ? `free space (frognano gc --keep-runs N removes old runs' attempts and task banks; --keep-mb M trims trajectories), or ${elsewhere}`
        : `free space on the file system holding ${path}`,
    );
  if (DENIED.has(code))
    return new StateError(`cannot write ${path}: permission denied (${code})`, `give your user write access to ${dataDir}, or ${elsewhere}`);
  if (DAMAGED.has(code))
    return new StateError(
      `the store ${store} is damaged (${code}: ${err instanceof Error ? err.message : ''})`,
      `move it aside (mv ${store} ${store}.damaged); the next command starts an empty store: runs under runs/ keep their state and checkpoints, environments you added need env add again`,
    );
  if (IO.has(code) || code.startsWith('SQLITE_IOERR')) return ioFailure(code, path);
  return null;
}

function readOnly(path: string, code: string): StateError {
  return new StateError(
    `cannot write ${path}: the file system is read-only (${code})`,
    'pass --data-dir (or set FROGNANO_HOME) to a folder on a writable disk',
  );
}

function ioFailure(code: string, path: string): StateError {
  return new StateError(
    `the disk failed while reading or writing ${path} (${code})`,
    'check the disk, or pass --data-dir (or set FROGNANO_HOME) to a folder on another disk',
  );
}

/** Writes and removes a small file in the data directory: the code of the disk's refusal, or undefined when it took the write. */
function probeWrite(dataDir: string): string | undefined {
  const probe = join(dataDir, `.write-probe-${process.pid}`);
  try {
    writeFileSync(probe, Buffer.alloc(4096));
    return undefined;
  } catch (e) {
    const code = errnoCode(e);
    return code === 'ENOENT' ? undefined : code;
  } finally {
    rmSync(probe, { force: true });
  }
}
