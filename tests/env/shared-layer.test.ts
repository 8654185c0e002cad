import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildEnvironment } from '../../src/env/build.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { makeJsEnv } from '../helpers/env.js';
import { tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });

// A setup step that needs no network, and records each time it runs.
const SETUP = { setup: ['mkdir -p deps && date +%s%N > deps/built-at'], layer: ['deps'] };

describe('the dependency layer is keyed by lockfile and setup, and shared', () => {
  it('a second environment with the same lockfile reuses the first one layer; another lockfile builds its own', async () => {
    const dataDir = tempDir();
    const lock = '{"lockfileVersion":3,"packages":{"node_modules/x":{"version":"1.0.0"}}}\n';
    const a = makeJsEnv({ 'package-lock.json': lock, 'src/a.js': 'export const a = 1;\n' }, SETUP, 'env-a');
    const b = makeJsEnv({ 'package-lock.json': lock, 'src/b.js': 'export const b = 2;\n' }, SETUP, 'env-b');
    const c = makeJsEnv({ 'package-lock.json': lock.replace('1.0.0', '2.0.0'), 'src/a.js': 'export const a = 1;\n' }, SETUP, 'env-c');
    const builtA = await buildEnvironment(a, { dataDir, runtime });
    const builtB = await buildEnvironment(b, { dataDir, runtime });
    const builtC = await buildEnvironment(c, { dataDir, runtime });
    assert.ok(builtA.setupMs > 0, 'the first build ran setup');
    assert.equal(builtB.setupMs, 0, 'the second did not');
    assert.equal(builtB.layers[0]!.host, builtA.layers[0]!.host);
    assert.notEqual(builtB.snapshot, builtA.snapshot, 'each keeps its own source');
    assert.ok(existsSync(join(builtB.snapshot, 'src/b.js')));
    assert.notEqual(builtC.layers[0]!.host, builtA.layers[0]!.host, 'another lockfile, another layer');
    assert.notEqual(readFileSync(join(builtC.layers[0]!.host, 'built-at'), 'utf8'), readFileSync(join(builtA.layers[0]!.host, 'built-at'), 'utf8'));
  });

  it('without a lockfile, package.json dependency fields decide; its other fields do not', async () => {
    const dataDir = tempDir();
    const pkg = (name: string, deps: object) => JSON.stringify({ name, type: 'module', scripts: { test: name }, dependencies: deps });
    const a = makeJsEnv({ 'package.json': pkg('a', { x: '1' }) }, SETUP, 'nolock-a');
    const b = makeJsEnv({ 'package.json': pkg('b', { x: '1' }) }, SETUP, 'nolock-b');
    const c = makeJsEnv({ 'package.json': pkg('a', { x: '2' }) }, SETUP, 'nolock-c');
    const [la, lb, lc] = [
      await buildEnvironment(a, { dataDir, runtime }),
      await buildEnvironment(b, { dataDir, runtime }),
      await buildEnvironment(c, { dataDir, runtime }),
    ].map((x) => x.layers[0]!.host);
    assert.equal(la, lb);
    assert.notEqual(la, lc);
  });
});
