import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildEnvironment } from '../../src/env/build.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { checkedLayout } from '../../src/taskpilot/grading-check.js';
import { fileDiff } from '../../src/util/diff.js';
import { makeJsEnv, nodeTests } from '../helpers/env.js';
import { JS_BROKEN, JS_SOURCE, PY_BROKEN, PY_SOURCE, pythonEnv } from '../helpers/task.js';
import { verify } from '../../src/verifier/verify.js';
import type { Task } from '../../src/task/task.js';
import { TASK_SCHEMA } from '../../src/task/task.js';
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

  it('refuses copy groups whose twins disturb a real test in some order of names, so the fix earns 1 under every grading', async () => {
    // test_add claims its name in process-wide state, as a logger named after the test does: a copy of it run first
    // makes the real one fail. Whether a copy runs first depends on the names a grading draws.
    const tests = [
      'import builtins',
      'from calc import add, mul',
      '',
      'def test_add(request):',
      "    seen = builtins.__dict__.setdefault('_claimed', set())",
      '    assert request.node.name not in seen',
      '    seen.add(request.node.name)',
      '    assert add(2, 3) == 5',
      '',
      'def test_add_negative():',
      '    assert add(-4, 7) == 3',
      '',
      'def test_mul():',
      '    assert mul(2, 3) == 6',
      '',
    ].join('\n');
    const runtime = selectRuntime({ warn: () => {} });
    const dataDir = tempDir('fn-data-');
    const built = await buildEnvironment(pythonEnv(tests), { dataDir, runtime });
    const f2p = ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_add_negative'];
    const p2p = ['tests/test_calc.py::test_mul'];
    // Three bugs: the check's names are drawn from the bug, so each is another draw.
    for (const broken of [PY_BROKEN, PY_SOURCE.replace('a + b', 'a * b'), PY_SOURCE.replace('a + b', 'a + b + 1')]) {
      const bugPatch = fileDiff('calc.py', PY_SOURCE, broken);
      const fixPatch = fileDiff('calc.py', broken, PY_SOURCE);
      const layout = await checkedLayout({ built, runtime, dataDir, bugPatch, fixPatch, f2p, p2p, reportIds: new Set([...f2p, ...p2p]), timeoutSec: 30 });
      assert.equal(layout?.groups?.length ?? 0, 0, `no copy group survives the check (bug ${broken.split('\n')[1]!.trim()})`);
      const task: Task = {
        schema: TASK_SCHEMA,
        id: 'pytoy.procedural__claims',
        env: { name: built.env.spec.name, hash: built.hash, spec: built.env.spec },
        bugPatch,
        fixPatch,
        instruction: 'add is wrong.',
        FAIL_TO_PASS: f2p,
        PASS_TO_PASS: p2p,
        hiddenFiles: [],
        ...(layout ? { grading: layout } : {}),
        knobs: { bugs: 1, hint: 'full', visibility: 'visible', families: ['operations'] },
        provenance: { strategy: 'procedural', edits: [], seeds: [0] },
        stats: { createdAt: new Date(0).toISOString() },
      };
      for (let i = 0; i < 2; i++) assert.equal((await verify(task, fixPatch, { built, runtime, dataDir })).reward, 1, `grading ${i}`);
    }
  });
});
