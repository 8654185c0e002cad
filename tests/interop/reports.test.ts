// The report reader exported tasks ship (assets/exports/frognano_reports.py)
// against FrogNano's own parsers (src/report/) on recorded reports: the same
// id and status for every test, so exported grading judges the same tests.
// Known differences, left out here: a suite's or file's own error entry
// (a failed hook, a file that did not load), which the required tests'
// own failures already show, and the tap and tape runners' report shapes,
// which no starter environment uses.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseReport, type ReportFormat } from '../../src/report/index.js';
import { exportAssetsDir } from '../../src/util/paths.js';

const CASES: [string, ReportFormat][] = [
  ['node-tap.txt', 'tap'],
  ['ava-tap.txt', 'tap'],
  ['pytest-xunit1.xml', 'junit'],
  ['pytest-xunit2.xml', 'junit'],
  ['pytest-collection-error.xml', 'junit'],
  ['mocha-xunit.xml', 'junit'],
  ['jest-report.json', 'jest-json'],
  ['vitest-report.json', 'jest-json'],
];

function pythonReading(format: ReportFormat, file: string): Record<string, string> {
  const script =
    'import json, sys; sys.path.insert(0, sys.argv[1]); from frognano_reports import parse; print(json.dumps(parse(sys.argv[2], open(sys.argv[3]).read())))';
  return JSON.parse(execFileSync('python3', ['-c', script, exportAssetsDir, format, file], { encoding: 'utf8' })) as Record<string, string>;
}

describe('the exported report reader', () => {
  for (const [name, format] of CASES) {
    it(`reads ${name} as src/report does`, () => {
      const file = join('tests', 'fixtures', 'reports', name);
      const ours = parseReport(format, readFileSync(file, 'utf8'), '/workspace').tests.filter((t) => t.status !== 'error' || format === 'junit');
      const theirs = pythonReading(format, file);
      assert.ok(ours.length > 0);
      assert.deepEqual(Object.fromEntries(ours.map((t) => [t.id, t.status])), theirs);
    });
  }

  it('prints the lines SWE-bench reads, a skipped test left out', () => {
    const out = execFileSync('python3', [join(exportAssetsDir, 'frognano_reports.py'), 'junit', join('tests', 'fixtures', 'reports', 'pytest-xunit1.xml')], {
      encoding: 'utf8',
    });
    const lines = out.trim().split('\n');
    assert.ok(
      lines.every((l) => /^\[(PASSED|FAILED)\] \S/.test(l)),
      out,
    );
    const ours = parseReport('junit', readFileSync(join('tests', 'fixtures', 'reports', 'pytest-xunit1.xml'), 'utf8')).tests;
    assert.equal(lines.length, ours.filter((t) => t.status !== 'skipped').length);
  });
});
