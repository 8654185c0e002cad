// `env add`: turn a user's repository into an environment spec. A spec file in
// the repository wins; otherwise the language, test runner, dependencies and
// test paths are read from the project's own files (package.json scripts and
// config files, pyproject.toml, setup.cfg, tox.ini, pytest.ini), and what
// cannot be inferred is an error that names the one flag to pass.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UserError } from '../util/errors.js';
import { isRecord } from '../util/guards.js';
import { get, Project } from './project.js';
import { SPEC_FILE } from './load.js';
import { parseTestCommand, leadingAssignments, needReport } from './runners/command.js';
import { jsRunner, jsTestPaths } from './runners/js.js';
import { pythonDependencies } from './runners/python-deps.js';
import { pythonRunner } from './runners/python.js';
import { RUNNERS, type DependencyPlan, type RunnerName, type RunnerPlan } from './runners/types.js';
import { validateSpec, type EnvironmentSpec, type Language, type ReportFormat } from './spec.js';

export interface InferOptions {
  name?: string;
  language?: Language;
  /** The runner, where the project does not say. */
  runner?: RunnerName;
  /** The command that runs the tests, as a shell line; it overrides the inferred one. */
  testCommand?: string;
  report?: ReportFormat;
  testPaths?: string[];
  /** Environment variables for setup and tests (--env KEY=VALUE). */
  env?: Record<string, string>;
}

/** Why the spec is what it is: shown by `env add`. */
export interface Inference {
  spec: EnvironmentSpec;
  runner: RunnerName | 'custom';
  evidence: string;
  notes: string[];
}

const PY_RUNNERS: RunnerName[] = ['pytest', 'unittest'];

/** A Python project that keeps a package.json for its front-end tooling: Python manifests, no npm test script, Python tests. */
function pythonBesideNpm(p: Project): boolean {
  if (!['pyproject.toml', 'setup.py', 'setup.cfg'].some((f) => p.exists(f))) return false;
  const scripts = p.json('package.json')?.scripts;
  const test = isRecord(scripts) ? scripts.test : undefined;
  return typeof test !== 'string' && p.find((n) => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(n)).length > 0;
}

