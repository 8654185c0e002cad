import { errnoCode } from './errors.js';
// Runs one process with a wall-clock timeout that kills its whole process
// group and an output cap that kills it once exceeded. It is started by the
// process helper (spawner.ts) where there is one. Its output goes to
// files in a private temporary directory and only the capped head is read
// back, so a command printing gigabytes never grows the host's memory.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, fstatSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawner, type HelperEvents } from './spawner.js';

export interface ProcessRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Bytes of stdout plus stderr kept; past this the process is killed. */
  maxOutputBytes: number;
  stdin?: string;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  outputLimited: boolean;
  /** Bytes the process wrote, including what was dropped past the cap. */
  outputBytes: number;
  durationMs: number;
  /** Set when the process could not be started at all. */
  spawnError?: string;
}

/** How often the output files' sizes are checked against the cap. */
const CAP_POLL_MS = 25;

/** The first `max` bytes of an open file, read at explicit offsets. */
function readHead(fd: number, size: number, max: number): Buffer {
  const buf = Buffer.alloc(Math.min(size, max));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

function sizeOf(fd: number): number {
  try {
    return fstatSync(fd).size;
  } catch {
    return 0;
  }
}

export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    // stdout and stderr go to files, not pipes: a child's write to a regular
    // file is complete when it returns, while a non-blocking pipe makes Node
    // queue what does not fit in the child's memory, lost when it aborts.
    const dir = mkdtempSync(join(tmpdir(), 'frognano-out-'));
    const outFd = openSync(join(dir, 'stdout'), 'w+', 0o600);
    const errFd = openSync(join(dir, 'stderr'), 'w+', 0o600);
    let timedOut = false;
    let outputLimited = false;
    let spawnError: string | undefined;
    let finished = false;
    const timers: NodeJS.Timeout[] = [];

    const finish = (exitCode: number | null, signal: string | null) => {
      if (finished) return;
      finished = true;
      for (const t of timers) clearTimeout(t);
      const outSize = sizeOf(outFd);
      const errSize = sizeOf(errFd);
      const outputBytes = outSize + errSize;
      if (outputBytes > req.maxOutputBytes) outputLimited = true;
      // Past the cap, stderr keeps at least half of it: the error is usually there.
      const errKeep = Math.min(errSize, Math.max(Math.floor(req.maxOutputBytes / 2), req.maxOutputBytes - outSize));
      const outKeep = Math.min(outSize, req.maxOutputBytes - errKeep);
      const stdout = readHead(outFd, outSize, outKeep).toString('utf8');
      const stderr = readHead(errFd, errSize, errKeep).toString('utf8');
      closeSync(outFd);
      closeSync(errFd);
      rmSync(dir, { recursive: true, force: true });
      resolve({
        exitCode,
        signal,
        stdout,
        stderr,
        timedOut,
        outputLimited,
        outputBytes,
        durationMs: performance.now() - started,
        ...(spawnError ? { spawnError } : {}),
      });
    };

    let pid: number | undefined;
    let killWanted = false;
    const killGroup = () => {
      killWanted = true;
      try {
        if (pid) process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const events = {
      started: (p: number) => {
        pid = p;
        if (killWanted) killGroup();
      },
      failed: (message: string) => {
        spawnError = message;
      },
      closed: (code: number | null, signal: string | null) => {
        // Reap stragglers left in the background.
        killGroup();
        finish(code, signal);
      },
    };
    const viaHelper = spawner.start(
      {
        argv: req.argv,
        cwd: req.cwd,
        env: req.env,
        out: join(dir, 'stdout'),
        err: join(dir, 'stderr'),
        ...(req.stdin !== undefined ? { stdin: req.stdin } : {}),
      },
      events,
    );
    if (!viaHelper && !spawnHere(req, outFd, errFd, events)) return;

    timers.push(
      setInterval(() => {
        if (!outputLimited && sizeOf(outFd) + sizeOf(errFd) > req.maxOutputBytes) {
          outputLimited = true;
          killGroup();
        }
      }, CAP_POLL_MS),
    );
    timers.push(
      setTimeout(() => {
        timedOut = true;
        killGroup();
      }, req.timeoutMs),
    );
  });
}

/** Starts the process from this one (no helper); false when it could not start (`events` told so and closed). */
function spawnHere(req: ProcessRequest, outFd: number, errFd: number, events: HelperEvents): boolean {
  let child: ChildProcess;
  try {
    child = spawn(req.argv[0]!, req.argv.slice(1), {
      cwd: req.cwd,
      env: req.env,
      detached: true, // its own process group, so a kill reaches every descendant
      stdio: ['pipe', outFd, errFd],
    });
  } catch (err) {
    events.failed(err instanceof Error ? err.message : String(err));
    events.closed(null, null);
    return false;
  }
  if (child.pid) events.started(child.pid);
  const stdin = child.stdin!;
  stdin.on('error', () => {});
  if (req.stdin !== undefined) stdin.end(req.stdin);
  else stdin.end();
  // A descendant that escaped the group may hold stdin open after the
  // process exits: stop waiting for it shortly after the exit.
  child.on('exit', () => {
    setTimeout(() => stdin.destroy(), 2000).unref();
  });
  child.on('error', (err) => events.failed(err.message));
  child.on('close', (code, signal) => events.closed(code, signal));
  return true;
}

/** Whether a process of this host runs under `pid` (one we may not signal still runs). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM';
  }
}
