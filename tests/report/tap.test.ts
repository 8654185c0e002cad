import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTap } from '../../src/report/tap.js';
import { fixture, statuses } from '../helpers/fixtures.js';

describe('TAP parser (node:test output)', () => {
  it('gives a status per test with suite paths, skips, todos, failures and hook failures', () => {
    const report = parseTap(fixture('reports/node-tap.txt'));
    assert.deepEqual(statuses(report.tests), {
      'math > adds': 'passed',
      'math > fails on purpose': 'failed',
      'math > skipped one': 'skipped',
      'math > todo one': 'skipped',
      'math > nested > adds': 'passed',
      'math > nested > throws': 'failed',
      'hooks > never really runs': 'failed',
      hooks: 'error', // the suite's own failure (its before hook) is recorded too
      'other > adds': 'passed',
      'other > name with # hash and \\ backslash': 'passed',
      'math > adds [2]': 'passed',
    });
    assert.equal(report.declaredTotal, 10);
  });

  it('keeps same-named tests in different suites and files apart', () => {
    const ids = parseTap(fixture('reports/node-tap.txt')).tests.map((t) => t.id);
    for (const id of ['math > adds', 'math > nested > adds', 'other > adds', 'math > adds [2]']) assert.ok(ids.includes(id), id);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('carries the failure message and duration', () => {
    const t = parseTap(fixture('reports/node-tap.txt')).tests.find((x) => x.id === 'math > nested > throws')!;
    assert.match(t.message ?? '', /boom/);
    assert.ok((t.durationMs ?? -1) >= 0);
  });

  it('reads output where a test file failed to import (the tests of that file are absent)', () => {
    const report = parseTap(fixture('reports/node-tap-import-error.txt'));
    assert.equal(report.tests.length, 11);
    assert.ok(report.tests.every((t) => !t.id.includes('nope')));
  });

  it('reads the multi-process output of node --test', () => {
    const report = parseTap(fixture('reports/node-tap-multiprocess.txt'));
    assert.equal(statuses(report.tests)['math > nested > throws'], 'failed');
    assert.equal(report.tests.length, 11);
  });

  it('keeps the tests of a parent that never closed (a crash mid-run)', () => {
    const text = ['TAP version 13', '# Subtest: outer', '    # Subtest: first', '    ok 1 - first', '    # Subtest: second', '    not ok 2 - second'].join(
      '\n',
    );
    assert.deepEqual(statuses(parseTap(text).tests), { 'outer > first': 'passed', 'outer > second': 'failed' });
  });

  it('rejects text that is not TAP', () => {
    assert.throws(() => parseTap('Error: cannot find module\n    at x (y.js:1:1)'), /not a TAP report/);
  });
});

describe('TAP parser (tape output)', () => {
  it('names each test by its "# name" comment, not by its assertions, so ids carry no assertion numbering', () => {
    const { tests } = parseTap(fixture('reports/tape.txt'));
    assert.deepEqual(
      tests.map((t) => [t.id, t.status]),
      [
        ['add sums', 'failed'],
        ['mul multiplies', 'passed'],
        ['add sums [2]', 'passed'],
      ],
    );
    assert.equal(tests[0]!.message, 'should be strictly equal\nexpected: 5\nactual: -1', 'the assertion, then its YAML block');
  });
});

describe('TAP parser (node-tap output): ids stable across runs', () => {
  const run = (t1: string, t2: string, total: string) =>
    [
      // node-tap 21's shape: subtests announced, their assertions and skipped subtests not.
      'TAP version 14',
      '# Subtest: math',
      '    # Subtest: adds',
      '        ok 1 - should be equal',
      '        1..1',
      `    ok 1 - adds # time=${t1}`,
      '    # Subtest: handles 12 items',
      '        ok 1 - should be equal',
      '        1..1',
      '    ok 2 - handles 12 items # time=0.4ms',
      '    ok 3 - not yet # SKIP no backend',
      '    ok 4 - later # TODO write it',
      '    1..4',
      `ok 1 - math # time=${t2}`,
      '1..1',
      `# time=${total}`,
    ].join('\n');

  it('gives the same test the same id when only its "# time=" differs', () => {
    const a = parseTap(run('12.345ms', '20.1ms', '101.2ms')).tests;
    const b = parseTap(run('3ms', '1.5s', '2s')).tests;
    assert.deepEqual(
      a.map((t) => t.id),
      b.map((t) => t.id),
    );
    assert.ok(a.some((t) => t.id === 'math > adds'));
  });

  it('leaves names that merely contain numbers alone, and still reads SKIP and TODO', () => {
    assert.deepEqual(statuses(parseTap(run('1ms', '2ms', '3ms')).tests), {
      'math > adds': 'passed',
      'math > handles 12 items': 'passed',
      'math > not yet': 'skipped',
      'math > later': 'skipped',
    });
  });

  it('does not take the trailing "# time=" comment of flat output for a test', () => {
    const flat = ['TAP version 13', '# adds', 'ok 1 - should be equal # time=1.2ms', '1..1', '# time=5.5ms'].join('\n');
    assert.deepEqual(statuses(parseTap(flat).tests), { adds: 'passed' });
  });
});

describe('old node-tap buffered subtests', () => {
  it('reads "ok 1 - file # time=... {" with its points below as one test, named without the timing', () => {
    const run = (ms: string, second: 'ok' | 'not ok') =>
      parseTap(
        ['TAP version 13', `ok 1 - test.js # time=${ms}ms {`, '    ok 1 - isArray', `    ${second} 2 - isDate`, '    1..2', '}', '1..1', `# time=${ms}ms`].join(
          '\n',
        ),
      ).tests;
    assert.deepEqual(run('21.934', 'ok'), [{ id: 'test.js', status: 'passed' }]);
    const failed = run('25.593', 'not ok');
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.id, 'test.js');
    assert.equal(failed[0]!.status, 'failed');
    assert.match(failed[0]!.message ?? '', /isDate/);
  });
});
