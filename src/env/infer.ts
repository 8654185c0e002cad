// `env add`: turn a user's repository into an environment spec. A spec file in
// the repository wins; otherwise the language, test runner, setup and test
// paths are inferred from its files, and what cannot be inferred is an error
// that names the flag to pass.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UserError } from '../util/errors.js';
import { SPEC_FILE } from './load.js';
import { validateSpec, type EnvironmentSpec, type Language, type ReportFormat } from './spec.js';
import { isRecord } from '../util/guards.js';

export interface InferOptions {
  name?: string;
  language?: Language;
  /** A full test command, split on spaces; it overrides the inferred one. */
  testCommand?: string;
  report?: ReportFormat;
  testPaths?: string[];
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isRecord(data) ? data : null;
  } catch {
    return null;
  }
}

function hasFile(dir: string, pred: (name: string) => boolean, depth = 3): boolean {
  if (depth < 0) return false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    if (entry.isDirectory() ? hasFile(join(dir, entry.name), pred, depth - 1) : pred(entry.name)) return true;
  }
  return false;
}

export function detectLanguage(dir: string): Language | null {
  if (existsSync(join(dir, 'package.json'))) {
    return existsSync(join(dir, 'tsconfig.json')) || hasFile(dir, (n) => /\.tsx?$/.test(n) && !n.endsWith('.d.ts')) ? 'typescript' : 'javascript';
  }
  if (['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'].some((f) => existsSync(join(dir, f)))) return 'python';
  if (hasFile(dir, (n) => n.endsWith('.py'))) return 'python';
  return null;
}

function defaultName(dir: string): string {
  return (
    basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'repo'
  );
}

interface Inferred {
  setup: string[];
  layer: string[];
  command: string[];
  report: ReportFormat;
  from: 'stdout' | 'file';
  env: Record<string, string>;
  testPaths: string[];
}

function existingPaths(dir: string, candidates: string[]): string[] {
  return candidates.filter((c) => existsSync(join(dir, c.replace(/\/\*\*$/, ''))));
}

function inferJs(dir: string): Inferred {
  const pkg = readJson(join(dir, 'package.json')) ?? {};
  const deps = { ...(isRecord(pkg.dependencies) ? pkg.dependencies : {}), ...(isRecord(pkg.devDependencies) ? pkg.devDependencies : {}) };
  const hasDeps = Object.keys(deps).length > 0;
  const setup = hasDeps ? [existsSync(join(dir, 'package-lock.json')) ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund'] : [];
  const layer = hasDeps ? ['node_modules'] : [];
  const testPaths = existingPaths(dir, ['test/**', 'tests/**', '__tests__/**', 'spec/**']);
  const paths = testPaths.length ? testPaths : ['**/*.test.*', '**/*.spec.*'];
  if (deps.vitest) {
    return {
      setup,
      layer,
      command: ['node', 'node_modules/vitest/vitest.mjs', 'run', '--reporter=json', `--outputFile={report}`],
      report: 'jest-json',
      from: 'file',
      env: {},
      testPaths: paths,
    };
  }
  if (deps.jest) {
    return {
      setup,
      layer,
      command: ['node', 'node_modules/jest/bin/jest.js', '--ci', '--json', `--outputFile={report}`],
      report: 'jest-json',
      from: 'file',
      env: {},
      testPaths: paths,
    };
  }
  const dirs = testPaths.map((p) => p.replace(/\/\*\*$/, ''));
  if (dirs.length === 0) return { setup, layer, command: [], report: 'tap', from: 'stdout', env: {}, testPaths: paths };
  const loader = existsSync(join(dir, 'tsconfig.json')) && deps.tsx ? ['--import', 'tsx'] : [];
  // TAP to the report file for grading (what test code prints cannot reach it) and to stdout for the agent.
  const tap = ['--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=tap', '--test-reporter-destination={report}'];
  return { setup, layer, command: ['node', ...loader, '--test', ...tap, ...dirs], report: 'tap', from: 'file', env: {}, testPaths: paths };
}

function inferPython(dir: string): Inferred {
  const testPaths = existingPaths(dir, ['tests/**', 'test/**']);
  const paths = testPaths.length ? testPaths : ['**/test_*.py', '**/*_test.py'];
  const reqs = existsSync(join(dir, 'requirements.txt'));
  return {
    // Third-party packages go into a layer directory put on PYTHONPATH.
    setup: reqs ? ['{python} -m pip install --quiet --target .pydeps -r requirements.txt'] : [],
    layer: reqs ? ['.pydeps'] : [],
    command: [
      '{python}',
      '-m',
      'pytest',
      '-p',
      'no:cacheprovider',
      '-o',
      'junit_family=xunit1',
      '--junitxml={report}',
      '-q',
      ...testPaths.map((p) => p.replace(/\/\*\*$/, '')),
    ],
    report: 'junit',
    from: 'file',
    env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', ...(reqs ? { PYTHONPATH: '.pydeps' } : {}) },
    testPaths: paths,
  };
}

/** A validated spec for the repository at `dir` (a checkout for git sources). */
export function inferSpec(dir: string, source: EnvironmentSpec['source'], opts: InferOptions = {}): EnvironmentSpec {
  const own = join(dir, SPEC_FILE);
  if (existsSync(own)) {
    const raw = readJson(own);
    return validateSpec({ ...raw, source, ...(opts.name ? { name: opts.name } : {}) }, own);
  }
  const language = opts.language ?? detectLanguage(dir);
  if (!language) {
    throw new UserError(
      `could not tell the language of ${dir}: no package.json, pyproject.toml, setup.py or .py files`,
      'pass --language javascript|typescript|python, or add an environment.json (see docs/environments.md)',
    );
  }
  const inferred = language === 'python' ? inferPython(dir) : inferJs(dir);
  if (opts.testCommand && !opts.report) {
    throw new UserError('--test-command needs --report to say how to read its output', 'pass --report tap|junit|jest-json');
  }
  const command = opts.testCommand ? opts.testCommand.split(/\s+/).filter(Boolean) : inferred.command;
  if (command.length === 0) {
    throw new UserError(
      `could not find the tests of ${dir} (no test/, tests/, __tests__/ or spec/ directory)`,
      'pass --test-command "<runner with a machine-readable reporter>", --report and --test-paths "<glob>"',
    );
  }
  const report = opts.report ?? inferred.report;
  const from = opts.testCommand ? (command.some((a) => a.includes('{report}')) ? 'file' : 'stdout') : inferred.from;
  return validateSpec(
    {
      schema: 'frognano.environment/v1',
      name: opts.name ?? defaultName(dir),
      description: `${language} repository added from ${dir}`,
      language,
      source,
      setup: inferred.setup,
      layer: inferred.layer,
      test: { command, report: { format: report, from }, env: inferred.env },
      testPaths: opts.testPaths ?? inferred.testPaths,
      timeoutSec: 300,
    },
    `inferred for ${dir}`,
  );
}
