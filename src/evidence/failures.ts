// A cell whose run throws (an engine gone, an environment that yields no task) must not halt a protocol of many
// hours: its failure is kept beside its run (which keeps every step it checkpointed), the chunk goes on to the next
// cell, and a later invocation tries it again, up to MAX_TRIES. Failures in a row stop the chunk: those are systemic,
// and do not count as the cells' tries.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isRecord } from '../util/guards.js';
import { writeJsonAtomic } from '../util/atomic-json.js';

/** Tries of one cell before the protocol gives up on it (until its failures file is removed). */
export const MAX_TRIES = 3;
/** Cells failing one after another that stop a chunk: the cause is likely not the cells'. */
export const FAILURES_IN_A_ROW = 2;

export interface CellFailure {
  at: string;
  message: string;
  /** One of the failures in a row that stopped a chunk: laid to a cause the cells share, not counted as the cell's try. */
  shared?: boolean;
}

/** A cell's tries that count toward MAX_TRIES: an outage that stops chunk after chunk gives no cell up. */
export const countedTries = (failures: readonly CellFailure[]): number => failures.filter((f) => !f.shared).length;

export const failuresPath = (runDir: string) => join(runDir, 'failures.json');

/** The failures kept for a cell's run (none when the file is absent or unreadable). */
export function readFailures(runDir: string): CellFailure[] {
  const path = failuresPath(runDir);
  if (!existsSync(path)) return [];
  try {
    const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return Array.isArray(data) ? data.filter((f): f is CellFailure => isRecord(f) && typeof f.message === 'string' && typeof f.at === 'string') : [];
  } catch {
    return [];
  }
}

export function recordFailure(runDir: string, message: string): CellFailure[] {
  const all = [...readFailures(runDir), { at: new Date().toISOString(), message }];
  const path = failuresPath(runDir);
  mkdirSync(dirname(path), { recursive: true });
  writeJsonAtomic(path, all, 2);
  return all;
}

/** Marks a cell's last failure as shared (see CellFailure); returns its tries that still count. */
export function markShared(runDir: string): number {
  const all = readFailures(runDir);
  if (all.length > 0) {
    all[all.length - 1] = { ...all.at(-1)!, shared: true };
    writeJsonAtomic(failuresPath(runDir), all, 2);
  }
  return countedTries(all);
}

/** A cell that finished after failing before keeps no failures. */
export function clearFailures(runDir: string): void {
  rmSync(failuresPath(runDir), { force: true });
}
