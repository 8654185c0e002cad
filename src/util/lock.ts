// One writer per run: a lock file in the run's folder naming its holder (pid,
// host, command, start, and the boot and process start where /proc tells). A
// lock whose holder is gone (a dead or reused pid, a restarted machine, or no
// heartbeat for STALE_MS from another host) is taken over, and said so.
import { hostname } from 'node:os';
import { linkSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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
  /** The machine's boot and the holder's start, where /proc tells (absent elsewhere and in older locks). */
  boot?: string;
  start?: string;
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

/** Locks this process holds: a lock naming this pid that is not among them was left by an earlier process (a restarted container reuses pids). */
const held = new Set<string>();

/** This boot and a process's start (in clock ticks since boot), where /proc tells: a pid reused after a restart or by another process is not the holder. */
function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

function startTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The lock's holder, or null when the folder is not locked (or the lock file cannot be read as one). */
export function lockHolder(dir: string): LockHolder | null {
  return parseHolder(readLock(join(dir, LOCK_FILE)));
}

function readLock(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').slice(0, 4096);
  } catch {
    return null;
  }
}

function parseHolder(text: string | null): LockHolder | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text ?? '');
  } catch {
    return null;
  }
  if (!isRecord(raw) || typeof raw.pid !== 'number' || typeof raw.host !== 'string') return null;
  const extra = { ...(typeof raw.boot === 'string' ? { boot: raw.boot } : {}), ...(typeof raw.start === 'string' ? { start: raw.start } : {}) };
  return { pid: raw.pid, host: raw.host, command: String(raw.command ?? 'frognano'), since: String(raw.since ?? '?'), ...extra };
}

/** Why a lock no longer holds (its holder died, or went silent on another host), or null while it does. */
function staleness(path: string, h: LockHolder): string | null {
  if (h.host === hostname()) {
    if (h.boot && bootId() && h.boot !== bootId()) return 'the machine has restarted since it was taken';
    if (h.pid === process.pid && !held.has(path)) return `it was left by an earlier process with this pid, ${h.pid}`;
    if (!processAlive(h.pid)) return `its holder, pid ${h.pid}, is no longer running`;
    if (h.start && startTicks(h.pid) !== undefined && startTicks(h.pid) !== h.start) return `pid ${h.pid} now belongs to another process`;
    return null;
  }
  const age = ageMs(path);
  if (age === null) return 'it is gone';
  return age > STALE_MS ? `its holder on ${h.host} has not touched it for ${(age / 60_000).toFixed(0)} min` : null;
}

function ageMs(path: string): number | null {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** The live holder of a folder's lock, or null when it is free or stale (read-only commands and gc ask this). */
export function liveHolder(dir: string): LockHolder | null {
  const path = join(dir, LOCK_FILE);
  const h = parseHolder(readLock(path));
  return h && staleness(path, h) === null ? h : null;
}

/**
 * Takes the lock of `dir` for this process, or throws LockHeldError naming the
 * live holder. `what` names the folder for messages ("run \"default\"").
 */
export function acquireLock(dir: string, what: string, command: string, say: (line: string) => void = () => {}): HeldLock {
  const path = join(dir, LOCK_FILE);
  const mine = join(dir, `${LOCK_FILE}.new-${process.pid}`);
  const boot = bootId();
  const start = startTicks(process.pid);
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    command,
    since: new Date().toISOString().slice(0, 19).replace('T', ' '),
    ...(boot ? { boot } : {}),
    ...(start ? { start } : {}),
  };
  // Written whole beside the lock, then linked into place: the lock is never seen half written, and the link fails if one exists.
  writeFileSync(mine, JSON.stringify(holder));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, path);
        held.add(path);
        return hold(path, holder);
      } catch (err) {
        if (errnoCode(err) !== 'EEXIST') throw err;
      }
      const text = readLock(path);
      const other = parseHolder(text);
      if (other && held.has(path)) throw new LockHeldError(what, other);
      // A lock that cannot be read is garbage once it is old (locks are linked in whole); a young one may be mid-takeover.
      const why = other ? staleness(path, other) : (ageMs(path) ?? 0) > 10_000 ? 'it cannot be read' : null;
      if (why === null) throw other ? new LockHeldError(what, other) : new StateError(`${what}: its lock ${path} is being taken`, 'try again');
      takeOver(path, text, () => say(`${what}: took over a stale lock (${why}${other ? `; it was held by ${describeHolder(other)}` : ''})`));
    }
  } finally {
    rmSync(mine, { force: true });
  }
  const other = lockHolder(dir);
  if (other) throw new LockHeldError(what, other);
  throw new UserError(`${what}: its lock ${path} could not be taken`, 'try again');
}

/** Moves the stale lock aside; one that changed since it was judged (another process took it over meanwhile) is put back. */
function takeOver(path: string, judged: string | null, said: () => void): void {
  const aside = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // another process moved it first
  }
  if (readLock(aside) === judged) said();
  else {
    try {
      linkSync(aside, path);
    } catch {
      /* a newer lock is in place already */
    }
  }
  rmSync(aside, { force: true });
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
    held.delete(path);
    // Only our own lock is removed: one taken over by another process after a long pause stays.
    const now = parseHolder(readLock(path));
    if (now?.pid === holder.pid && now.host === holder.host && now.since === holder.since) rmSync(path, { force: true });
  };
  process.on('exit', release);
  return { holder, release };
}
