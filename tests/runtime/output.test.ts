// A crashing child's output is never lost: everything it wrote before it
// aborted arrives, up to the output cap, through every runtime that runs
// commands. Node writing to a pipe used to lose whatever the pipe could not
// take at once (4,000 lines printed, 877 to 2,994 received).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BwrapRuntime } from '../../src/runtime/bwrap.js';
import { bwrapAvailable, hostPython } from '../../src/runtime/host.js';
import { LocalRuntime } from '../../src/runtime/local.js';
import type { Runtime } from '../../src/runtime/types.js';
import { runProcess } from '../../src/util/process.js';
import type { Workspace } from '../../src/workspace/workspace.js';
import { makeWorkspace } from '../helpers/workspace.js';

const LINES = 20_000;
const line = (i: number) => `line ${i} ${'x'.repeat(60)}`;

const nodeChild = (end: string) => `for (let i = 0; i < ${LINES}; i++) process.stdout.write('line ' + i + ' ' + 'x'.repeat(60) + '\\n'); ${end};`;
const pythonChild = `import os\nfor i in range(${LINES}): print('line %d %s' % (i, 'x' * 60))\nos.abort()`;

function assertAllLines(stdout: string) {
  const got = stdout.split('\n').filter((l) => l.startsWith('line '));
  assert.equal(got.length, LINES, `${got.length} of ${LINES} lines arrived`);
  assert.equal(got[0], line(0));
  assert.equal(got[LINES - 1], line(LINES - 1));
}

const runtimes: [string, () => Runtime, string | false][] = [
  ['local', () => new LocalRuntime(), false],
  ['bwrap', () => new BwrapRuntime(), bwrapAvailable() ? false : 'bubblewrap cannot create a sandbox here'],
];

for (const [name, make, skip] of runtimes) {
  describe(`${name} runtime keeps all output of a crashing child`, { skip }, () => {
    let ws: Workspace;
    before(async () => {
      ws = await makeWorkspace(make());
    });
    after(() => ws?.dispose());

    it('Node printing many lines then process.abort()', async () => {
      const res = await ws.exec({ argv: [process.execPath, '-e', nodeChild('process.abort()')], timeoutMs: 60_000 });
      assert.ok(res.signal === 'SIGABRT' || res.exitCode === 134, `aborted: ${res.exitCode} ${res.signal}`);
      assertAllLines(res.stdout);
    });

    it('Node printing many lines then process.exit(1)', async () => {
      const res = await ws.exec({ argv: [process.execPath, '-e', nodeChild('process.exit(1)')], timeoutMs: 60_000 });
      assert.equal(res.exitCode, 1);
      assertAllLines(res.stdout);
    });

    it('Python -u printing many lines then os.abort()', { skip: hostPython() ? false : 'no python here' }, async () => {
      const res = await ws.exec({ argv: [hostPython()!.executable, '-u', '-c', pythonChild], timeoutMs: 60_000 });
      assert.ok(res.signal === 'SIGABRT' || res.exitCode === 134, `aborted: ${res.exitCode} ${res.signal}`);
      assertAllLines(res.stdout);
    });

    it('still truncates at the output cap and says so', async () => {
      const cap = 64 * 1024;
      const res = await ws.exec({
        argv: [process.execPath, '-e', nodeChild('process.abort()')],
        timeoutMs: 60_000,
        limits: { maxOutputBytes: cap },
      });
      assert.equal(res.outputLimited, true);
      assert.ok(res.outputBytes > cap, `outputBytes ${res.outputBytes}`);
      assert.ok(Buffer.byteLength(res.stdout) + Buffer.byteLength(res.stderr) <= cap);
      assert.ok(res.stdout.startsWith(`${line(0)}\n`));
    });
  });
}

describe('runProcess output cap and timeout', () => {
  it('kills an endless writer at the cap, keeping only the capped head', async () => {
    const cap = 1024 * 1024;
    const res = await runProcess({ argv: ['yes'], cwd: '/', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 20_000, maxOutputBytes: cap });
    assert.equal(res.outputLimited, true);
    assert.equal(res.timedOut, false, 'killed by the cap, not the timeout');
    assert.equal(res.signal, 'SIGKILL');
    assert.equal(res.stdout.length, cap);
    assert.match(res.stdout, /^(y\n)+$/);
  });

  it('keeps stderr when stdout alone overflows the cap', async () => {
    const cap = 64 * 1024;
    // The error first, then the flood: the cap may kill the child as soon as stdout passes it, so a
    // message written after the flood is not promised; one written before it must survive.
    const script = `process.stderr.write('the error\\n'); process.stdout.write('o'.repeat(${4 * cap})); process.exit(2);`;
    const res = await runProcess({ argv: [process.execPath, '-e', script], cwd: '/', env: {}, timeoutMs: 20_000, maxOutputBytes: cap });
    assert.equal(res.outputLimited, true);
    assert.equal(res.stderr, 'the error\n');
    assert.equal(res.stdout.length + res.stderr.length, cap);
  });

  it('kills the whole process group at the timeout and passes stdin', async () => {
    const slow = await runProcess({
      argv: ['sh', '-c', 'sleep 30 & sleep 30'],
      cwd: '/',
      env: { PATH: '/usr/bin:/bin' },
      timeoutMs: 300,
      maxOutputBytes: 1024,
    });
    assert.equal(slow.timedOut, true);
    assert.ok(slow.durationMs < 10_000);
    const cat = await runProcess({ argv: ['cat'], cwd: '/', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 5000, maxOutputBytes: 1024, stdin: 'in' });
    assert.equal(cat.stdout, 'in');
  });

  it('reports a program that cannot start', async () => {
    const res = await runProcess({ argv: ['frognano-no-such-program'], cwd: '/', env: {}, timeoutMs: 5000, maxOutputBytes: 1024 });
    assert.ok(res.spawnError, 'spawnError set');
  });
});
