// Reports captured from each runner's real output (tests/fixtures/reports/README.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReport, type ReportFormat } from '../../src/report/index.js';
import { fixture } from '../helpers/fixtures.js';

const statuses = (format: ReportFormat, file: string, root?: string) =>
  Object.fromEntries(parseReport(format, fixture(`reports/${file}`), root).tests.map((t) => [t.id, t.status]));

describe('reports of every supported runner', () => {
  it('mocha xunit: file, suites as one title, test; failures and skips', () => {
    const s = statuses('junit', 'mocha-xunit.xml', '/tmp/fx/mocha');
    assert.equal(s['test/a.test.js > math > adds'], 'passed');
    assert.equal(s['test/a.test.js > math > subtracts wrong'], 'failed');
    assert.equal(s['test/a.test.js > math > skipped one'], 'skipped');
    assert.equal(s['test/a.test.js > math nested > deep'], 'passed');
    assert.equal(s['test/b.test.js > A > same name'], 'passed', 'same-named tests in two files stay apart');
  });

  for (const v of ['16', '21']) {
    it(`node-tap ${v}: a subtest is a test, its assertions are not, timings are not in ids`, () => {
      const s = statuses('tap', `node-tap-${v}.txt`);
      assert.equal(s['test/b.test.js > second file'], 'passed');
      assert.equal(s['test/a.test.js > A > same name'], 'passed');
      assert.equal(s['test/a.test.js > B > same name'], 'passed');
      assert.ok(Object.values(s).includes('failed'));
      assert.ok(
        Object.keys(s).every((id) => !/time=|one plus one|five minus three/.test(id)),
        Object.keys(s).join(', '),
      );
    });
  }

  it('ava --tap: file stem and title; skip and todo are not failures', () => {
    const s = statuses('tap', 'ava-tap.txt');
    assert.deepEqual(s, {
      'a › skipped one': 'skipped',
      'a › todo one': 'skipped',
      'a › adds': 'passed',
      'a › subtracts wrong': 'failed',
      'a › prints forged': 'passed',
      'a › same name': 'passed',
      'b › works': 'passed',
      'b › same name': 'passed',
    });
  });

  it('tape: a test per "# name", subtests flat, a skipped subtest skipped, parents without assertions left out', () => {
    const s = statuses('tap', 'tape-stdout.txt');
    assert.equal(s.adds, 'passed');
    assert.equal(s['subtracts wrong'], 'failed');
    assert.equal(s['skipped one'], 'skipped');
    assert.equal(s.math, undefined);
  });

  it('Jest 30 and Vitest 5 JSON', () => {
    const jest = parseReport('jest-json', fixture('reports/jest30-report.json'), '/tmp/fx/jest').tests;
    const vitest = parseReport('jest-json', fixture('reports/vitest5-report.json'), '/tmp/fx/vitest5').tests;
    for (const tests of [jest, vitest]) {
      assert.ok(tests.length >= 5);
      assert.ok(tests.some((t) => t.status === 'failed'));
      assert.ok(
        tests.every((t) => !t.id.startsWith('/')),
        'ids relative to the root',
      );
    }
  });
});
