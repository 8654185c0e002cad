/** The machine-readable report formats a test runner's output can be parsed from. */
export const REPORT_FORMATS = ['tap', 'junit', 'jest-json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export type TestStatus = 'passed' | 'failed' | 'skipped' | 'error';

export interface TestResult {
  /** Unique id: file and suite path, e.g. "tests/test_a.py::TestX::test_y" or "suite > case". */
  id: string;
  status: TestStatus;
  durationMs?: number;
  /** First lines of the failure or error message. */
  message?: string;
  file?: string;
}

export interface ParsedReport {
  tests: TestResult[];
  /** The report's own claim of how many tests ran, where it states one. */
  declaredTotal?: number;
}

/** Adds " [2]", " [3]"… to ids seen before, so same-named tests stay distinct. */
export function dedupeIds(tests: TestResult[]): TestResult[] {
  const seen = new Map<string, number>();
  return tests.map((t) => {
    const n = (seen.get(t.id) ?? 0) + 1;
    seen.set(t.id, n);
    return n === 1 ? t : { ...t, id: `${t.id} [${n}]` };
  });
}

export function firstLines(text: string, max = 8): string {
  return text.split('\n').slice(0, max).join('\n').trim();
}
