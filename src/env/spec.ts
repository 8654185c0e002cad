// The environment spec: one versioned, validated file per environment.
// See docs/environments.md for the format and the conventions.

import { REPORT_FORMATS, type ReportFormat } from '../report/types.js';
import { isOneOf, isRecord, isStringArray } from '../util/guards.js';

export { REPORT_FORMATS, type ReportFormat };

export const SPEC_SCHEMA = 'frognano.environment/v1';
export const LANGUAGES = ['javascript', 'typescript', 'python'] as const;

export type Language = (typeof LANGUAGES)[number];

export type SourceSpec = { path: string } | { git: string; ref?: string };

export interface TestSpec {
  /** argv of the test runner; `{python}` and `{report}` are substituted. */
  command: string[];
  report: { format: ReportFormat; from: 'stdout' | 'file' };
  env: Record<string, string>;
  /**
   * Ignored: read so that older specs stay valid. The verifier's canary file
   * was recognisable at run time; honeypots drawn from the project's own
   * tests replace it (docs/verifier.md).
   */
  canary?: string;
}

export interface EnvironmentSpec {
  schema: typeof SPEC_SCHEMA;
  name: string;
  description: string;
  language: Language;
  source: SourceSpec;
  setup: string[];
  layer: string[];
  test: TestSpec;
  testPaths: string[];
  timeoutSec: number;
}

/** A spec that failed validation; every problem names its field and the fix. */
export class SpecError extends Error {
  constructor(
    readonly where: string,
    readonly problems: { field: string; problem: string; fix: string }[],
  ) {
    super(`invalid environment spec ${where}:\n` + problems.map((p) => `  - ${p.field}: ${p.problem}. Fix: ${p.fix}`).join('\n'));
    this.name = 'SpecError';
  }
}

type Problem = { field: string; problem: string; fix: string };

const NAME_RE = /^[a-z0-9][a-z0-9-]{0,62}$/;

function safeRelative(p: string): boolean {
  return p.length > 0 && !p.startsWith('/') && !p.split('/').includes('..');
}

