import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildEnvironment } from '../../src/env/build.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { checkedLayout } from '../../src/taskpilot/grading-check.js';
import { fileDiff } from '../../src/util/diff.js';
import { makeJsEnv, nodeTests } from '../helpers/env.js';
import { JS_BROKEN, JS_SOURCE } from '../helpers/task.js';
import { tempDir } from '../helpers/workspace.js';

// A passing test that counts the tests in its own file: any twin placed
// there breaks it, so the full plan (twins of passing tests too) is refused
// and the check must fall back to twins of the failing tests alone.
const ORDER_TESTS = nodeTests(
  {
    'mul multiplies': `const { mul } = await import('../src/math.js'); assert.equal(mul(2, 3), 6);`,
    'file lists its tests': `const { readFileSync } = await import('node:fs'); const text = readFileSync(new URL(import.meta.url), 'utf8'); assert.equal(text.match(/^ +it\\(/gm).length, 2);`,
  },
  'order',
);
const ADD_TESTS = nodeTests({
  'add sums': `const { add } = await import('../src/math.js'); assert.equal(add(2, 3), 5);`,
  'add counts up from a negative': `const { add } = await import('../src/math.js'); assert.equal(add(-4, 7), 3);`,
});

describe('checked grading layout', () => {
  it('keeps twins of the failing tests when twins of passing ones disturb the suite', async () => {
    const runtime = selectRuntime({ warn: () => {} });
    const dataDir = tempDir('fn-data-');
    const built = await buildEnvironment(makeJsEnv({ 'src/math.js': JS_SOURCE, 'tests/add.test.js': ADD_TESTS, 'tests/order.test.js': ORDER_TESTS }), {
      dataDir,
      runtime,
    });
    const f2p = ['toy > add sums', 'toy > add counts up from a negative'];
    const p2p = ['order > mul multiplies', 'order > file lists its tests'];
    const layout = await checkedLayout({
      built,
      runtime,
      dataDir,
      bugPatch: fileDiff('src/math.js', JS_SOURCE, JS_BROKEN),
      fixPatch: fileDiff('src/math.js', JS_BROKEN, JS_SOURCE),
      f2p,
      p2p,
      reportIds: new Set([...f2p, ...p2p]),
      timeoutSec: 30,
    });
    assert.ok(layout, 'a layout survives the check');
    assert.ok(layout.twins.length >= 2, `twins kept: ${layout.twins.length}`);
    assert.deepEqual(
      layout.files.map((f) => f.path),
      ['tests/add.test.js'],
      'only the failing tests file carries twins',
    );
  });
});