export function detectLanguage(p: Project): Language | null {
  if (p.exists('package.json') && !pythonBesideNpm(p)) {
    return p.exists('tsconfig.json') || p.find((n) => /\.tsx?$/.test(n) && !n.endsWith('.d.ts')).length ? 'typescript' : 'javascript';
  }
  if (['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'].some((f) => p.exists(f))) return 'python';
  if (p.find((n) => n.endsWith('.py')).length) return 'python';
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

function jsDependencies(p: Project): DependencyPlan {
  const pkg = p.json('package.json');
  const deps = [pkg?.dependencies, pkg?.devDependencies].flatMap((d) => (d && typeof d === 'object' ? Object.keys(d) : []));
  if (deps.length === 0) return { setup: [], layer: [], env: {} };
  // Without npm's lockfile (a pnpm or yarn project, or none), peer ranges npm would refuse are taken as pnpm and yarn take them.
  // A lockfile out of step with package.json makes npm ci refuse; a user would then run npm install, and so does setup.
  const install = 'npm install --no-audit --no-fund --legacy-peer-deps';
  return {
    setup: [p.exists('package-lock.json') ? `npm ci --no-audit --no-fund || ${install}` : install],
    layer: ['node_modules'],
    env: {},
  };
}

/** The runner inference would pick, or null where it finds none (the user's shell line then stands alone). */
function inferredQuietly(p: Project, language: Language, runner?: RunnerName): RunnerPlan | null {
  try {
    return language === 'python' ? pythonRunner(p, runner) : jsRunner(p, runner);
  } catch (err) {
    if (err instanceof UserError) return null;
    throw err;
  }
}

/** The runner plan from the project's files, or from --runner / --test-command. */
function plan(p: Project, language: Language, opts: InferOptions): Omit<RunnerPlan, 'runner'> & { runner: RunnerName | 'custom' } {
  const line = opts.testCommand?.trim();
  if (line) {
    const parsed = parseTestCommand(line);
    if (parsed && !opts.report) {
      const env = leadingAssignments(line);
      const made = PY_RUNNERS.includes(parsed.runner) ? pythonRunner(p, parsed.runner, parsed.args) : jsRunner(p, parsed.runner, parsed.args);
      if (made) return { ...made, env: { ...made.env, ...env }, evidence: `--test-command runs ${parsed.runner}` };
    }
    if (!opts.report) needReport(line);
    // A shell line run as it is: its report is on stdout, or in the file it names as {report}.
    // What inference found (import paths, test files, the runner's name) still holds: only the command is replaced.
    const inferred = inferredQuietly(p, language, opts.runner);
    return {
      runner: parsed?.runner ?? inferred?.runner ?? 'custom',
      command: ['sh', '-c', line],
      report: { format: opts.report, from: line.includes('{report}') ? 'file' : 'stdout' },
      env: inferred?.env ?? {},
      testPaths: inferred?.testPaths ?? (language === 'python' ? ['tests/**', 'test/**', '**/test_*.py', '**/*_test.py'] : jsTestPaths(p, [])),
      evidence: '--test-command (a shell line)',
    };
  }
  if (language === 'python') return pythonRunner(p, opts.runner);
  const made = jsRunner(p, opts.runner);
  if (made) return made;
  const script = p.json('package.json')?.scripts;
  const test = isRecord(script) && typeof script.test === 'string' ? script.test : null;
  const known = RUNNERS.filter((r) => !PY_RUNNERS.includes(r));
  throw new UserError(
    test
      ? `could not tell how ${p.dir} runs its tests: its test script ("${test.slice(0, 120)}") names none of the runners FrogNano reads (${known.join(', ')}), and no runner config, dependency or node:test import names one`
      : `could not tell how ${p.dir} runs its tests: its package.json has no test script, no runner config or dependency, and no file imports node:test`,
    `pass --runner ${known.join('|')}, or --test-command "<command>" --report tap|junit for a command that prints TAP or writes JUnit to {report}`,
  );
}

/** A validated spec for the repository at `dir` (a checkout for git sources), with what decided it. */
export function inferEnvironment(dir: string, source: EnvironmentSpec['source'], opts: InferOptions = {}): Inference {
  const own = join(dir, SPEC_FILE);
  const p = new Project(dir);
  if (existsSync(own)) {
    const raw = p.json(SPEC_FILE);
    const spec = validateSpec({ ...raw, source, ...(opts.name ? { name: opts.name } : {}) }, own);
    return { spec, runner: 'custom', evidence: `the repository's own ${SPEC_FILE}`, notes: [] };
  }
  const language = opts.language ?? detectLanguage(p);
  if (!language) {
    throw new UserError(
      `could not tell the language of ${dir}: no package.json, pyproject.toml, setup.py or .py files`,
      'pass --language javascript|typescript|python, or add an environment.json (see docs/environments.md)',
    );
  }
  if (opts.runner && PY_RUNNERS.includes(opts.runner) !== (language === 'python')) {
    throw new UserError(`--runner ${opts.runner} does not run ${language} tests`, `pass a runner for ${language}, or --language`);
  }
  const run = plan(p, language, opts);
  const notes: string[] = [];
  let deps: DependencyPlan = jsDependencies(p);
  if (language === 'python') {
    const projectName = get(p.toml('pyproject.toml'), 'project', 'name');
    const py = pythonDependencies(p, typeof projectName === 'string' ? projectName : undefined);
    deps = py;
    if (py.missing.length) notes.push(`installs ${py.missing.length} package(s) the interpreter lacks: ${py.missing.join(', ')}`);
  }
  // Import paths add up: the dependency layer's and a src/ layout's.
  const paths = [deps.env.PYTHONPATH, run.env.PYTHONPATH, opts.env?.PYTHONPATH].filter(Boolean);
  const env = { ...deps.env, ...run.env, ...opts.env, ...(paths.length ? { PYTHONPATH: [...new Set(paths.join(':').split(':'))].join(':') } : {}) };
  const spec = validateSpec(
    {
      schema: 'frognano.environment/v1',
      name: opts.name ?? defaultName(dir),
      description: `${language} repository added from ${dir} (${run.runner})`,
      language,
      source,
      setup: deps.setup,
      layer: deps.layer,
      test: { command: run.command, report: run.report, env },
      testPaths: opts.testPaths ?? run.testPaths,
      timeoutSec: 300,
    },
    `inferred for ${dir}`,
  );
  return { spec, runner: run.runner, evidence: run.evidence, notes };
}

/** A validated spec for the repository at `dir`. */
export function inferSpec(dir: string, source: EnvironmentSpec['source'], opts: InferOptions = {}): EnvironmentSpec {
  return inferEnvironment(dir, source, opts).spec;
}
