import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { selectRuntime } from '../../src/runtime/select.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { removalsSettled, sweepOrphans } from '../../src/workspace/cleanup.js';
import { git } from '../../src/util/git.js';
import { makeSnapshot, makeWorkspace, tempDir, waitFor } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });
const files = { 'src/lib.py': 'def f():\n    return 1\n', 'tests/test_lib.py': 'from src.lib import f\n' };

/** A child process that makes a workspace in `base` and waits; resolves once it is made. */
async function workspaceHolder(base: string) {
  const script = `
    import { Workspace } from ${JSON.stringify(new URL('../../src/workspace/workspace.ts', import.meta.url).href)};
    import { LocalRuntime } from ${JSON.stringify(new URL('../../src/runtime/local.ts', import.meta.url).href)};
    await Workspace.create({ snapshot: ${JSON.stringify(makeSnapshot(files))}, layers: [], runtime: new LocalRuntime(), baseDir: ${JSON.stringify(base)} });
    console.log('READY');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.on('data', (d) => String(d).includes('READY') && resolve()));
  return child;
}

describe('workspaces', () => {
  it('hold exactly one fresh commit, no remote, no tags and no reflog history', async () => {
    const ws = await makeWorkspace(runtime, files);
    try {
      const gitDir = join(ws.root, '.git');
      assert.equal((await git(['rev-list', '--all', '--count'], { gitDir })).trim(), '1');
      assert.equal((await git(['remote'], { gitDir })).trim(), '');
      assert.equal((await git(['tag'], { gitDir })).trim(), '');
      assert.equal((await git(['stash', 'list'], { gitDir, workTree: ws.root })).trim(), '');
      assert.equal(existsSync(join(gitDir, 'hooks')), false);
    } finally {
      ws.dispose();
    }
  });

  it('apply a patch before their commit, so history does not show the original', async () => {
    const patch = [
      'diff --git a/src/lib.py b/src/lib.py',
      '--- a/src/lib.py',
      '+++ b/src/lib.py',
      '@@ -1,2 +1,2 @@',
      ' def f():',
      '-    return 1',
      '+    return 2',
      '',
    ].join('\n');
    const ws = await Workspace.create({ snapshot: makeSnapshot(files), layers: [], runtime, baseDir: tempDir(), patch });
    try {
      assert.match(readFileSync(join(ws.root, 'src/lib.py'), 'utf8'), /return 2/);
      const log = await git(['log', '--all', '-p'], { gitDir: join(ws.root, '.git') });
      assert.doesNotMatch(log, /return 1/);
      assert.equal(await ws.diff(), '');
    } finally {
      ws.dispose();
    }
  });

  it('diff against their commit even when the sandboxed code commits its change', async () => {
    const ws = await makeWorkspace(runtime, files);
    try {
      writeFileSync(join(ws.root, 'src/lib.py'), 'def f():\n    return 42\n');
      writeFileSync(join(ws.root, 'new.txt'), 'new\n');
      await git(['add', '-A'], { gitDir: join(ws.root, '.git'), workTree: ws.root });
      await git(['commit', '-qm', 'hide it'], { gitDir: join(ws.root, '.git'), workTree: ws.root });
      const diff = await ws.diff();
      assert.match(diff, /\+    return 42/);
      assert.match(diff, /new\.txt/);
    } finally {
      ws.dispose();
    }
  });

  it('are removed on dispose', async () => {
    const base = tempDir();
    const ws = await makeWorkspace(runtime, files, base);
    assert.ok(existsSync(ws.dir));
    ws.dispose();
    await removalsSettled(); // removal happens in the background
    assert.equal(existsSync(ws.dir), false);
    // What stays is this process's image of the state and its ready copies, removed at exit.
    assert.ok(readdirSync(base).every((n) => n.startsWith(`ws-${process.pid}-`)));
  });

  it('are removed when the process is interrupted (Ctrl-C)', async () => {
    const base = tempDir();
    const child = await workspaceHolder(base);
    assert.ok(readdirSync(base).length >= 1);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.equal(code, 130);
    assert.deepEqual(readdirSync(base), []);
  });

  it('left by a crashed process are swept by the next one', async () => {
    const base = tempDir();
    const child = await workspaceHolder(base);
    child.kill('SIGKILL'); // no handler runs
    await new Promise((resolve) => child.on('exit', resolve));
    const left = readdirSync(base).length;
    assert.ok(left >= 1, 'the crash left its workspace');
    assert.equal(sweepOrphans(base), left, 'its workspace, image and ready copies');
    assert.ok(await waitFor(() => readdirSync(base).length === 0));
    // Its empty git template in the system's temp folder goes when the next process makes one.
    const templates = join(tmpdir(), `frognano-git-${process.getuid?.() ?? 0}`);
    const mine = `ws-${child.pid}-`;
    assert.ok(
      readdirSync(templates).some((n) => n.startsWith(mine)),
      'the crash left its git template',
    );
    const next = await workspaceHolder(tempDir());
    next.kill('SIGINT');
    await new Promise((resolve) => next.on('exit', resolve));
    assert.ok(!readdirSync(templates).some((n) => n.startsWith(mine)), 'swept by the next process');
  });
});
