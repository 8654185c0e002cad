// Enforces the layers of src/ (the table is tests/architecture/layers.ts;
// docs/architecture.md explains it): imports go only to lower layers, and no
// import cycle exists among the files of src/.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildGraph, findCycles, layerViolations, unrankedFolders, type ImportGraph } from './check.js';
import { LAYERS } from './layers.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const DOC = fileURLToPath(new URL('../../docs/architecture.md', import.meta.url));

describe('the layers of src/', () => {
  const graph = buildGraph(SRC);

  it('reads the import graph of src/ and resolves every relative import', () => {
    assert.ok(graph.edges.size > 50, `only ${graph.edges.size} files found under ${SRC}`);
    assert.ok(
      [...graph.edges.values()].some((t) => t.length > 0),
      'no imports found at all',
    );
    const lines = graph.unresolved.map((u) => `${u.from}: cannot resolve ${u.specifier}`);
    assert.deepEqual(lines, [], `relative imports that resolve to no file (the check would skip them):\n${lines.join('\n')}`);
  });

  it('gives every top-level folder of src/ a rank, and ranks no folder that is gone', () => {
    const dirs = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const unranked = [...new Set([...dirs, ...unrankedFolders(graph.edges, LAYERS)])].filter((f) => LAYERS[f] === undefined).sort();
    assert.deepEqual(
      unranked.map((f) => f || '(files directly in src/)'),
      [],
      'place each new folder of src/ in tests/architecture/layers.ts (see docs/architecture.md, "Adding a folder")',
    );
    const stale = Object.keys(LAYERS).filter((f) => !dirs.includes(f));
    assert.deepEqual(stale, [], 'tests/architecture/layers.ts ranks folders that src/ no longer has');
  });

  it('imports only from lower layers', () => {
    const messages = layerViolations(graph.edges, LAYERS).map((v) => v.message);
    assert.deepEqual(messages, [], `imports that do not go down a layer (see docs/architecture.md):\n${messages.join('\n')}`);
  });

  it('has no import cycle among files', () => {
    const cycles = findCycles(graph.edges).map((c) => c.join(' -> '));
    assert.deepEqual(cycles, [], `import cycles (break each by moving the shared part into its own module):\n${cycles.join('\n')}`);
  });

  it('is described in docs/architecture.md, which names every ranked folder', () => {
    const doc = readFileSync(DOC, 'utf8');
    assert.match(doc, /tests\/architecture\/layers\.ts/);
    const missing = Object.keys(LAYERS).filter((f) => !doc.includes(`${f}/`));
    assert.deepEqual(missing, [], 'folders of the layer table that docs/architecture.md does not describe');
  });
});

describe('the layer checker', () => {
  const layers = { low: 0, mid: 1, side: 1, high: 2 };

  it('reports an upward import and a same-rank import, naming both files and ranks', () => {
    const edges: ImportGraph = new Map([
      ['low/a.ts', ['high/b.ts']],
      ['mid/c.ts', ['side/d.ts', 'low/a.ts', 'mid/e.ts']],
      ['high/b.ts', ['mid/c.ts']],
      ['side/d.ts', []],
      ['mid/e.ts', []],
    ]);
    const messages = layerViolations(edges, layers).map((v) => v.message);
    assert.deepEqual(messages, [
      'low/a.ts (low, rank 0) imports high/b.ts (high, rank 2): a higher rank',
      'mid/c.ts (mid, rank 1) imports side/d.ts (side, rank 1): the same rank',
    ]);
  });

  it('reports a cycle as a path, and a self-import', () => {
    const edges: ImportGraph = new Map([
      ['mid/a.ts', ['mid/b.ts', 'low/x.ts']],
      ['mid/b.ts', ['mid/c.ts']],
      ['mid/c.ts', ['mid/a.ts']],
      ['low/x.ts', []],
      ['low/self.ts', ['low/self.ts']],
    ]);
    const cycles = findCycles(edges)
      .map((c) => c.join(' -> '))
      .sort();
    assert.deepEqual(cycles, ['low/self.ts -> low/self.ts', 'mid/a.ts -> mid/b.ts -> mid/c.ts -> mid/a.ts']);
    assert.deepEqual(
      findCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
      [],
    );
  });

  it('reports a folder with no rank', () => {
    const edges: ImportGraph = new Map([
      ['low/a.ts', []],
      ['newcomer/b.ts', ['low/a.ts']],
      ['root.ts', []],
    ]);
    assert.deepEqual(unrankedFolders(edges, layers), ['', 'newcomer']);
  });

  it('finds static, type-only, re-exported and dynamic imports in a source tree on disk', () => {
    const root = mkdtempSync(join(tmpdir(), 'frognano-layers-'));
    try {
      const files: Record<string, string> = {
        'low/a.ts': "import type { B } from '../high/b.js';\nexport type A = B;\n",
        'low/index.ts': "export * from './a.js';\n",
        'mid/c.ts': "export { x } from '../low/x.js';\nexport const load = () => import('./d.js');\n",
        'mid/d.ts': "import { load } from './c.js';\nexport const y = load;\n",
        'high/b.ts':
          "import '../low/index.js';\nimport { y } from '../mid/d.js';\nimport { readFileSync } from 'node:fs';\nexport type B = typeof y | typeof readFileSync;\n",
        'low/x.ts': "import { nothing } from './missing.js';\nexport const x = nothing;\n",
      };
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, rel)), { recursive: true });
        writeFileSync(join(root, rel), text);
      }
      const g = buildGraph(root);
      assert.deepEqual(Object.fromEntries(g.edges), {
        'high/b.ts': ['low/index.ts', 'mid/d.ts'],
        'low/a.ts': ['high/b.ts'],
        'low/index.ts': ['low/a.ts'],
        'low/x.ts': [],
        'mid/c.ts': ['low/x.ts', 'mid/d.ts'],
        'mid/d.ts': ['mid/c.ts'],
      });
      assert.deepEqual(g.unresolved, [{ from: 'low/x.ts', specifier: './missing.js' }]);
      assert.deepEqual(
        layerViolations(g.edges, layers).map((v) => v.message),
        ['low/a.ts (low, rank 0) imports high/b.ts (high, rank 2): a higher rank'],
      );
      assert.deepEqual(
        findCycles(g.edges)
          .map((c) => c.join(' -> '))
          .sort(),
        ['high/b.ts -> low/index.ts -> low/a.ts -> high/b.ts', 'mid/c.ts -> mid/d.ts -> mid/c.ts'],
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
