// Workspaces copied from prepared images (image.ts), the pool of ready copies
// (pool.ts) and the content digest that keys reused results (digest.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LocalRuntime } from '../../src/runtime/local.js';
import { git } from '../../src/util/git.js';
import { treeDigest } from '../../src/workspace/digest.js';
import { ImageStore } from '../../src/workspace/image.js';
import { WorkspacePool } from '../../src/workspace/pool.js';
import { Workspace, workspaceImages } from '../../src/workspace/workspace.js';
import { makeSnapshot, tempDir } from '../helpers/workspace.js';

const runtime = new LocalRuntime();
const files = { 'src/a.js': 'export const a = 1;\n', 'tests/a.test.js': 'test\n' };
const bug = `diff --git a/src/a.js b/src/a.js
--- a/src/a.js
+++ b/src/a.js
@@ -1 +1 @@
-export const a = 1;
+export const a = 2;
`;

describe('workspaces from images', () => {
  it('are copies of one prepared state: the bug applied, hidden files gone, one commit, independent of each other', async () => {
    const snapshot = makeSnapshot(files);
    const baseDir = tempDir('fn-base-');
    const make = () => Workspace.create({ snapshot, layers: [], runtime, baseDir, patch: bug, removeFiles: ['tests/a.test.js'] });
    const [w1, w2] = [await make(), await make()];
    try {
      for (const w of [w1, w2]) {
        assert.equal(readFileSync(join(w.root, 'src/a.js'), 'utf8'), 'export const a = 2;\n');
        assert.equal(existsSync(join(w.root, 'tests/a.test.js')), false);
        assert.equal((await git(['rev-list', '--all', '--count'], { gitDir: join(w.root, '.git') })).trim(), '1');
        assert.equal(await w.diff(), '', 'the copy is its commit');
      }
      writeFileSync(join(w1.root, 'src/a.js'), 'changed\n');
      assert.equal(readFileSync(join(w2.root, 'src/a.js'), 'utf8'), 'export const a = 2;\n', 'a change in one copy is not in another');
      assert.match(await w1.diff(), /\+changed/);
      assert.notEqual(w1.dir, w2.dir);
    } finally {
      w1.dispose();
      w2.dispose();
    }
  });

  it('run an unnamed prepare on each copy and commit it; a named one is part of the image', async () => {
    const snapshot = makeSnapshot(files);
    const baseDir = tempDir('fn-base-');
    let calls = 0;
    const prepare = (tree: { root: string }) => {
      calls++;
      writeFileSync(join(tree.root, 'extra.txt'), `call ${calls}\n`);
    };
    const unnamed = [
      await Workspace.create({ snapshot, layers: [], runtime, baseDir, prepare }),
      await Workspace.create({ snapshot, layers: [], runtime, baseDir, prepare }),
    ];
    assert.equal(calls, 2);
    assert.deepEqual(
      unnamed.map((w) => readFileSync(join(w.root, 'extra.txt'), 'utf8')),
      ['call 1\n', 'call 2\n'],
    );
    for (const w of unnamed) {
      assert.equal(await w.diff(), '', 'what prepare wrote is in the commit');
      w.dispose();
    }
    const named = [
      await Workspace.create({ snapshot, layers: [], runtime, baseDir, prepare, prepareKey: 'extra' }),
      await Workspace.create({ snapshot, layers: [], runtime, baseDir, prepare, prepareKey: 'extra' }),
    ];
    assert.equal(calls, 3, 'built once for the image');
    assert.deepEqual(
      named.map((w) => readFileSync(join(w.root, 'extra.txt'), 'utf8')),
      ['call 3\n', 'call 3\n'],
    );
    for (const w of named) w.dispose();
  });

  it('keep modes, times and links of the image', async () => {
    const snapshot = makeSnapshot({ 'run.sh': '#!/bin/sh\n', 'a.txt': 'a\n' });
    chmodSync(join(snapshot, 'run.sh'), 0o755);
    symlinkSync('a.txt', join(snapshot, 'link'));
    const ws = await Workspace.create({ snapshot, layers: [], runtime, baseDir: tempDir('fn-base-') });
    try {
      assert.ok(
        execFileSync('stat', ['-c', '%a', join(ws.root, 'run.sh')])
          .toString()
          .trim() === '755',
      );
      assert.equal(
        execFileSync('readlink', [join(ws.root, 'link')])
          .toString()
          .trim(),
        'a.txt',
      );
    } finally {
      ws.dispose();
    }
  });
});

