import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { applyLayout, noLayout, planRelocation, readLayout } from '../../src/grading/layout.js';
import type { TestRun } from '../../src/grading/testrun.js';
import { parseTap } from '../../src/report/tap.js';
import type { GradingLayout } from '../../src/task/task.js';
import { rng } from '../../src/util/rng.js';
import { fixture } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/workspace.js';

function runOf(results: Record<string, 'passed' | 'failed'>): TestRun {
  return {
    outcome: 'completed',
    exitCode: 1,
    exitAgrees: true,
    durationMs: 1,
    outputTail: '',
    tests: new Map(Object.entries(results).map(([id, status]) => [id, { id, status }])),
  };
}

const layout = (over: Partial<GradingLayout>): GradingLayout => ({ ...noLayout(), words: ['alpha', 'beta', 'gamma'], ...over });

describe('graded layout: writing', () => {
  it('writes honeypot files and moves required pytest files with the mode and times of the file they copy; folders keep theirs', () => {
    const root = tempDir('layout-');
    mkdirSync(join(root, 'tests'));
    writeFileSync(join(root, 'tests/test_calc.py'), 'def test_add():\n    assert True\n');
    chmodSync(join(root, 'tests/test_calc.py'), 0o640);
    const old = new Date('2020-01-02T03:04:05Z');
    utimesSync(join(root, 'tests/test_calc.py'), old, old);
    utimesSync(join(root, 'tests'), old, old);
    const l = layout({
      relocate: true,
      files: [{ path: 'tests/test_beta.py', content: 'def test_add():\n    assert False\n', like: 'tests/test_calc.py' }],
      copies: ['tests/test_beta.py'],
    });
    const taken = new Set(['tests/test_calc.py', 'tests/test_beta.py']);
    const moves = planRelocation(l, ['tests/test_calc.py::test_add', 'suite > case'], rng(3), taken);
    assert.equal(moves.length, 1);
    assert.match(moves[0]!.to, /^tests\/test_(alpha|beta|gamma)(_(alpha|beta|gamma))?\.py$/);
    const done = applyLayout(root, l, moves, rng(4));
    assert.deepEqual(done, moves);
    assert.equal(existsSync(join(root, 'tests/test_calc.py')), false, 'moved away');
    for (const rel of [moves[0]!.to, 'tests/test_beta.py']) {
      const st = lstatSync(join(root, rel));
      assert.equal(st.mode & 0o777, 0o640, `${rel} has the copied file's mode`);
      assert.equal(st.mtime.getTime(), old.getTime(), `${rel} has the copied file's time`);
    }
    assert.equal(readFileSync(join(root, moves[0]!.to), 'utf8'), 'def test_add():\n    assert True\n');
    assert.equal(lstatSync(join(root, 'tests')).mtime.getTime(), old.getTime(), 'the folder keeps its time');
  });

  it('skips a file whose model is missing or a link, and never writes through a link', () => {
    const root = tempDir('layout-');
    mkdirSync(join(root, 'tests'));
    symlinkSync('/etc/hostname', join(root, 'tests/test_link.py'));
    const l = layout({
      files: [
        { path: 'tests/test_x.py', content: 'x', like: 'tests/test_link.py' },
        { path: 'tests/test_y.py', content: 'y', like: 'tests/test_gone.py' },
      ],
    });
    applyLayout(root, l, [], rng(1));
    assert.equal(existsSync(join(root, 'tests/test_x.py')), false);
    assert.equal(existsSync(join(root, 'tests/test_y.py')), false);
    assert.throws(() => applyLayout(root, layout({ files: [{ path: '../out.py', content: 'x', like: 'tests/test_link.py' }] }), [], rng(1)), /unsafe path/);
  });
});

describe('graded layout: reading results back', () => {
  it('maps moved files back, takes out twins and copies, and flags results under a moved file’s old name', () => {
    const l = layout({ twins: [{ id: 'tests/test_beta.py::test_add', of: 'tests/test_calc.py::test_add' }], copies: ['tests/test_beta.py'] });
    const run = runOf({
      'tests/test_gamma.py::test_add': 'passed',
      'tests/test_beta.py::test_add': 'failed',
      'tests/test_beta.py::test_decoy': 'passed',
      'tests/test_calc.py::test_add': 'passed',
    });
    const r = readLayout(run, l, [{ from: 'tests/test_calc.py', to: 'tests/test_gamma.py' }], ['tests/test_calc.py::test_add']);
    assert.deepEqual(r.twins, [{ id: 'tests/test_beta.py::test_add', of: 'tests/test_calc.py::test_add', status: 'failed' }]);
    assert.deepEqual(r.forged, ['tests/test_calc.py::test_add']);
    assert.deepEqual([...run.tests.keys()], ['tests/test_calc.py::test_add']);
    assert.equal(run.tests.get('tests/test_calc.py::test_add')!.status, 'passed', 'the moved file’s result, not the forged one');
  });

  it('puts a test that ran after its twin back under its own id, and reports a twin that never ran as missing', () => {
    const l = layout({
      twins: [
        { id: 's > a', of: 's > a' },
        { id: 's > b [2]', of: 's > b' },
      ],
      renamed: { 's > a [2]': 's > a' },
    });
    const run = runOf({ 's > a': 'failed', 's > a [2]': 'passed', 's > b': 'passed' });
    const r = readLayout(run, l, [], ['s > a', 's > b']);
    assert.deepEqual(
      r.twins.map((t) => t.status),
      ['failed', 'missing'],
    );
    assert.deepEqual(Object.fromEntries([...run.tests].map(([id, t]) => [id, t.status])), { 's > a': 'passed', 's > b': 'passed' });
    assert.deepEqual(r.forged, []);
  });

  it('flags a repeat of a required name that never repeats, but not names that repeat by nature (tape) or known repeats', () => {
    const forged = readLayout(runOf({ 's > a': 'passed', 's > a [2]': 'failed', other: 'passed', 'other [2]': 'passed' }), layout({}), [], ['s > a']);
    assert.deepEqual(forged.forged, ['s > a [2]']);
    const known = readLayout(runOf({ 's > a': 'passed', 's > a [2]': 'failed' }), layout({ repeats: ['s > a [2]'] }), [], ['s > a']);
    assert.deepEqual(known.forged, []);
    // A saved tape report: "add sums" is the name of two tests; a run with a third is not forged.
    const tape = parseTap(fixture('reports/tape.txt'));
    const run: TestRun = {
      outcome: 'completed',
      exitCode: 1,
      exitAgrees: true,
      durationMs: 1,
      outputTail: '',
      tests: new Map(tape.tests.map((t) => [t.id, t])),
    };
    run.tests.set('add sums [3]', { id: 'add sums [3]', status: 'passed' });
    assert.deepEqual(readLayout(run, noLayout(), [], ['add sums', 'add sums [2]', 'mul multiplies']).forged, []);
  });
});
