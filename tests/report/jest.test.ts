import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJestJson } from '../../src/report/jest.js';
import { fixture, statuses } from '../helpers/fixtures.js';

const expected = {
  't/sample.test.js > math > adds': 'passed',
  't/sample.test.js > math > fails on purpose': 'failed',
  't/sample.test.js > math > skipped one': 'skipped',
  't/sample.test.js > math > todo one': 'skipped',
  't/sample.test.js > math > nested > adds': 'passed',
  't/sample.test.js > math > nested > throws': 'failed',
  't/sample.test.js > other > adds': 'passed',
  't/broken.test.js > (file failed to run)': 'error',
};

describe('Jest/Vitest JSON parser', () => {
  it('reads Jest --json output, with a file that failed to load as an error', () => {
    const report = parseJestJson(fixture('reports/jest-report.json'), '/tmp/fx/jest');
    assert.deepEqual(statuses(report.tests), expected);
    assert.equal(report.declaredTotal, 7);
  });

  it('reads Vitest json reporter output the same way', () => {
    const report = parseJestJson(fixture('reports/vitest-report.json'), '/tmp/fx/vitest');
    assert.deepEqual(statuses(report.tests), expected);
  });

  it('finds the JSON object among other output', () => {
    const text = `PASS something\n${fixture('reports/jest-report.json')}\nDone in 1s`;
    assert.equal(parseJestJson(text, '/tmp/fx/jest').tests.length, 8);
  });

  it('rejects output without a report', () => {
    assert.throws(() => parseJestJson('no json here'), /no JSON object/);
    assert.throws(() => parseJestJson('{"x": 1}'), /no testResults/);
  });
});
