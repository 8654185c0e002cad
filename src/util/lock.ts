// One writer per run: a lock file in the run's folder naming its holder (pid,
// host, command, start). A lock whose holder is gone (a dead pid on this host,
// or no heartbeat for STALE_MS from another host) is taken over, and said so.
import { hostname } from 'node:os';
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCode, StateError, UserError } from './errors.js';
import { isRecord } from './guards.js';
import { processAlive } from './process.js';

export const LOCK_FILE = 'lock';
/** How often a holder touches its lock, and how old a lock from another host must be to count as abandoned. */
const HEARTBEAT_MS = 30_000;
const STALE_MS = 5 * 60_000;

export interface LockHolder {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export interface HeldLock {
  readonly holder: LockHolder;
  release(): void;
}

export class LockHeldError extends StateError {
  constructor(
    what: string,
    readonly holder: LockHolder,
  ) {
    super(
      `${what} is in use by ${describeHolder(holder)}`,
      `wait for it to finish or stop it (kill ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}); a lock left by a process that died is taken over by itself`,
    );
    this.name = 'LockHeldError';
  }
}

export function describeHolder(h: LockHolder): string {
  return `"${h.command}" (pid ${h.pid} on ${h.host}, since ${h.since})`;
}

/** The lock's holder, or null when the folder is not locked (or the lock file cannot be read as one). */
export function lockHolder(dir: string): LockHolder | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8').slice(0, 4096));
  } catch {
    return null;
  }
  if (!isRecord(raw) || typeof raw.pid !== 'number' || typeof raw.host !== 'string') return null;
  return { pid: raw.pid, host: raw.host, command: String(raw.command ?? 'frognano'), since: String(raw.since ?? '?') };
}

/** Why a lock no longer holds (its holder died, or went silent on another host), or null while it does. */
function staleness(dir: string, h: LockHolder): string | null {
  if (h.host === hostname()) return processAlive(h.pid) ? null : `its holder, pid ${h.pid}, is no longer running`;
  let age: number;
  try {
    age = Date.now() - statSync(join(dir, LOCK_FILE)).mtimeMs;
  } catch {
    return 'it is gone';
  }
  return age > STALE_MS ? `its holder on ${h.host} has not touched it for ${(age / 60_000).toFixed(0)} min` : null;
}

/** The live holder of a folder's lock, or null when it is free or stale (read-only commands and gc ask this). */
export function liveHolder(dir: string): LockHolder | null {
  const h = lockHolder(dir);
  return h && staleness(dir, h) === null ? h : null;
}

/**
 * Takes the lock of `dir` for this process, or throws LockHeldError naming the
 * live holder. `what` names the folder for messages ("run \"default\"").
 */
export function acquireLock(dir: string, what: string, command: string, say: (line: string) => void = () => {}): HeldLock {
  const path = join(dir, LOCK_FILE);
  const holder: LockHolder = { pid: process.pid, host: hostname(), command, since: new Date().toISOString().slice(0, 19).replace('T', ' ') };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
      const other = lockHolder(dir);
      if (other && other.pid === process.pid && other.host === holder.host) throw new LockHeldError(what, other);
      const why = other ? staleness(dir, other) : 'it cannot be read';
      if (why === null) throw new LockHeldError(what, other!);
      // Moved aside first, so two processes taking over the same stale lock cannot both win.
      const aside = `${path}.stale-${process.pid}`;
      try {
        renameSync(path, aside);
        rmSync(aside, { force: true });
        say(`${what}: took over a stale lock (${why}${other ? `; it was held by ${describeHolder(other)}` : ''})`);
      } catch {
        /* another process moved it first: try again */
      }
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(holder));
    } finally {
      closeSync(fd);
    }
    return hold(path, holder);
  }
  const other = lockHolder(dir);
  if (other) throw new LockHeldError(what, other);
  throw new UserError(`${what}: its lock ${path} could not be taken`, 'try again');
}

function hold(path: string, holder: LockHolder): HeldLock {
  const beat = setInterval(() => {
    const t = new Date();
    try {
      utimesSync(path, t, t);
    } catch {
      /* gone or read-only now: the next command reports it */
    }
  }, HEARTBEAT_MS);
  beat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(beat);
    process.off('exit', release);
    // Only our own lock is removed: one taken over by another process after a long pause stays.
    try {
      const now = JSON.parse(readFileSync(path, 'utf8')) as unknown;
      if (isRecord(now) && now.pid === holder.pid && now.host === holder.host) rmSync(path, { force: true });
    } catch {
      /* gone already */
    }
  };
  process.on('exit', release);
  return { holder, release };
}
