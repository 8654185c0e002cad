import { parseJestJson } from './jest.js';
import { parseJunit } from './junit.js';
import { parseTap } from './tap.js';
import type { ParsedReport, ReportFormat } from './types.js';

export { REPORT_FORMATS } from './types.js';
export type { ParsedReport, ReportFormat, TestResult, TestStatus } from './types.js';

/** Parses a runner's machine-readable report into a status per test. */
export function parseReport(format: ReportFormat, text: string, rootDir?: string): ParsedReport {
  switch (format) {
    case 'tap':
      return parseTap(text);
    case 'junit':
      return parseJunit(text, rootDir);
    case 'jest-json':
      return parseJestJson(text, rootDir);
  }
}
