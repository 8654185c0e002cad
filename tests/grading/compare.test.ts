import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareRuns, madeWorse } from '../../src/grading/compare.js';
import type { TestRun } from '../../src/grading/testrun.js';
import type { TestResult } from '../../src/report/index.js';

function run(statuses: Record<string, TestResult['status']>, outcome: TestRun['outcome'] = 'completed'): TestRun {
  const tests = new Map(Object.entries(statuses).map(([id, status]) => [id, { id, status }]));
  return { outcome, exitCode: 0, exitAgrees: true, tests, durationMs: 1, outputTail: '' };
}

describe('comparing test runs before and after a change', () => {
  it('names what the change fixed and broke, and keeps failing or vanished tests as still failing', () => {
    const c = compareRuns(run({ a: 'passed', b: 'failed', c: 'passed', d: 'failed' }), run({ a: 'passed', b: 'passed', c: 'failed' }));
    assert.deepEqual(c.fixed, ['b']);
    assert.deepEqual(c.broken, ['c']);
    assert.equal(c.stillPassing, 1);
    assert.deepEqual(c.stillFailing, ['d'], 'failing before and absent after');
    assert.ok(madeWorse(c));
  });

  it('counts a passing test that vanished, and a suite that no longer completes, as worse', () => {
    assert.deepEqual(compareRuns(run({ a: 'passed' }), run({})).broken, ['a']);
    const crashed = compareRuns(run({ a: 'passed' }), run({}, 'timeout'));
    assert.ok(crashed.runBroken && madeWorse(crashed));
    assert.ok(!madeWorse(compareRuns(run({ a: 'failed' }), run({ a: 'passed' }))));
  });
});
