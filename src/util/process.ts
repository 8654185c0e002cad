// Runs one process with a wall-clock timeout that kills its whole process
// group and an output cap that stops reading (and kills) once exceeded, so a
// command printing gigabytes never grows the host's memory.
import { spawn } from 'node:child_process';

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

export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(req.argv[0]!, req.argv.slice(1), {
      cwd: req.cwd,
      env: req.env,
      detached: true, // its own process group, so a kill reaches every descendant
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const chunks: { out: Buffer[]; err: Buffer[] } = { out: [], err: [] };
    let kept = 0;
    let outputBytes = 0;
    let timedOut = false;
    let outputLimited = false;
    let spawnError: string | undefined;

    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const onData = (which: 'out' | 'err') => (buf: Buffer) => {
      outputBytes += buf.length;
      const room = req.maxOutputBytes - kept;
      if (room > 0) {
        const part = buf.length <= room ? buf : buf.subarray(0, room);
        chunks[which].push(part);
        kept += part.length;
      }
      if (outputBytes > req.maxOutputBytes && !outputLimited) {
        outputLimited = true;
        killGroup();
      }
    };
    child.stdout.on('data', onData('out'));
    child.stderr.on('data', onData('err'));
    child.stdin.on('error', () => {});
    if (req.stdin !== undefined) child.stdin.end(req.stdin);
    else child.stdin.end();

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, req.timeoutMs);

    // A descendant that escaped the group may hold the pipes open after the
    // process exits: stop waiting for it shortly after the exit.
    child.on('exit', () => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 2000).unref();
    });
    child.on('error', (err) => {
      spawnError = err.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Reap stragglers that left the pipes open in the background.
      killGroup();
      resolve({
        exitCode: code,
        signal,
        stdout: Buffer.concat(chunks.out).toString('utf8'),
        stderr: Buffer.concat(chunks.err).toString('utf8'),
        timedOut,
        outputLimited,
        outputBytes,
        durationMs: performance.now() - started,
        ...(spawnError ? { spawnError } : {}),
      });
    });
  });
}
