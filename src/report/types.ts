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

// A duration: "12ms", "1.2s", "12 ms", "340µs".
const DURATION = String.raw`\d+(?:\.\d+)?\s*(?:ms|s|sec|µs|us|ns)`;
// Run-varying text some reporters put at the end of a test's name, repeated:
//   node-tap's directive          "adds # time=12.345ms"
//   mocha-style duration suffixes "adds (12ms)", "adds [1.2 s]" (seen in JUnit names)
// Only a duration on its own in the suffix is taken: "handles 12 items" and
// "times out after 100ms" are names, not timings, and stay as written.
const RUN_VARYING_SUFFIX = new RegExp(String.raw`(?:\s+#\s*time=${DURATION}|\s*\(${DURATION}\)|\s*\[${DURATION}\])\s*$`, 'i');

/**
 * A test's name with run-varying text (durations) stripped from its end.
 * Ids are compared across runs, so a name that carries its own timing would
 * give the same test a new id each run and make it look flaky or new.
 */
export function stableTestName(name: string): string {
  let out = name;
  for (let prev = ''; prev !== out; ) {
    prev = out;
    out = out.replace(RUN_VARYING_SUFFIX, '');
  }
  return out || name; // a name that is all timing is kept: it is all there is
}
