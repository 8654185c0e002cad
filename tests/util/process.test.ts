// Processes started through the process helper (src/util/spawner.ts) keep
// runProcess's guarantees: exit status, output, input, the timeout's kill of
// the whole group, the CPU meter; and a helper that dies costs only what it
// was starting at that moment.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { cpuSeconds } from '../../src/util/cpu.js';
import { runProcess, type ProcessRequest } from '../../src/util/process.js';
import { spawner } from '../../src/util/spawner.js';

const req = (argv: string[], over: Partial<ProcessRequest> = {}): ProcessRequest => ({
  argv,
  cwd: '/tmp',
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  timeoutMs: 30_000,
  maxOutputBytes: 1024 * 1024,
  ...over,
});

/** Running, not a zombie waiting for a parent to reap it. */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('processes started by the helper', () => {
  it("are not this process's children, and report status, output and input", async () => {
    const res = await runProcess(req(['sh', '-c', 'echo "parent $PPID"; cat; echo oops >&2; exit 3'], { stdin: 'from stdin\n' }));
    assert.equal(res.exitCode, 3);
    assert.equal(res.stderr, 'oops\n');
    assert.match(res.stdout, /^parent (\d+)\nfrom stdin\n$/);
    const parent = Number(/parent (\d+)/.exec(res.stdout)![1]);
    assert.equal(parent, spawner.pid(), 'started by the helper');
    assert.notEqual(parent, process.pid);
  });

  it('a missing program is a spawn error, not a hang', async () => {
    const res = await runProcess(req(['/nonexistent/program']));
    assert.match(res.spawnError ?? '', /ENOENT/);
    assert.equal(res.exitCode === 0, false);
  });

  it('the timeout kills the whole process group', async () => {
    const res = await runProcess(req(['sh', '-c', 'sleep 30 & echo $!; wait'], { timeoutMs: 500 }));
    assert.equal(res.timedOut, true);
    const grandchild = Number(res.stdout.trim());
    assert.ok(grandchild > 0);
    for (let i = 0; i < 50 && alive(grandchild); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(alive(grandchild), false, 'the background sleep died with its group');
  });

  it("the CPU its processes used is counted as this process's", async () => {
    const before = cpuSeconds();
    // Spins until it has used 0.4 s of CPU itself, however busy the machine.
    await runProcess(req([process.execPath, '-e', 'while (process.cpuUsage().user < 400000);']));
    assert.ok(cpuSeconds() - before >= 0.3, `counted ${(cpuSeconds() - before).toFixed(2)} s`);
  });

  it('a helper that dies fails what it was starting and later processes start without it', async () => {
    const running = runProcess(req(['sleep', '30']));
    await new Promise((r) => setTimeout(r, 200));
    const helper = spawner.pid();
    assert.ok(helper);
    process.kill(helper, 'SIGKILL');
    const lost = await running;
    assert.match(lost.spawnError ?? '', /process helper stopped/);
    const res = await runProcess(req(['sh', '-c', 'echo "parent $PPID"']));
    assert.equal(res.exitCode, 0);
    assert.equal(res.stdout, `parent ${process.pid}\n`);
  });
});
