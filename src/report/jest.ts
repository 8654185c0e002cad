// Jest's --json output, which Vitest's json reporter also writes. Ids are the
// file (relative) and the describe path: "tests/a.test.js > suite > case".
import { relative } from 'node:path';
import { dedupeIds, firstLines, type ParsedReport, type TestResult, type TestStatus } from './types.js';

interface JestAssertion {
  ancestorTitles?: string[];
  title: string;
  status: string;
  duration?: number | null;
  failureMessages?: string[];
}

interface JestFile {
  name: string;
  status?: string;
  message?: string;
  assertionResults?: JestAssertion[];
}

const STATUS: Record<string, TestStatus> = {
  passed: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  todo: 'skipped',
  disabled: 'skipped',
  focused: 'passed',
};

/** Finds the JSON object in output that may carry other text around it. */
function extractJson(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end < start) throw new Error('not a Jest/Vitest JSON report: no JSON object found');
  return JSON.parse(text.slice(start, end + 1));
}

export function parseJestJson(text: string, rootDir?: string): ParsedReport {
  const data = extractJson(text) as { testResults?: JestFile[]; numTotalTests?: number };
  if (!Array.isArray(data.testResults)) throw new Error('not a Jest/Vitest JSON report: no testResults array');
  const tests: TestResult[] = [];
  for (const file of data.testResults) {
    const rel = rootDir ? relative(rootDir, file.name) : file.name;
    const assertions = file.assertionResults ?? [];
    for (const a of assertions) {
      const id = [rel, ...(a.ancestorTitles ?? []), a.title].join(' > ');
      const status = STATUS[a.status] ?? 'error';
      const message = a.failureMessages?.length ? firstLines(a.failureMessages.join('\n')) : undefined;
      tests.push({
        id,
        status,
        file: rel,
        ...(typeof a.duration === 'number' ? { durationMs: a.duration } : {}),
        ...(message ? { message } : {}),
      });
    }
    // A file that failed to load has no assertions but a message: count it as an error.
    if (assertions.length === 0 && file.status === 'failed') {
      tests.push({ id: `${rel} > (file failed to run)`, status: 'error', file: rel, message: firstLines(file.message ?? '') });
    }
  }
  return {
    tests: dedupeIds(tests),
    ...(typeof data.numTotalTests === 'number' ? { declaredTotal: data.numTotalTests } : {}),
  };
}
