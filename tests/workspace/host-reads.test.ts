// Every read and git call the host makes on what sandboxed code wrote ends
// within its bound: planted pipes, links to devices, nested repositories and
// oversized changes are refused by name, never waited on.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTests } from '../../src/grading/testrun.js';
import { validateSpec } from '../../src/env/spec.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { BoundedReadError, readBounded } from '../../src/util/bounded-read.js';
import { git, GitTimeout } from '../../src/util/git.js';
import { ChangeRefused, scanTree } from '../../src/workspace/scan.js';
import { MAX_CHANGE_BYTES } from '../../src/workspace/workspace.js';
import { makeWorkspace, tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });

async function within<T>(ms: number, work: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  const out = await work();
  assert.ok(Date.now() - started < ms, `took ${Date.now() - started} ms, bound ${ms}`);
  return out;
}

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof BoundedReadError) return err.problem;
    if (err instanceof ChangeRefused) return err.code;
    throw err;
  }
  return 'none';
}

describe('host-side reads of agent-made files', () => {
  it('reads only regular files, without following links, blocking on pipes or passing the cap', async () => {
    const dir = tempDir('reads-');
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    symlinkSync('/dev/zero', join(dir, 'zero'));
    symlinkSync('/etc/hostname', join(dir, 'link'));
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'big'), Buffer.alloc(2048));
    writeFileSync(join(dir, 'ok'), 'fine');
    await within(2000, () => {
      assert.equal(
        problemOf(() => readBounded(join(dir, 'pipe'), 1024)),
        'not-regular',
      );
      assert.equal(
        problemOf(() => readBounded(join(dir, 'zero'), 1024)),
        'not-regular',
      );
      assert.equal(
        problemOf(() => readBounded(join(dir, 'link'), 1024)),
        'not-regular',
      );
      assert.equal(
        problemOf(() => readBounded(join(dir, 'folder'), 1024)),
        'directory',
      );
      assert.equal(
        problemOf(() => readBounded(join(dir, 'big'), 1024)),
        'too-large',
      );
      assert.equal(
        problemOf(() => readBounded(join(dir, 'gone'), 1024)),
        'missing',
      );
    });
    assert.equal(readBounded(join(dir, 'ok'), 1024).toString(), 'fine');
  });

  it('refuses nested repositories, .git files and special files before git reads the tree', async () => {
    const root = tempDir('scan-');
    mkdirSync(join(root, '.git'));
    execFileSync('mkfifo', [join(root, '.git', 'HEAD')]);
    mkdirSync(join(root, 'node_modules'));
    execFileSync('mkfifo', [join(root, 'node_modules', 'pipe')]);
    writeFileSync(join(root, 'a.py'), 'x = 1\n');
    assert.equal(
      problemOf(() => scanTree(root, ['node_modules'])),
      'none',
      'the root .git and layer mount points are not entered',
    );
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'lib', '.git'), 'gitdir: /etc\n');
    assert.equal(
      problemOf(() => scanTree(root, ['node_modules'])),
      'nested-repository',
    );
    const other = tempDir('scan-');
    execFileSync('mkfifo', [join(other, 'pipe.py')]);
    assert.equal(
      problemOf(() => scanTree(other)),
      'special-file',
    );
    const many = tempDir('scan-');
    for (let i = 0; i < 30; i++) writeFileSync(join(many, `f${i}`), '');
    assert.equal(
      problemOf(() => scanTree(many, [], 20)),
      'too-many-files',
    );
  });

  it('git on a tree whose nested .git holds a pipe is killed at its time limit', async () => {
    const root = tempDir('git-hang-');
    const gitDir = tempDir('git-hang-dir-');
    await git(['init', '-q', '--bare', gitDir]);
    await git(['config', 'core.bare', 'false'], { gitDir });
    mkdirSync(join(root, 'sub', '.git', 'objects'), { recursive: true });
    mkdirSync(join(root, 'sub', '.git', 'refs'));
    execFileSync('mkfifo', [join(root, 'sub', '.git', 'HEAD')]);
    const err = await within(5000, () =>
      git(['add', '-A'], { gitDir, workTree: root, timeoutMs: 1000 }).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    assert.ok(err instanceof GitTimeout, String(err));
  });

  it('a workspace diff refuses what it must not read, by name, within its bound', async () => {
    const cases: [string, (root: string) => void][] = [
      [
        'nested-repository',
        (r) => {
          mkdirSync(join(r, 'sub', '.git', 'refs'), { recursive: true });
          execFileSync('mkfifo', [join(r, 'sub', '.git', 'HEAD')]);
        },
      ],
      ['special-file', (r) => execFileSync('mkfifo', [join(r, 'src', 'pipe.py')])],
      ['too-large', (r) => writeFileSync(join(r, 'src', 'big.py'), `x = "${'a'.repeat(MAX_CHANGE_BYTES)}"\n`)],
    ];
    for (const [code, plant] of cases) {
      const ws = await makeWorkspace(runtime, { 'src/lib.py': 'x = 1\n' });
      try {
        plant(ws.root);
        const err = await within(30_000, () =>
          ws.diff().then(
            () => null,
            (e: unknown) => e,
          ),
        );
        assert.ok(err instanceof ChangeRefused, `${code}: ${String(err)}`);
        assert.equal(err.code, code);
      } finally {
        ws.dispose();
      }
    }
  });

  it('nothing a run started writes after the runtime returns: the report is final when it is read', {
    skip: runtime.name === 'bwrap' ? false : 'only bubblewrap kills a whole sandbox (its own pid namespace)',
  }, async () => {
    const ws = await makeWorkspace(runtime, { 'a.py': 'x = 1\n' });
    try {
      const out = ws.runtime.outPath(ws.mounts);
      await ws.exec({
        argv: ['sh', '-c', `(sleep 0.5; echo forged > ${out}/late) & (setsid sh -c 'sleep 0.5; echo forged > ${out}/late2' &) ; echo real > ${out}/report`],
        timeoutMs: 10_000,
      });
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(readBounded(join(ws.mounts.outDir, 'report'), 100).toString(), 'real\n');
      assert.throws(() => readBounded(join(ws.mounts.outDir, 'late'), 100), /does not exist/);
      assert.throws(() => readBounded(join(ws.mounts.outDir, 'late2'), 100), /does not exist/);
    } finally {
      ws.dispose();
    }
  });

  it('a report swapped for a pipe after the run is an unreadable report, returned at once', async () => {
    const spec = validateSpec({
      schema: 'frognano.environment/v1',
      name: 'pipe-report',
      language: 'python',
      source: { path: 'repo' },
      test: { command: ['sh', '-c', 'rm -f {report}; mkfifo {report}; exit 0'], report: { format: 'junit', from: 'file' } },
      testPaths: ['tests/**'],
    });
    const ws = await makeWorkspace(runtime, { 'a.py': 'x = 1\n' });
    try {
      const run = await within(10_000, () => runTests(spec, ws, { timeoutSec: 10 }));
      assert.equal(run.outcome, 'infra-error');
      assert.match(run.reason ?? '', /not a regular file/);
    } finally {
      ws.dispose();
    }
  });
});
