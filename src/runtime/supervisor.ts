// The program a kept sandbox runs (session.ts): it reads one request per line
// on stdin, runs that command, and answers one line on stdout. After each
// command it kills every other process of the sandbox, so nothing one command
// started outlives it, and files are final when the answer comes. As root it
// runs each command as the workspace's uid, which can neither signal nor read
// the supervisor. It is plain JavaScript run by `node -e` inside the sandbox,
// which sees no FrogNano files; it is kept as a string for that reason.
import { PROGRAM_PRELUDE } from '../util/program-source.js';

export const SUPERVISOR_SOURCE = `${PROGRAM_PRELUDE}${String.raw`
const { spawn } = require('node:child_process');
const { readdirSync, readFileSync } = require('node:fs');
const me = process.pid;

function others() {
  const out = [];
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue;
    const pid = Number(n);
    if (pid === 1 || pid === me) continue;
    try {
      const stat = readFileSync('/proc/' + n + '/stat', 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue; // a zombie holds nothing
    } catch {
      continue;
    }
    out.push(pid);
  }
  return out;
}

// Kills everything but the namespace's init and this process; resolves once all are gone.
async function sweep() {
  for (let round = 0; round < 400; round++) {
    const left = others();
    if (left.length === 0) return true;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return false;
}

function childTicks() {
  const f = ownStat();
  return Number(f[13]) + Number(f[14]);
}

function run(req) {
  return new Promise((resolve) => {
    const started = Date.now();
    const ticks0 = childTicks();
    const out = [];
    const err = [];
    let bytes = 0;
    let kept = 0;
    let timedOut = false;
    let outputLimited = false;
    let child;
    const opts = { cwd: req.cwd, env: req.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] };
    if (typeof req.uid === 'number') Object.assign(opts, { uid: req.uid, gid: req.uid });
    try {
      child = spawn(req.argv[0], req.argv.slice(1), opts);
    } catch (e) {
      resolve({ exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, outputLimited: false, outputBytes: 0, durationMs: 0, spawnError: String(e && e.message || e) });
      return;
    }
    const kill = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const take = (into) => (chunk) => {
      bytes += chunk.length;
      if (kept < req.maxOutputBytes) {
        const room = req.maxOutputBytes - kept;
        into.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        kept += Math.min(room, chunk.length);
      }
      if (bytes > req.maxOutputBytes && !outputLimited) {
        outputLimited = true;
        kill();
      }
    };
    child.stdout.on('data', take(out));
    child.stderr.on('data', take(err));
    child.stdin.on('error', () => {});
    child.on('error', () => {});
    child.stdin.end(req.stdin === undefined ? undefined : req.stdin);
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, req.timeoutMs);
    let closed = 0;
    let status = null;
    let clean = false;
    const finish = () => {
      if (++closed < 3) return;
      clearTimeout(timer);
      resolve({
        exitCode: status.code,
        signal: status.signal,
        // base64, not JSON escapes: at most 4/3 of the bytes, where escaped control bytes take 6 each
        stdout64: Buffer.concat(out).toString('base64'),
        stderr64: Buffer.concat(err).toString('base64'),
        timedOut,
        outputLimited,
        outputBytes: bytes,
        durationMs: Date.now() - started,
        cpuTicks: childTicks() - ticks0,
        clean,
      });
    };
    child.stdout.on('close', finish);
    child.stderr.on('close', finish);
    child.on('exit', (code, signal) => {
      status = { code, signal };
      // What the command left running dies with it; its pipes then close.
      sweep().then((ok) => {
        clean = ok;
        finish();
      });
    });
  });
}

let queue = Promise.resolve();
onStdinLines((line) => {
  const req = JSON.parse(line);
  queue = queue.then(() => run(req)).then((res) => {
    process.stdout.write(JSON.stringify({ id: req.id, ...res }) + '\n');
  });
});
process.stdout.write(JSON.stringify({ ready: true }) + '\n');
`}`;