describe('the pool of ready copies', () => {
  it('hands out copies made in the background, never keeping more spares than were taken', async () => {
    const images = new ImageStore();
    const pool = new WorkspacePool(2, 8);
    const baseDir = tempDir('fn-base-');
    const image = await images.get(baseDir, { snapshot: makeSnapshot(files), layerPaths: [] });
    const first = await pool.take(image, baseDir, false);
    assert.deepEqual([pool.stats.hits, pool.stats.misses], [0, 1]);
    await new Promise((r) => setTimeout(r, 200)); // the refill runs after the taker went on
    const spares = () => readdirSync(baseDir).filter((n) => !n.includes('-img-')).length - taken.length;
    const taken = [first];
    assert.equal(spares(), 1, 'one spare after one take');
    taken.push(await pool.take(image, baseDir, false));
    assert.equal(pool.stats.hits, 1);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(spares(), 2, 'two spares (the depth) after two takes');
    assert.ok(pool.stats.refills >= 3 && pool.stats.refillMs > 0);
    for (const c of taken) assert.ok(existsSync(join(c.dir, 'repo')) && existsSync(join(c.dir, 'trusted')) && existsSync(join(c.dir, 'out')));
    pool.clear();
    images.clear();
  });

  it('is shared by workspaces of one state: the second takes a ready copy', async () => {
    const snapshot = makeSnapshot(files);
    const baseDir = tempDir('fn-base-');
    const w1 = await Workspace.create({ snapshot, layers: [], runtime, baseDir });
    await new Promise((r) => setTimeout(r, 100));
    const t = performance.now();
    const w2 = await Workspace.create({ snapshot, layers: [], runtime, baseDir });
    const ms = performance.now() - t;
    console.error(`a ready copy took ${ms.toFixed(1)} ms to hand out`);
    assert.ok(
      readdirSync(baseDir).some((n) => n.includes('-img-')),
      'the image lives beside the workspaces',
    );
    w1.dispose();
    w2.dispose();
    assert.ok(workspaceImages instanceof ImageStore);
  });
});

describe('content digests', () => {
  it('change with any byte, mode or link of the tree and ignore .git and skipped paths', () => {
    const dir = makeSnapshot({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n', 'node_modules/x.js': '1' });
    const d0 = treeDigest(dir, ['node_modules']);
    assert.match(d0 ?? '', /^[0-9a-f]{64}$/);
    assert.equal(treeDigest(dir, ['node_modules']), d0, 'the same content, the same digest');
    writeFileSync(join(dir, 'node_modules/x.js'), '2');
    execFileSync('git', ['init', '-q', dir]);
    assert.equal(treeDigest(dir, ['node_modules']), d0, 'skipped paths and .git do not count');
    writeFileSync(join(dir, 'sub/b.txt'), 'B\n');
    const d1 = treeDigest(dir, ['node_modules']);
    assert.notEqual(d1, d0);
    chmodSync(join(dir, 'a.txt'), 0o755);
    const d2 = treeDigest(dir, ['node_modules']);
    assert.notEqual(d2, d1, 'the executable bit counts');
    symlinkSync('a.txt', join(dir, 'l'));
    assert.notEqual(treeDigest(dir, ['node_modules']), d2, 'a link counts');
  });

  it('give none for a tree over the byte limit or holding a special file', () => {
    const dir = makeSnapshot({ 'a.txt': 'x'.repeat(1000) });
    assert.equal(treeDigest(dir, [], 100), null);
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    assert.equal(treeDigest(dir), null);
  });
});
