// A kept sandbox: one sandbox started for a series of commands (an agent's
// episode), its supervisor (supervisor.ts) running each command. Starting a
// sandbox costs several process starts (prlimit, bwrap, its init, setpriv, a
// shell) that each command otherwise pays; here it is paid once. The host
// keeps its own bounds: a reply that does not come within the command's time
// limit and a grace, or a reply too large, ends the sandbox, and the next
// command starts a fresh one. The verifier never uses one.
import { type ChildProcess, spawn } from 'node:child_process';
import { addSandboxCpu } from '../util/cpu.js';
import { isRecord } from '../util/guards.js';
import type { ExecRequest, ExecResult, Session } from './types.js';

/** What the supervisor is sent for one command, filled in by the runtime. */
export interface SupervisedCommand {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** The uid (and gid) the command runs as; absent: the supervisor's own. */
  uid?: number;
}

/** Time past a command's own limit before the host gives up on the supervisor's reply. */
const GRACE_MS = 10_000;
/** Time the supervisor may take to start. */
const START_MS = 30_000;

interface Pending {
  id: number;
  child: ChildProcess;
  resolve: (r: ExecResult) => void;
  timer: NodeJS.Timeout;
  maxLine: number;
}

export class KeptSandbox implements Session {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private pending: Pending | undefined;
  private buffered = '';
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Sandboxes started (the first and any restart after a failure). */
  starts = 0;

  constructor(
    private readonly argv: string[],
    private readonly fill: (req: ExecRequest) => SupervisedCommand,
    private readonly ticksPerSecond = 100,
    private readonly graceMs = GRACE_MS,
  ) {}

  exec(req: ExecRequest): Promise<ExecResult> {
    const next = this.queue.then(() => this.run(req));
    this.queue = next.catch(() => {});
    return next;
  }

  private start(): Promise<void> {
    this.starts++;
    const child = spawn(this.argv[0]!, this.argv.slice(1), { cwd: '/', env: { PATH: '/usr/bin:/bin' }, detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
    this.child = child;
    this.buffered = '';
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`the sandbox's supervisor did not start within ${START_MS / 1000} s`)), START_MS);
      let started = false;
      const fail = (err: Error) => {
        clearTimeout(timer);
        this.kill(child);
        if (!started) reject(err);
      };
      child.on('error', (err) => fail(err));
      child.stdin!.on('error', () => {});
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (d: string) => {
        this.buffered += d;
        if (this.pending && this.buffered.length > this.pending.maxLine) return this.abandon(child, 'its reply was over the size limit');
        let nl: number;
        while ((nl = this.buffered.indexOf('\n')) >= 0) {
          const line = this.buffered.slice(0, nl);
          this.buffered = this.buffered.slice(nl + 1);
          if (!started) {
            started = true;
            clearTimeout(timer);
            resolve();
            continue;
          }
          this.reply(child, line);
        }
      });
      child.on('exit', () => {
        if (this.child === child) this.child = undefined;
        if (!started) fail(new Error('the sandbox ended before its supervisor started'));
        if (this.pending?.child === child) this.settle({ killed: 'the sandbox ended during the command' });
      });
    });
  }

  private async run(req: ExecRequest): Promise<ExecResult> {
    if (this.closed) throw new Error('the kept sandbox is closed');
    const started = performance.now();
    if (!this.child) this.ready = this.start();
    try {
      await this.ready;
    } catch (err) {
      return failed(started, err instanceof Error ? err.message : String(err));
    }
    const child = this.child!;
    const maxOutputBytes = req.limits?.maxOutputBytes ?? 8 * 1024 * 1024;
    const id = ++this.seq;
    return new Promise<ExecResult>((resolve) => {
      const timer = setTimeout(() => this.abandon(child, 'the command outlived its time limit', true), req.timeoutMs + this.graceMs);
      this.pending = { id, child, resolve: (r) => resolve({ ...r, durationMs: performance.now() - started }), timer, maxLine: 2 * maxOutputBytes + 65536 };
      const msg = { id, ...this.fill(req), timeoutMs: req.timeoutMs, maxOutputBytes, ...(req.stdin !== undefined ? { stdin: req.stdin } : {}) };
      child.stdin!.write(`${JSON.stringify(msg)}\n`);
    });
  }

  private reply(child: ChildProcess, line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return this.abandon(child, 'its reply could not be read');
    }
    if (!isRecord(parsed)) return this.abandon(child, 'its reply could not be read');
    const r = parsed;
    if (!this.pending || r.id !== this.pending.id) return this.abandon(child, 'it replied out of turn');
    if (typeof r.cpuTicks === 'number') addSandboxCpu(r.cpuTicks / this.ticksPerSecond);
    // Something survived the kill after the command: this sandbox is not used again.
    if (r.clean === false) this.kill(child);
    this.settle({
      result: {
        exitCode: typeof r.exitCode === 'number' ? r.exitCode : null,
        signal: typeof r.signal === 'string' ? r.signal : null,
        stdout: typeof r.stdout64 === 'string' ? Buffer.from(r.stdout64, 'base64').toString('utf8') : '',
        stderr: typeof r.stderr64 === 'string' ? Buffer.from(r.stderr64, 'base64').toString('utf8') : '',
        timedOut: Boolean(r.timedOut),
        outputLimited: Boolean(r.outputLimited),
        outputBytes: Number(r.outputBytes ?? 0),
        durationMs: 0,
        ...(r.spawnError ? { spawnError: String(r.spawnError) } : {}),
      },
    });
  }

  private settle(o: { result: ExecResult } | { killed: string; timedOut?: boolean }): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    if ('result' in o) return p.resolve(o.result);
    p.resolve({
      exitCode: null,
      signal: 'SIGKILL',
      stdout: '',
      stderr: `${o.killed}\n`,
      timedOut: Boolean(o.timedOut),
      outputLimited: false,
      outputBytes: 0,
      durationMs: 0,
    });
  }

  /** Ends a sandbox that broke the protocol or its limits; the command in flight gets a killed result. */
  private abandon(child: ChildProcess, why: string, timedOut = false): void {
    this.kill(child);
    this.settle({ killed: `the sandbox was ended: ${why}`, timedOut });
  }

  private kill(child: ChildProcess): void {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    if (this.child === child) this.child = undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    const child = this.child;
    if (!child) return;
    const gone = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
    this.kill(child);
    await gone;
  }
}

function failed(started: number, why: string): ExecResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    outputLimited: false,
    outputBytes: 0,
    durationMs: performance.now() - started,
    spawnError: why,
  };
}
