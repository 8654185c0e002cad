// The sandbox kept for an agent's episode (runtime/session.ts): what one
// command leaves for the next (its files, /tmp) and what it cannot (a process,
// a signal to the supervisor), and the host's own bounds on the supervisor.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BwrapRuntime } from '../../src/runtime/bwrap.js';
import { bwrapAvailable } from '../../src/runtime/host.js';
import { KeptSandbox } from '../../src/runtime/session.js';
import type { Workspace } from '../../src/workspace/workspace.js';
import { makeWorkspace, processesOf, waitFor } from '../helpers/workspace.js';

const skip = bwrapAvailable() ? false : 'bubblewrap cannot create a sandbox here (apt-get install bubblewrap)';
const sh = (script: string, timeoutMs = 10000) => ({ argv: ['bash', '-c', script], timeoutMs });
const asRoot = process.getuid?.() === 0;

describe('a sandbox kept for the episode', { skip }, () => {
  let ws: Workspace;
  before(async () => {
    ws = await makeWorkspace(new BwrapRuntime(), { 'a.txt': 'a\n' });
    ws.keepSandbox();
  });
  after(() => ws?.dispose());

  it('keeps files and /tmp from one command to the next, as one sandbox does', async () => {
    assert.equal((await ws.exec(sh('echo b >> a.txt; echo note > /tmp/note; echo $$ > /tmp/pid'))).exitCode, 0);
    const next = await ws.exec(sh('cat a.txt /tmp/note'));
    assert.equal(next.stdout, 'a\nb\nnote\n');
  });

  it('lets nothing a command started outlive it, detached or not', async () => {
    const res = await ws.exec(sh('sleep 300 & (setsid sleep 301 &) ; nohup sleep 302 >/dev/null 2>&1 & echo started'));
    assert.match(res.stdout, /started/);
    // Seen from the host: no process of the sandbox's uid is left.
    assert.equal(processesOf(ws.mounts.uid).length, 0, 'killed before the command returned');
    const inside = await ws.exec(sh('for p in /proc/[0-9]*; do cat $p/cmdline 2>/dev/null | tr "\\0" " "; echo; done'));
    assert.doesNotMatch(inside.stdout, /sleep 30[012]/);
  });

  it('runs commands faster than a sandbox each', async () => {
    const time = async (f: () => Promise<unknown>) => {
      const t = performance.now();
      for (let i = 0; i < 5; i++) await f();
      return performance.now() - t;
    };
    const keptMs = await time(() => ws.exec(sh('true')));
    const freshMs = await time(() => ws.runtime.exec(ws.mounts, sh('true')));
    // Not a timing assertion on a shared machine: both ran, and the figures go to the log.
    console.error(`5 commands: kept sandbox ${keptMs.toFixed(0)} ms, a sandbox each ${freshMs.toFixed(0)} ms`);
    assert.ok(keptMs > 0 && freshMs > 0);
  });

  it('survives a command that signals everything it can, and the next command runs', {
    skip: asRoot ? false : "the supervisor runs as the command's own user without root",
  }, async () => {
    const res = await ws.exec(sh('sleep 100 & kill -9 -1; kill -9 1 2>&1; kill -9 $PPID 2>&1; echo after'));
    // kill -1 spares the caller; the sandbox's init and the supervisor are out of its reach.
    assert.match(res.stdout, /after\n$/);
    assert.match(res.stdout, /Operation not permitted/);
    const next = await ws.exec(sh('echo alive'));
    assert.equal(next.stdout, 'alive\n');
  });

  it('ends with the workspace: nothing of it runs after release', async () => {
    await ws.exec(sh('true'));
    await ws.release();
    assert.ok(await waitFor(() => processesOf(ws.mounts.uid).length === 0));
    // A later command gets a sandbox of its own again.
    assert.equal((await ws.exec(sh('cat /tmp/note 2>/dev/null || echo fresh-tmp'))).stdout, 'fresh-tmp\n');
  });
});

describe('the host bounds a kept sandbox', () => {
  // Real processes standing in for a broken supervisor: they say ready, then misbehave.
  const fake = (script: string) =>
    new KeptSandbox(
      [process.execPath, '-e', `process.stdout.write('{"ready":true}\\n'); ${script}`],
      (req) => ({ argv: req.argv, cwd: '/', env: {} }),
      100,
      200,
    );
  const req = { argv: ['true'], timeoutMs: 300 };

  it('gives up on a reply that never comes, after the time limit and a grace, and starts a fresh sandbox', async () => {
    const s = fake('setInterval(() => {}, 1000);');
    const t = performance.now();
    const res = await s.exec(req);
    assert.equal(res.timedOut, true);
    assert.equal(res.exitCode, null);
    assert.ok(performance.now() - t < 5000);
    await s.exec(req);
    assert.equal(s.starts, 2, 'the next command started another sandbox');
    await s.close();
  });

  it('ends a sandbox whose reply cannot be read or is too large', async () => {
    const garbage = fake(`process.stdin.on('data', () => process.stdout.write('not json\\n'));`);
    const res = await garbage.exec(req);
    assert.match(res.stderr, /could not be read/);
    await garbage.close();
    const flood = fake(`process.stdin.on('data', () => process.stdout.write('x'.repeat(80 * 1024 * 1024)));`);
    const big = await flood.exec({ ...req, timeoutMs: 20_000, limits: { maxOutputBytes: 1024 } });
    assert.match(big.stderr, /over the size limit/);
    await flood.close();
  });

  it('says so when the sandbox cannot start', async () => {
    const s = new KeptSandbox(['/nonexistent/frognano-supervisor'], (r) => ({ argv: r.argv, cwd: '/', env: {} }));
    const res = await s.exec(req);
    assert.ok(res.spawnError);
    await s.close();
  });
});
