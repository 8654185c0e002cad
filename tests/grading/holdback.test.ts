import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agentWorkspace } from '../../src/grading/agent-view.js';
import { chooseHeldBack, withoutHeldBack } from '../../src/grading/holdback.js';
import { validateSpec } from '../../src/env/spec.js';
import { rng } from '../../src/util/rng.js';
import { toyTask } from '../helpers/task.js';
import { makeSnapshot } from '../helpers/workspace.js';

const PY_TESTS = `from lib import f


def test_one():
    assert f(1) == 1


def test_two():
    assert f(2) == 2


class TestMore:
    def test_three(self):
        assert f(3) == 3


def test_four():
    assert f(4) == 4
`;

const spec = validateSpec({
  schema: 'frognano.environment/v1',
  name: 'hb',
  language: 'python',
  source: { path: 'repo' },
  test: { command: ['{python}', '-m', 'pytest', '--junitxml={report}'], report: { format: 'junit', from: 'file' } },
  testPaths: ['tests/**'],
});

describe('held-back tests', () => {
  const snapshot = makeSnapshot({ 'lib.py': 'def f(x):\n    return x\n', 'tests/test_lib.py': PY_TESTS });
  const id = (name: string) => `tests/test_lib.py::${name}`;

  it('holds back none of a single failing test, one of two or three, and always leaves one visible', async () => {
    assert.deepEqual(await chooseHeldBack(snapshot, spec, [id('test_one')], rng(1)), []);
    assert.deepEqual(await chooseHeldBack(snapshot, spec, [id('test_one[1]'), id('test_one[2]')], rng(1)), [], 'two parameters of one test are one test');
    for (let seed = 0; seed < 10; seed++) {
      const two = await chooseHeldBack(snapshot, spec, [id('test_one'), id('TestMore::test_three')], rng(seed));
      assert.equal(two.length, 1);
      const all = [id('test_one'), id('test_two'), id('TestMore::test_three'), id('test_four')];
      assert.equal((await chooseHeldBack(snapshot, spec, all, rng(seed))).length, 1);
    }
    assert.deepEqual(
      await chooseHeldBack(snapshot, spec, [id('test_one'), 'tests/test_gone.py::test_x'], rng(2)),
      [id('test_one')],
      'an unfound test stays visible',
    );
  });

  it('cuts held-back tests out of the agent’s copy of their file, leaving the rest intact', async () => {
    const files = await withoutHeldBack(snapshot, spec, [id('TestMore::test_three'), id('test_one')]);
    const text = files['tests/test_lib.py']!;
    assert.doesNotMatch(text, /test_one|test_three|f\(3\)/);
    assert.match(text, /class TestMore:\n\s+pass/);
    assert.match(text, /def test_two\(\):\n    assert f\(2\) == 2/);
    assert.match(text, /def test_four/);
  });

  it('the agent works on a copy without the held-back test, and grading has it back', async () => {
    const t = await toyTask('javascript', { heldBack: true, grading: false });
    const ws = await agentWorkspace(t.task, t.built, t.runtime, t.dataDir);
    try {
      const seen = readFileSync(join(ws.root, 'tests/math.test.js'), 'utf8');
      assert.doesNotMatch(seen, /add counts up from a negative/);
      assert.match(seen, /add sums/);
      assert.equal(await ws.diff(), '', 'the cut is part of the agent’s starting commit, not of its change');
    } finally {
      ws.dispose();
    }
    assert.match(readFileSync(join(t.built.snapshot, 'tests/math.test.js'), 'utf8'), /add counts up from a negative/);
  });
});
