import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { walkFiles } from '../../src/util/walk.js';
import { tempDir } from '../helpers/workspace.js';

function tree(files: string[]): string {
  const root = tempDir('fn-walk-');
  for (const rel of files) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), '');
  }
  return root;
}

describe('walkFiles', () => {
  it('lists files depth first in code-unit order, never entering dependency, build or hidden folders', () => {
    const root = tree([
      'b.js',
      'B.js',
      'a/x.js',
      'a-b/y.js',
      'node_modules/m.js',
      'dist/d.js',
      '.git/HEAD',
      '.venv/v.py',
      '__pycache__/c.pyc',
      'src/.hidden/h.js',
    ]);
    assert.deepEqual(walkFiles(root), ['B.js', 'a/x.js', 'a-b/y.js', 'b.js']);
  });

  it("takes the caller's own skip and keep, and stops at maxFiles and maxDepth", () => {
    const root = tree(['lib/a.js', 'lib/b.txt', 'scripts/s.js', 'one/two/three.js', 'z.js']);
    assert.deepEqual(walkFiles(root, { skip: (_, name) => name === 'scripts', keep: (rel) => rel.endsWith('.js') }), ['lib/a.js', 'one/two/three.js', 'z.js']);
    assert.deepEqual(walkFiles(root, { maxFiles: 2 }), ['lib/a.js', 'lib/b.txt']);
    assert.deepEqual(walkFiles(root, { maxDepth: 1 }), ['lib/a.js', 'lib/b.txt', 'scripts/s.js', 'z.js']);
  });

  it('lists links without following them, and throws only when the root cannot be read', () => {
    const root = tree(['real/f.js']);
    symlinkSync(join(root, 'real'), join(root, 'loop'));
    symlinkSync('/nonexistent', join(root, 'broken'));
    assert.deepEqual(walkFiles(root), ['broken', 'loop', 'real/f.js']);
    assert.deepEqual(walkFiles(root, { keep: (_, e) => e.isFile() }), ['real/f.js']);
    assert.throws(() => walkFiles(join(root, 'missing')), /ENOENT/);
  });
});
