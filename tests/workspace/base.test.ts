import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sweepMemory, treeBytes, workspaceBase } from '../../src/workspace/base.js';
import { tempDir } from '../helpers/workspace.js';

function snapshotOf(bytes: number): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'a.js'), 'x'.repeat(bytes));
  return dir;
}

describe('where workspaces are made', () => {
  const memoryRoot = tempDir(); // a stand-in for /dev/shm with room
  const small = snapshotOf(1000);

  it('in memory for a small environment where there is room, one folder per data directory', () => {
    const a = workspaceBase('/data/a', small, { setting: undefined, memoryRoot, minFreeBytes: 1 });
    const b = workspaceBase('/data/b', small, { setting: undefined, memoryRoot, minFreeBytes: 1 });
    assert.ok(a.startsWith(memoryRoot + '/frognano-'), a);
    assert.notEqual(a, b);
    assert.equal(a, workspaceBase('/data/a', small, { setting: undefined, memoryRoot, minFreeBytes: 1 }));
  });

  it('on disk for a large environment, without room, or when asked', () => {
    const large = snapshotOf(5000);
    assert.equal(workspaceBase('/data/a', large, { setting: undefined, memoryRoot, minFreeBytes: 1, maxSnapshotBytes: 4000 }), '/data/a/tmp');
    assert.equal(workspaceBase('/data/a', small, { setting: undefined, memoryRoot, minFreeBytes: Number.MAX_SAFE_INTEGER }), '/data/a/tmp');
    assert.equal(workspaceBase('/data/a', small, { setting: undefined, memoryRoot: join(memoryRoot, 'absent'), minFreeBytes: 1 }), '/data/a/tmp');
    assert.equal(workspaceBase('/data/a', small, { setting: 'disk', memoryRoot, minFreeBytes: 1 }), '/data/a/tmp');
    assert.equal(workspaceBase('/data/a', small, { setting: '/elsewhere/ws', memoryRoot, minFreeBytes: 1 }), '/elsewhere/ws');
  });

  it("sweeps what killed processes left in memory under any data directory's folder, and keeps a live process's", () => {
    const root = tempDir();
    const dead = join(root, 'frognano-0-aaa', 'ws-999999-x');
    const live = join(root, 'frognano-0-bbb', `ws-${process.pid}-y`);
    for (const d of [dead, live, join(root, 'frognano-0-ccc'), join(root, 'other', 'ws-999999-z')]) mkdirSync(d, { recursive: true });
    assert.equal(sweepMemory(root, 'frognano-0-'), 1);
    assert.deepEqual(readdirSync(root).sort(), ['frognano-0-bbb', 'other']);
    assert.ok(existsSync(live));
  });

  it('counts a tree only as far as the limit', () => {
    const dir = snapshotOf(3000);
    writeFileSync(join(dir, 'b.txt'), 'y'.repeat(2000));
    assert.equal(treeBytes(dir, 10_000), 5000);
    assert.equal(treeBytes(dir, 2500), 2501);
  });
});
