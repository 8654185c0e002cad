import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grade } from '../../src/grading/grade.js';
import type { TestRun } from '../../src/grading/testrun.js';
import type { TestStatus } from '../../src/report/types.js';

function run(tests: Record<string, TestStatus>, extra: Partial<TestRun> = {}): TestRun {
  return {
    outcome: 'completed',
    exitCode: Object.values(tests).some((s) => s === 'failed' || s === 'error') ? 1 : 0,
    exitAgrees: true,
    tests: new Map(Object.entries(tests).map(([id, status]) => [id, { id, status }])),
    durationMs: 1,
    outputTail: '',
    ...extra,
  };
}

describe('grading (SWE-bench v5 rules)', () => {
  it('resolves when every FAIL_TO_PASS and PASS_TO_PASS test passes', () => {
    const g = grade(run({ a: 'passed', b: 'passed', c: 'failed' }), ['a'], ['b']);
    assert.equal(g.resolved, true);
    assert.equal(g.resolution, 'FULL');
  });

  it('counts a missing required test as failed', () => {
    const g = grade(run({ b: 'passed' }), ['a'], ['b']);
    assert.equal(g.resolved, false);
    assert.deepEqual(g.FAIL_TO_PASS.failure, ['a']);
  });

  it('counts a skipped required test as failed, F2P and P2P alike', () => {
    assert.equal(grade(run({ a: 'skipped', b: 'passed' }), ['a'], ['b']).resolved, false);
    assert.equal(grade(run({ a: 'passed', b: 'skipped' }), ['a'], ['b']).resolved, false);
  });

  it('does not believe a report that disagrees with the exit code', () => {
    const g = grade(run({ a: 'passed', b: 'passed' }, { exitCode: 1, exitAgrees: false, reason: 'exit 1 but no failure' }), ['a'], ['b']);
    assert.equal(g.resolved, false);
    assert.deepEqual(g.FAIL_TO_PASS.failure, ['a']);
    assert.equal(g.infraFailure, false);
  });

  it('marks an infrastructure failure as such, never as a plain fail', () => {
    const g = grade(run({}, { outcome: 'infra-error', reason: 'no sign that tests ran' }), ['a'], ['b']);
    assert.equal(g.infraFailure, true);
    assert.equal(g.resolved, false);
  });

  it('gives PARTIAL when some F2P pass and all P2P pass', () => {
    assert.equal(grade(run({ a: 'passed', a2: 'failed', b: 'passed' }), ['a', 'a2'], ['b']).resolution, 'PARTIAL');
    assert.equal(grade(run({ a: 'passed', b: 'failed' }), ['a'], ['b']).resolution, 'NO');
  });

  it('never resolves a task with no FAIL_TO_PASS test', () => {
    assert.equal(grade(run({ b: 'passed' }), [], ['b']).resolved, false);
  });
});
