// The JavaScript runners `env add` drives, each with the report it is asked
// for and the project files that name it. The user's own options are kept
// (a script's `--require ts-node/register` or `--timeout 5000` matter), but
// not those that would replace the report or never end (watch modes).
import { get, type Project } from '../project.js';
import type { RunnerName, RunnerPlan } from './types.js';

export type JsRunnerName = Exclude<RunnerName, 'pytest' | 'unittest'>;

export interface JsRunner {
  /** The npm package; its presence among dependencies names the runner. */
  pkg: string;
  /** Command names a script may call it by. */
  bins: string[];
  configFiles: string[];
  /** A package.json key holding its config. */
  packageKey?: string;
  /** The user's options that clash with ours: dropped with their value where `withValue`. */
  drop: { flag: RegExp; withValue: RegExp };
  build(args: string[], p: Project): Pick<RunnerPlan, 'command' | 'report' | 'env'>;
}

const file = { from: 'file' } as const;
const bin = (name: string) => ['node', `node_modules/.bin/${name}`];
const configs = (base: string, exts = ['js', 'cjs', 'mjs', 'ts', 'cts', 'mts', 'json']) => exts.map((e) => `${base}.${e}`);

/** The user's arguments without the options a runner's `drop` names. */
export function keptArgs(args: string[], drop: JsRunner['drop']): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (drop.withValue.test(a) && !a.includes('=')) i++;
    else if (!drop.flag.test(a) && !drop.withValue.test(a)) out.push(a);
  }
  return out;
}

const NONE = /^$/;

export const JS_RUNNERS: Record<JsRunnerName, JsRunner> = {
  vitest: {
    pkg: 'vitest',
    bins: ['vitest'],
    configFiles: [...configs('vitest.config'), ...configs('vitest.workspace')],
    // --typecheck runs tsc, which writes its build info into the read-only layer and fails the run.
    drop: {
      flag: /^(run|watch|dev|--watch|-w|--coverage.*|--ui|--silent|--reporter=.*|--outputFile=.*|--typecheck.*)$/,
      withValue: /^(--reporter|--outputFile)$/,
    },
    // The dependency layer is read-only: Vite's cache goes to the sandbox's /tmp.
    build: (args) => ({
      command: [...bin('vitest'), 'run', ...args, '--reporter=json', '--outputFile={report}'],
      report: { format: 'jest-json', ...file },
      env: {},
    }),
  },
  jest: {
    pkg: 'jest',
    bins: ['jest'],
    configFiles: configs('jest.config'),
    packageKey: 'jest',
    drop: { flag: /^(--watch.*|--coverage.*|--json|--ci|--silent|--verbose|--outputFile=.*|--watchman.*)$/, withValue: /^(--outputFile)$/ },
    build: (args) => ({
      // Coverage off: a coverage threshold the bug pushes under would fail a run whose tests all pass.
      command: [...bin('jest'), '--ci', ...args, '--json', '--outputFile={report}', '--watchman=false', '--coverage=false'],
      report: { format: 'jest-json', ...file },
      env: {},
    }),
  },
  ava: {
    pkg: 'ava',
    bins: ['ava'],
    configFiles: configs('ava.config', ['js', 'cjs', 'mjs']),
    packageKey: 'ava',
    drop: { flag: /^(--watch|-w|--tap|-t|--verbose|-v|--reset-cache)$/, withValue: NONE },
    build: (args) => ({ command: [...bin('ava'), ...args, '--tap'], report: { format: 'tap', from: 'stdout' }, env: {} }),
  },
  'node-tap': {
    pkg: 'tap',
    bins: ['tap'],
    configFiles: ['.taprc'],
    packageKey: 'tap',
    drop: {
      flag: /^(--watch|-w|--coverage.*|--no-coverage|--disable-coverage|--100|--check-coverage|--reporter=.*|-R\w+)$/,
      withValue: /^(--reporter|-R|--coverage-report|--reporter-file|-o|--output-file)$/,
    },
    // The TAP stream to a file: tap 18 and later take --reporter-file; 16's -o file is complete TAP.
    // Coverage off: with it on, a run with every test passing still fails when nothing was instrumented.
    build: (args, p) => ({
      command: [
        ...bin('tap'),
        ...args,
        ...(majorVersion(p, 'tap') >= 18
          ? ['--disable-coverage', '--reporter=tap', '--reporter-file={report}']
          : ['--no-coverage', '--reporter=silent', '--output-file={report}']),
      ],
      report: { format: 'tap', ...file },
      env: {},
    }),
  },
  mocha: {
    pkg: 'mocha',
    bins: ['mocha', '_mocha'],
    configFiles: ['.mocharc.js', '.mocharc.cjs', '.mocharc.yaml', '.mocharc.yml', '.mocharc.jsonc', '.mocharc.json'],
    packageKey: 'mocha',
    drop: {
      flag: /^(--watch|-w|--reporter=.*|--reporter-option=.*|--reporter-options=.*)$/,
      withValue: /^(--reporter|-R|--reporter-option|--reporter-options|-O)$/,
    },
    build: (args) => ({
      // --reporter-options (plural): every mocha version takes it; the singular came in mocha 6.
      command: [...bin('mocha'), ...args, '--reporter', 'xunit', '--reporter-options', 'output={report}'],
      report: { format: 'junit', ...file },
      env: {},
    }),
  },
  tape: {
    pkg: 'tape',
    bins: ['tape'],
    configFiles: [],
    drop: { flag: NONE, withValue: NONE },
    // tape has no default files: the script's globs, else the usual folders.
    build: (args, p) => ({
      command: [
        ...bin('tape'),
        ...(args.length ? args : [...['test/**/*.js', 'tests/**/*.js'].filter((g) => p.exists(g.split('/')[0]!)), ...p.find((f) => /^test\.[cm]?js$/.test(f))]),
      ],
      report: { format: 'tap', from: 'stdout' },
      env: {},
    }),
  },
  // Holepunch's runner: TAP on stdout, each test a group of indented asserts (read as tape's are).
  brittle: {
    pkg: 'brittle',
    bins: ['brittle', 'brittle-bare', 'brittle-node'],
    configFiles: [],
    drop: { flag: /^(--watch|-w|--coverage|-c)$/, withValue: NONE },
    build: (args, p) => ({
      command: [...bin('brittle'), ...(args.length ? args : ['test/**/*.js', 'test.js'].filter((g) => p.exists(g.split('/')[0]!)))],
      report: { format: 'tap', from: 'stdout' },
      env: {},
    }),
  },
  'node-test': {
    pkg: '',
    bins: [],
    configFiles: [],
    drop: { flag: /^(--test|--test-reporter=.*|--test-reporter-destination=.*|--watch)$/, withValue: /^(--test-reporter|--test-reporter-destination)$/ },
    // TAP to the report file for grading (what test code prints cannot reach it) and to stdout for the agent.
    build: (args, p) => {
      const { options, paths } = nodeArgs(args);
      const loader = !options.length && p.exists('tsconfig.json') && hasDependency(p, 'tsx') ? ['--import', 'tsx'] : [];
      const dirs = paths.length ? paths : ['test', 'tests', '__tests__', 'spec'].filter((d) => p.exists(d));
      return { command: ['node', ...loader, ...options, '--test', ...TAP_TWICE, ...dirs], report: { format: 'tap', ...file }, env: {} };
    },
  },
};

