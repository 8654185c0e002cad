import { readFileSync, rmSync } from 'node:fs';
import { readBounded } from './bounded-read.js';

let sandboxSeconds = 0;

/**
 * Adds the CPU time a sandboxed command reported (the output of POSIX
 * \`times\`: the shell's own line, then its children's) and removes the file.
 * A missing or malformed file (a command killed first) adds nothing.
 */
export function recordSandboxCpu(path: string): void {
  try {
    const lines = readBounded(path, 4096).toString('utf8').trim().split('\n');
    const secs = (lines.at(-1) ?? '').split(/\s+/).map((t) => {
      const m = /^(\d+)m([\d.]+)s$/.exec(t);
      return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
    });
    if (secs.length === 2 && secs.every(Number.isFinite)) sandboxSeconds += secs[0]! + secs[1]!;
  } catch {
    /* no report: nothing to add */
  }
  rmSync(path, { force: true });
}

/** Adds CPU seconds a kept sandbox's supervisor reported for one command. */
export function addSandboxCpu(seconds: number): void {
  if (Number.isFinite(seconds) && seconds > 0) sandboxSeconds += seconds;
}

let helperSeconds = 0;

/** The process helper's CPU with its reaped children's (util/spawner.ts), as it last reported it. */
export function setHelperCpu(seconds: number): void {
  if (Number.isFinite(seconds) && seconds > helperSeconds) helperSeconds = seconds;
}

/** CPU seconds of sandboxed commands recorded so far in this process. */
export function sandboxCpuSeconds(): number {
  return sandboxSeconds;
}

/**
 * CPU seconds used by this process, its reaped children (and the process
 * helper's, util/spawner.ts), and the commands run in sandboxes (whose time
 * the kernel does not pass up through a PID namespace), from /proc/self/stat
 * and the sandbox meter.
 */
export function cpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14-17 (1-based), i.e. 11-14 here.
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return ticks / 100 + sandboxSeconds + helperSeconds;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6 + sandboxSeconds + helperSeconds;
  }
}
