// Jest's --json output, which Vitest's json reporter also writes. Ids are the
// file (relative) and the describe path: "tests/a.test.js > suite > case".
import { relative } from 'node:path';
import { isRecord, isStringArray } from '../util/guards.js';
import { dedupeIds, firstLines, type ParsedReport, stableTestName, type TestResult, type TestStatus } from './types.js';

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

const optionalString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function jestAssertion(v: unknown): JestAssertion {
  if (!isRecord(v) || typeof v.title !== 'string') throw new Error('not a Jest/Vitest JSON report: an assertion result has no title');
  return {
    title: v.title,
    status: optionalString(v.status) ?? '',
    ...(isStringArray(v.ancestorTitles) ? { ancestorTitles: v.ancestorTitles } : {}),
    ...(typeof v.duration === 'number' ? { duration: v.duration } : {}),
    ...(isStringArray(v.failureMessages) ? { failureMessages: v.failureMessages } : {}),
  };
}

function jestFile(v: unknown): JestFile {
  if (!isRecord(v) || typeof v.name !== 'string') throw new Error('not a Jest/Vitest JSON report: a test file result has no name');
  const status = optionalString(v.status);
  const message = optionalString(v.message);
  return {
    name: v.name,
    ...(status !== undefined ? { status } : {}),
    ...(message !== undefined ? { message } : {}),
    ...(Array.isArray(v.assertionResults) ? { assertionResults: v.assertionResults.map(jestAssertion) } : {}),
  };
}

export function parseJestJson(text: string, rootDir?: string): ParsedReport {
  const data = extractJson(text);
  if (!isRecord(data) || !Array.isArray(data.testResults)) throw new Error('not a Jest/Vitest JSON report: no testResults array');
  const tests: TestResult[] = [];
  for (const file of data.testResults.map(jestFile)) {
    const rel = rootDir ? relative(rootDir, file.name) : file.name;
    const assertions = file.assertionResults ?? [];
    for (const a of assertions) {
      // Durations are fields here, but a title may still carry one; ids must not change run to run.
      const id = [rel, ...[...(a.ancestorTitles ?? []), a.title].map(stableTestName)].join(' > ');
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
