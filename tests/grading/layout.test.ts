import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { applyLayout, noLayout, planPlacement, readLayout, type Placement } from '../../src/grading/layout.js';
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
const nothing: Placement = { moves: [], groups: [] };
const moved = (moves: Placement['moves']): Placement => ({ moves, groups: [] });

describe('graded layout: writing', () => {
  it('writes copy groups and moves required pytest files under fresh names, with the mode and times of the file they stand in for; folders keep theirs', () => {
    const root = tempDir('layout-');
    mkdirSync(join(root, 'tests'));
    writeFileSync(join(root, 'tests/test_calc.py'), 'def test_add():\n    assert True\n');
    writeFileSync(join(root, 'tests/test_other.py'), 'def test_mul():\n    assert True\n');
    for (const f of ['tests/test_calc.py', 'tests/test_other.py']) chmodSync(join(root, f), 0o640);
    const old = new Date('2020-01-02T03:04:05Z');
    for (const f of ['tests/test_calc.py', 'tests/test_other.py', 'tests']) utimesSync(join(root, f), old, old);
    const copies = ['def test_add():\n    assert 1 == 1\n', 'def test_add():\n    assert 1 == 2\n'];
    const l = layout({
      relocate: true,
      groups: [{ like: 'tests/test_calc.py', contents: copies, graded: { '::test_add': 0 }, decoys: { '::test_add': [1] }, home: 1 }],
    });
    const taken = new Set(['tests/test_calc.py', 'tests/test_other.py']);
    const plan = planPlacement(l, ['tests/test_calc.py::test_add', 'tests/test_other.py::test_mul', 'suite > case'], rng(3), taken);
    assert.equal(plan.moves.length, 1, 'the grouped file is not moved: its copies stand in for it');
    assert.equal(plan.moves[0]!.from, 'tests/test_other.py');
    assert.equal(plan.groups[0]!.length, 2);
    for (const p of [plan.moves[0]!.to, ...plan.groups[0]!]) assert.match(p, /^tests\/test_(alpha|beta|gamma)(_(alpha|beta|gamma))?\.py$/);
    const done = applyLayout(root, l, plan, rng(4));
    assert.deepEqual(done, plan);
    assert.equal(existsSync(join(root, 'tests/test_calc.py')), false, 'the grouped file is gone');
    assert.equal(existsSync(join(root, 'tests/test_other.py')), false, 'moved away');
    for (const rel of [plan.moves[0]!.to, ...plan.groups[0]!]) {
      const st = lstatSync(join(root, rel));
      assert.equal(st.mode & 0o777, 0o640, `${rel} has the mode of the file it stands in for`);
      assert.equal(st.mtime.getTime(), old.getTime(), `${rel} has its time`);
    }
    assert.equal(readFileSync(join(root, plan.moves[0]!.to), 'utf8'), 'def test_mul():\n    assert True\n');
    assert.deepEqual(
      plan.groups[0]!.map((p) => readFileSync(join(root, p), 'utf8')),
      copies,
    );
    assert.equal(lstatSync(join(root, 'tests')).mtime.getTime(), old.getTime(), 'the folder keeps its time');
    const again = planPlacement(l, ['tests/test_calc.py::test_add'], rng(9), new Set(['tests/test_calc.py']));
    assert.notDeepEqual(again.groups[0], plan.groups[0], 'names are drawn anew for every grading');
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
    applyLayout(root, l, nothing, rng(1));
    assert.equal(existsSync(join(root, 'tests/test_x.py')), false);
    assert.equal(existsSync(join(root, 'tests/test_y.py')), false);
    assert.throws(
      () => applyLayout(root, layout({ files: [{ path: '../out.py', content: 'x', like: 'tests/test_link.py' }] }), nothing, rng(1)),
      /unsafe path/,
    );
  });
});

