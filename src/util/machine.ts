// How much parallel work this machine holds: CPU cores (a container's CPU
// quota counted) and memory (a container's limit counted). Workers are sized
// from them so a run neither leaves cores idle nor oversubscribes them.
import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';

/** Memory one worker may need at once: its sandboxed test run (a runner, its children) and its share of this process. */
export const MEMORY_PER_WORKER_GIB = 1.5;

export interface Machine {
  cores: number;
  memoryGiB: number;
}

function cgroupNumber(path: string): number | null {
  try {
    const text = readFileSync(path, 'utf8').trim();
    if (text === 'max') return null;
    const n = Number(text.split(/\s+/)[0]);
    return Number.isFinite(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/** Cores and memory this process may use (cgroup v2 limits where set). */
export function machine(): Machine {
  let cores = availableParallelism();
  try {
    const [quota, period] = readFileSync('/sys/fs/cgroup/cpu.max', 'utf8').trim().split(/\s+/);
    if (quota && quota !== 'max' && Number(period) > 0) cores = Math.max(1, Math.min(cores, Math.floor(Number(quota) / Number(period))));
  } catch {
    /* no cgroup v2 CPU limit */
  }
  const limit = cgroupNumber('/sys/fs/cgroup/memory.max');
  const bytes = Math.min(totalmem(), limit ?? Infinity);
  return { cores, memoryGiB: bytes / 1024 ** 3 };
}

/** Workers for sandboxed work: one per core, fewer where memory would not hold them; at least one. */
export function defaultWorkers(m: Machine = machine()): number {
  return Math.max(1, Math.min(m.cores, Math.floor((0.75 * m.memoryGiB) / MEMORY_PER_WORKER_GIB)));
}

/** The line a command prints about its workers. */
export function describeWorkers(workers: number, chosen: boolean, m: Machine = machine()): string {
  const from = `${m.cores} core${m.cores === 1 ? '' : 's'}, ${m.memoryGiB.toFixed(1)} GiB memory`;
  return chosen ? `workers: ${workers} (set by --workers; this machine: ${from})` : `workers: ${workers} (from ${from}; --workers to change)`;
}
