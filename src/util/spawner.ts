// Starts processes for the host from a small helper process. Starting a
// process forks its parent, and forking costs with the parent's memory: 4 ms
// from a 50 MB Node, 19 ms from a 660 MB one, and the fork blocks the event
// loop. A training process holds 400-600 MB and starts about ten processes a
// rollout, so one small helper does the forking and the host only sends a
// line. The helper is trusted FrogNano code (plain JavaScript run by
// `node -e`); nothing a model made runs in it. Without it, processes start as
// before (FROGNANO_SPAWN_HELPER=0 asks for that).
import { type ChildProcess, spawn } from 'node:child_process';
import { Socket } from 'node:net';
import { setHelperCpu } from './cpu.js';
import { errorMessage } from './errors.js';
import { isRecord } from './guards.js';
import { PROGRAM_PRELUDE } from './program-source.js';

const HELPER_SOURCE = `${PROGRAM_PRELUDE}${String.raw`
const { spawn } = require('node:child_process');
const { openSync, closeSync } = require('node:fs');
const say = (m) => process.stdout.write(JSON.stringify(m) + '\n');
// The helper's CPU ticks with its reaped children's (utime, stime, cutime, cstime): the host counts them as its own.
function ticks() {
  try {
    const f = ownStat();
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i]), 0);
  } catch {
    return null;
  }
}

function start(req) {
  let out, err, child;
  try {
    out = openSync(req.out, 'r+');
    err = openSync(req.err, 'r+');
    child = spawn(req.argv[0], req.argv.slice(1), { cwd: req.cwd, env: req.env, detached: true, stdio: ['pipe', out, err] });
  } catch (e) {
    say({ id: req.id, error: String(e && e.message || e), exit: null, signal: null });
    return;
  } finally {
    if (out !== undefined) closeSync(out);
    if (err !== undefined) closeSync(err);
  }
  if (child.pid) say({ id: req.id, pid: child.pid });
  child.on('error', (e) => say({ id: req.id, error: e.message }));
  const stdin = child.stdin;
  stdin.on('error', () => {});
  if (req.stdin !== null) stdin.end(req.stdin);
  else stdin.end();
  // A descendant that escaped the group may hold stdin open after the exit.
  child.on('exit', () => setTimeout(() => stdin.destroy(), 2000).unref());
  child.on('close', (code, signal) => say({ id: req.id, exit: code, signal, ticks: ticks() }));
}

// A terminal's Ctrl-C reaches the whole process group: the host decides what stops
// (train finishes its step first); this helper ends when the host closes its input.
for (const s of ['SIGINT', 'SIGHUP']) process.on(s, () => {});
onStdinLines((line) => start(JSON.parse(line)));
`}`;

export interface HelperRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Files the process's stdout and stderr go to (created by the caller). */
  out: string;
  err: string;
  stdin?: string;
}

/** What the caller hears about one started process. */
export interface HelperEvents {
  started(pid: number): void;
  failed(message: string): void;
  closed(code: number | null, signal: string | null): void;
}

class Spawner {
  private child: ChildProcess | null = null;
  private broken = false;
  private next = 1;
  private readonly pending = new Map<number, HelperEvents>();
  private buffered = '';

  /** Sends a request; false when there is no helper (the caller starts the process itself). */
  start(req: HelperRequest, events: HelperEvents): boolean {
    const helper = this.helper();
    if (!helper?.stdin?.writable) return false;
    const id = this.next++;
    this.pending.set(id, events);
    helper.stdin.write(`${JSON.stringify({ id, ...req, stdin: req.stdin ?? null })}\n`);
    return true;
  }

  /** The helper's pid, once started and while it lives. */
  pid(): number | undefined {
    return this.child?.pid;
  }

  private helper(): ChildProcess | null {
    if (this.broken || process.env.FROGNANO_SPAWN_HELPER === '0') return null;
    if (this.child) return this.child;
    try {
      const child = spawn(process.execPath, ['-e', HELPER_SOURCE], { stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (d: string) => this.read(d));
      child.stdin!.on('error', () => this.lost('its input closed'));
      child.on('error', (err) => this.lost(errorMessage(err)));
      child.on('exit', (code, signal) => this.lost(`it exited (${code ?? signal})`));
      // The helper never keeps the host alive: a pending request holds its own timers.
      child.unref();
      for (const s of [child.stdin, child.stdout]) if (s instanceof Socket) s.unref();
      this.child = child;
      return child;
    } catch {
      this.broken = true;
      return null;
    }
  }

  private read(data: string): void {
    this.buffered += data;
    let nl;
    while ((nl = this.buffered.indexOf('\n')) >= 0) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      if (!isRecord(msg) || typeof msg.id !== 'number') continue;
      const ev = this.pending.get(msg.id);
      if (!ev) continue;
      if (typeof msg.pid === 'number') ev.started(msg.pid);
      if (typeof msg.error === 'string') ev.failed(msg.error);
      if ('exit' in msg) {
        this.pending.delete(msg.id);
        if (typeof msg.ticks === 'number') setHelperCpu(msg.ticks / 100);
        ev.closed(typeof msg.exit === 'number' ? msg.exit : null, typeof msg.signal === 'string' ? msg.signal : null);
      }
    }
  }

  /** The helper is gone: what it was starting is reported failed, and later processes start without it. */
  private lost(why: string): void {
    if (this.broken) return;
    this.broken = true;
    this.child = null;
    for (const ev of this.pending.values()) {
      ev.failed(`the process helper stopped: ${why}`);
      ev.closed(null, null);
    }
    this.pending.clear();
  }
}

export const spawner = new Spawner();