describe('graded layout: reading results back', () => {
  it('maps moved files back and flags results under a moved file’s old name', () => {
    const run = runOf({ 'tests/test_gamma.py::test_add': 'passed', 'tests/test_calc.py::test_add': 'passed' });
    const r = readLayout(run, layout({}), moved([{ from: 'tests/test_calc.py', to: 'tests/test_gamma.py' }]), ['tests/test_calc.py::test_add']);
    assert.deepEqual(r.forged, ['tests/test_calc.py::test_add']);
    assert.deepEqual([...run.tests.keys()], ['tests/test_calc.py::test_add']);
    assert.equal(run.tests.get('tests/test_calc.py::test_add')!.status, 'passed', 'the moved file’s result, not the forged one');
  });

  it('reads a copy group: each test from the copy that holds its graded version, checked twins judged, other versions ignored', () => {
    const l = layout({
      relocate: true,
      groups: [
        {
          like: 'tests/test_calc.py',
          contents: ['a', 'b', 'c'],
          graded: { '::test_add': 2, '::T::test_sub': 0 },
          decoys: { '::test_add': [0, 1], '::T::test_sub': [2] },
          home: 1,
        },
      ],
    });
    const placed: Placement = { moves: [], groups: [['tests/test_alpha.py', 'tests/test_beta.py', 'tests/test_gamma.py']] };
    const run = runOf({
      'tests/test_alpha.py::test_add': 'passed',
      'tests/test_beta.py::test_add': 'failed',
      'tests/test_gamma.py::test_add': 'passed',
      'tests/test_alpha.py::T::test_sub': 'passed',
      'tests/test_beta.py::T::test_sub': 'passed',
      'tests/test_gamma.py::T::test_sub': 'failed',
      'tests/test_alpha.py::test_mul[1-2]': 'failed',
      'tests/test_beta.py::test_mul[1-2]': 'passed',
      'tests/test_gamma.py::test_mul[1-2]': 'failed',
      'tests/test_calc.py::test_add': 'passed',
    });
    const required = ['tests/test_calc.py::test_add', 'tests/test_calc.py::T::test_sub', 'tests/test_calc.py::test_mul[1-2]'];
    const r = readLayout(run, l, placed, required);
    assert.deepEqual(Object.fromEntries([...run.tests].map(([id, t]) => [id, t.status])), {
      'tests/test_calc.py::test_add': 'passed',
      'tests/test_calc.py::T::test_sub': 'passed',
      'tests/test_calc.py::test_mul[1-2]': 'passed',
    });
    assert.deepEqual(r.twins.map((t) => [t.id, t.of, t.status]).sort(), [
      ['tests/test_alpha.py::test_add', 'tests/test_calc.py::test_add', 'passed'],
      ['tests/test_beta.py::test_add', 'tests/test_calc.py::test_add', 'failed'],
      ['tests/test_gamma.py::T::test_sub', 'tests/test_calc.py::T::test_sub', 'failed'],
    ]);
    assert.deepEqual(r.forged, ['tests/test_calc.py::test_add'], 'the grouped file did not exist in the run');
    const silent = readLayout(runOf({ 'tests/test_gamma.py::test_add': 'passed' }), l, placed, required);
    assert.deepEqual(
      silent.twins.filter((t) => t.status === 'missing').map((t) => t.id),
      ['tests/test_alpha.py::test_add', 'tests/test_beta.py::test_add', 'tests/test_gamma.py::T::test_sub'],
      'a twin that never reported is missing',
    );
  });

  it('reads an ava copy group by the names ava gives each copy: its file stem', () => {
    const l = layout({
      groups: [{ like: 'test/core.js', contents: ['a', 'b'], graded: { adds: 1 }, decoys: { adds: [0] }, home: 0, avaPrefix: 'core \u203a ' }],
    });
    const run = runOf({
      'alpha \u203a adds': 'failed',
      'beta-gamma \u203a adds': 'passed',
      'alpha \u203a other': 'passed',
      'beta-gamma \u203a other': 'failed',
    });
    const r = readLayout(run, l, { moves: [], groups: [['test/alpha.js', 'test/beta-gamma.js']] }, ['core \u203a adds', 'core \u203a other']);
    assert.deepEqual(Object.fromEntries([...run.tests].map(([id, t]) => [id, t.status])), { 'core \u203a adds': 'passed', 'core \u203a other': 'passed' });
    assert.deepEqual(
      r.twins.map((t) => [t.id, t.status]),
      [['alpha \u203a adds', 'failed']],
    );
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
    const r = readLayout(run, l, nothing, ['s > a', 's > b']);
    assert.deepEqual(
      r.twins.map((t) => t.status),
      ['failed', 'missing'],
    );
    assert.deepEqual(Object.fromEntries([...run.tests].map(([id, t]) => [id, t.status])), { 's > a': 'passed', 's > b': 'passed' });
    assert.deepEqual(r.forged, []);
  });

  it('flags a repeat of a required name that never repeats, but not names that repeat by nature (tape) or known repeats', () => {
    const forged = readLayout(runOf({ 's > a': 'passed', 's > a [2]': 'failed', other: 'passed', 'other [2]': 'passed' }), layout({}), nothing, ['s > a']);
    assert.deepEqual(forged.forged, ['s > a [2]']);
    const known = readLayout(runOf({ 's > a': 'passed', 's > a [2]': 'failed' }), layout({ repeats: ['s > a [2]'] }), nothing, ['s > a']);
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
    assert.deepEqual(readLayout(run, noLayout(), nothing, ['add sums', 'add sums [2]', 'mul multiplies']).forged, []);
  });
});