/** In the order dependencies are tried: a project with several runners installed is usually run by the first. */
export const JS_RUNNER_NAMES: JsRunnerName[] = ['vitest', 'jest', 'ava', 'node-tap', 'mocha', 'tape', 'brittle', 'node-test'];

export function isJsRunner(name: string | undefined): name is JsRunnerName {
  return (JS_RUNNER_NAMES as string[]).includes(name ?? '');
}

/** Node's own options (kept before --test) and the test paths after them; these options take a value. */
function nodeArgs(args: string[]): { options: string[]; paths: string[] } {
  const options: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) paths.push(a);
    else if (/^(--import|--require|-r|--loader|--experimental-loader|--env-file|--test-name-pattern|--conditions|-C)$/.test(a))
      options.push(a, args[++i] ?? '');
    else options.push(a);
  }
  // Node 20's --test takes folders and files, not globs (globs came in Node 21): a glob becomes the folder it starts in.
  const folders = paths.map((a) => {
    const segs = a.split('/');
    const firstGlob = segs.findIndex((seg) => /[*?[{]/.test(seg));
    return firstGlob < 0 ? a : segs.slice(0, firstGlob).join('/') || '.';
  });
  return { options, paths: [...new Set(folders.map((f) => f.replace(/^\.\/(?=.)/, '')))] };
}

/** The major version a dependency range names ("^16.3.0" → 16, "latest" → Infinity), from package-lock.json when it has one. */
export function majorVersion(p: Project, name: string): number {
  const locked = get(p.json('package-lock.json'), 'packages', `node_modules/${name}`, 'version');
  const pkg = p.json('package.json');
  const range = get(pkg, 'devDependencies', name) ?? get(pkg, 'dependencies', name);
  const m = /(\d+)/.exec(typeof locked === 'string' ? locked : typeof range === 'string' ? range : '');
  return m ? Number(m[1]) : Infinity;
}

function hasDependency(p: Project, name: string): boolean {
  const pkg = p.json('package.json');
  return [pkg?.dependencies, pkg?.devDependencies].some((d) => typeof d === 'object' && d !== null && name in d);
}

const TAP_TWICE = ['--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=tap', '--test-reporter-destination={report}'];