/** Validates raw JSON and returns a typed spec with defaults filled in. */
export function validateSpec(raw: unknown, where = '(inline)'): EnvironmentSpec {
  const problems: Problem[] = [];
  const bad = (field: string, problem: string, fix: string) => problems.push({ field, problem, fix });

  if (!isRecord(raw)) {
    throw new SpecError(where, [{ field: '(root)', problem: 'the spec is not a JSON object', fix: 'write a JSON object as in docs/environments.md' }]);
  }
  const known = ['schema', 'name', 'description', 'language', 'source', 'setup', 'layer', 'test', 'testPaths', 'timeoutSec'];
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) bad(key, 'unknown field', `remove it; known fields are ${known.join(', ')}`);
  }
  if (raw.schema !== SPEC_SCHEMA) bad('schema', `is ${JSON.stringify(raw.schema)}`, `set "schema": "${SPEC_SCHEMA}"`);
  if (typeof raw.name !== 'string' || !NAME_RE.test(raw.name)) {
    bad('name', `${JSON.stringify(raw.name)} is not a valid name`, 'use lowercase letters, digits and dashes, e.g. "my-lib"');
  }
  const description = raw.description ?? '';
  if (typeof description !== 'string') bad('description', 'is not a string', 'write a one-line description');
  if (!isOneOf(LANGUAGES, raw.language)) {
    bad('language', `${JSON.stringify(raw.language)} is not supported`, `use one of ${LANGUAGES.join(', ')}`);
  }

  const source = raw.source;
  if (!isRecord(source)) bad('source', 'is missing', 'add { "path": "repo" } or { "git": "<url>", "ref": "<commit>" }');
  else if ('path' in source) {
    if (typeof source.path !== 'string' || !source.path) bad('source.path', 'is empty', 'give the repository directory, relative to the spec file');
  } else if ('git' in source) {
    if (typeof source.git !== 'string' || !source.git) bad('source.git', 'is empty', 'give a git URL or local repository path');
    if (source.ref !== undefined && typeof source.ref !== 'string') bad('source.ref', 'is not a string', 'give a commit, tag or branch');
  } else bad('source', 'has neither "path" nor "git"', 'add { "path": "repo" } or { "git": "<url>" }');

  const setup = raw.setup ?? [];
  if (!isStringArray(setup)) bad('setup', 'is not a list of shell commands', 'write e.g. ["npm ci --no-audit --no-fund"] or []');
  const layer = raw.layer ?? [];
  if (!isStringArray(layer) || !layer.every(safeRelative)) {
    bad('layer', 'must be a list of relative paths inside the repository', 'write e.g. ["node_modules"] or []');
  }

  const test = raw.test;
  if (!isRecord(test)) bad('test', 'is missing', 'add { "command": [...], "report": { "format": "tap", "from": "stdout" } }');
  else {
    if (!isStringArray(test.command) || test.command.length === 0) {
      bad('test.command', 'must be a non-empty argv list', 'write e.g. ["node", "--test-reporter=tap", "tests/run-all.js"]');
    } else if (/^(npm|yarn|pnpm)$/.test(test.command[0]!) && /^(test|run)$/.test(test.command[1] ?? '')) {
      bad('test.command', 'runs a package script, which may also lint or build', 'call the test runner directly with a machine-readable reporter');
    }
    const report = test.report;
    if (!isRecord(report)) bad('test.report', 'is missing', 'add { "format": "tap" | "junit" | "jest-json", "from": "stdout" | "file" }');
    else {
      if (!isOneOf(REPORT_FORMATS, report.format)) {
        bad('test.report.format', `${JSON.stringify(report.format)} is not supported`, `use one of ${REPORT_FORMATS.join(', ')}`);
      }
      if (report.from !== 'stdout' && report.from !== 'file') bad('test.report.from', `is ${JSON.stringify(report.from)}`, 'use "stdout" or "file"');
      if (report.from === 'file' && isStringArray(test.command) && !test.command.some((a) => a.includes('{report}'))) {
        bad('test.command', 'the report is read from a file but no argument names it', 'pass the report path as {report}, e.g. "--junitxml={report}"');
      }
    }
    if (
      test.canary !== undefined &&
      !(typeof test.canary === 'string' && safeRelative(test.canary) && test.canary.includes('{nonce}') && /\.(py|[cm]?[jt]s)$/.test(test.canary))
    ) {
      bad(
        'test.canary',
        `${JSON.stringify(test.canary)} is not a relative .py/.js/.ts path with {nonce}`,
        'write e.g. "tests/test_zz_canary_{nonce}.py", or leave it out',
      );
    }
    if (test.env !== undefined && !(isRecord(test.env) && Object.values(test.env).every((v) => typeof v === 'string'))) {
      bad('test.env', 'must map names to string values', 'write e.g. { "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1" }');
    }
  }

  if (!isStringArray(raw.testPaths) || raw.testPaths.length === 0 || !raw.testPaths.every(safeRelative)) {
    bad('testPaths', 'must be a non-empty list of relative globs', 'write e.g. ["tests/**"]');
  }
  const timeoutSec = raw.timeoutSec ?? 60;
  if (typeof timeoutSec !== 'number' || !(timeoutSec > 0 && timeoutSec <= 3600)) {
    bad('timeoutSec', `${JSON.stringify(timeoutSec)} is not a number of seconds in (0, 3600]`, 'write e.g. 60');
  }

  if (problems.length > 0) throw new SpecError(where, problems);
  // Every field was checked above; these narrow the types for the compiler.
  const t = isRecord(test) ? test : {};
  const report = isRecord(t.report) ? t.report : {};
  const from = report.from === 'file' ? 'file' : 'stdout';
  const src = sourceOf(source);
  if (
    typeof raw.name !== 'string' ||
    typeof description !== 'string' ||
    !isOneOf(LANGUAGES, raw.language) ||
    !src ||
    !isStringArray(setup) ||
    !isStringArray(layer) ||
    !isStringArray(t.command) ||
    !isOneOf(REPORT_FORMATS, report.format) ||
    !isStringArray(raw.testPaths) ||
    typeof timeoutSec !== 'number'
  ) {
    throw new SpecError(where, [{ field: 'spec', problem: 'changed while it was checked', fix: 'check it again' }]);
  }
  const env = Object.fromEntries(Object.entries(isRecord(t.env) ? t.env : {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return {
    schema: SPEC_SCHEMA,
    name: raw.name,
    description,
    language: raw.language,
    source: src,
    setup,
    layer,
    test: { command: t.command, report: { format: report.format, from }, env, ...(typeof t.canary === 'string' ? { canary: t.canary } : {}) },
    testPaths: raw.testPaths,
    timeoutSec,
  };
}

function sourceOf(x: unknown): SourceSpec | null {
  if (!isRecord(x)) return null;
  if (typeof x.path === 'string') return { path: x.path };
  if (typeof x.git === 'string') return { git: x.git, ...(typeof x.ref === 'string' ? { ref: x.ref } : {}) };
  return null;
}
