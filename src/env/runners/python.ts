// Python projects: pytest or unittest, chosen from the project's own
// configuration (pytest.ini, pyproject.toml, setup.cfg, tox.ini), then from
// its test files; the import root of a src/ layout; test paths from the
// config's testpaths or the usual folders.
import { UserError } from '../../util/errors.js';
import { isRecord, isStringArray } from '../../util/guards.js';
import { get, type Project } from '../project.js';
import type { RunnerName, RunnerPlan } from './types.js';
import { UNITTEST_JUNIT } from './unittest-junit.js';
import { pytestCoreOptions, type OptionTable } from './pytest-options.js';

/** pytest's own settings, wherever the project keeps them, and the file that holds them. */
export function pytestConfig(p: Project): { file: string; options: Record<string, unknown> } | null {
  const pyproject = p.toml('pyproject.toml');
  const places: [string, unknown][] = [
    ['pytest.ini', get(p.ini('pytest.ini'), 'pytest')],
    ['.pytest.ini', get(p.ini('.pytest.ini'), 'pytest')],
    ['pyproject.toml [tool.pytest]', get(pyproject, 'tool', 'pytest', 'ini_options') ?? get(pyproject, 'tool', 'pytest')],
    ['tox.ini [pytest]', get(p.ini('tox.ini'), 'pytest')],
    ['setup.cfg [tool:pytest]', get(p.ini('setup.cfg'), 'tool:pytest')],
  ];
  for (const [file, options] of places) if (isRecord(options)) return { file, options };
  return null;
}

/** An ini value is one whitespace-separated string; a TOML value is a list. */
function words(v: unknown): string[] {
  if (isStringArray(v)) return v;
  return typeof v === 'string' ? v.split(/\s+/).filter(Boolean) : [];
}

const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|test[^/]*)\.py$/;

function isPyTestFile(rel: string): boolean {
  return TEST_FILE.test(rel) && !rel.endsWith('/__init__.py');
}

/** Folders with the project's tests: the config's testpaths, else tests/ or test/, else every folder holding a test file. */
function testDirs(p: Project, configured: string[]): string[] {
  // "tests/" and "./tests" name the folder "tests" (vine's and jupyter_client's testpaths).
  const given = configured.map((d) => d.replace(/^\.\/+/, '').replace(/\/+$/, '')).filter((d) => d && p.exists(d));
  if (given.length) return given;
  for (const d of ['tests', 'test', 'testing']) if (p.exists(d) && p.find((f) => f.startsWith(`${d}/`) && f.endsWith('.py')).length) return [d];
  return [];
}

/**
 * Globs of the tests under a configured test path. A folder of tests is
 * protected whole; a package that holds its tests among its modules
 * (pytest's testpaths = ["toolz"], tests in toolz/tests/) only in its test
 * files and test folders, or every module would count as a test.
 */
function testGlobs(p: Project, d: string): string[] {
  if (d.endsWith('.py')) return [d];
  const inTestDir = (f: string) => /(^|\/)(tests?|testing)\//.test(f.slice(d.length + 1));
  const sources = p.find((f) => f.startsWith(`${d}/`) && f.endsWith('.py') && !isPyTestFile(f) && !inTestDir(f) && !/(^|\/)(conftest|__init__)\.py$/.test(f));
  if (sources.length === 0) return [`${d}/**`];
  return [`${d}/**/tests/**`, `${d}/**/test/**`, `${d}/**/test_*.py`, `${d}/**/*_test.py`, `${d}/**/conftest.py`];
}

/** The folder a src/ layout imports from, when the project is not on the import path as checked out. */
export function importRoots(p: Project): string[] {
  const pyproject = p.toml('pyproject.toml');
  const cfg = p.ini('setup.cfg');
  const declared = [
    get(pyproject, 'tool', 'setuptools', 'package-dir', ''),
    ...words(get(pyproject, 'tool', 'setuptools', 'packages', 'find', 'where')),
    get(cfg, 'options.package_dir', ''),
    get(cfg, 'options.packages.find', 'where'),
  ]
    .filter((d): d is string => typeof d === 'string' && d.trim() !== '' && d.trim() !== '.')
    .map((d) => d.trim().replace(/^=/, '').replace(/\/+$/, ''));
  const roots = new Set(declared.filter((d) => p.exists(d)));
  // Hatch, flit, poetry and pdm projects say it in other ways; a src/ folder holding Python code is the convention they share.
  if (p.find((f) => f.startsWith('src/') && f.endsWith('.py') && !isPyTestFile(f)).length) roots.add('src');
  return [...roots];
}

function looksPytest(p: Project, files: string[]): string | null {
  if (p.find((f) => /(^|\/)conftest\.py$/.test(f)).length) return 'a conftest.py';
  for (const f of files.slice(0, 200)) {
    const text = p.text(f) ?? '';
    if (/^\s*(import pytest|from pytest\b)/m.test(text)) return `${f} imports pytest`;
    if (/^def test\w*\(/m.test(text)) return `${f} has test functions outside a TestCase`;
  }
  return null;
}

// Options of pytest plugins that projects put in addopts. Plugins are not
// autoloaded in the sandbox (start-up time, and the host's plugins are not the
// project's), so these would stop pytest with "unrecognized arguments". Where
// the machine's pytest can be asked, any option it does not know goes
// (pytest-options.ts); this list serves where it cannot, and says which
// plugin options take a value.
const PLUGIN_OPTION =
  /^--(cov|no-cov|benchmark|numprocesses|dist|maxprocesses|timeout|reruns|only-rerun|html|self-contained-html|mypy|flake8|black|isort|pylint|ruff|randomly|random-order|hypothesis|asyncio|xdoctest|testmon|picked|instafail|sugar|forked|boxed|looponfail|nbval|memray|codspeed)/;
const PLUGIN_WITH_VALUE = /^--(cov|cov-report|cov-config|cov-fail-under|timeout|reruns|numprocesses|dist|maxprocesses|html|randomly-seed)$/;
const PLUGIN_SHORT_WITH_VALUE = new Set(['-n']);

/**
 * The project's addopts without plugin options; null when nothing had to go.
 * `core`: pytest's own options (null: only the known plugins' go); `isPath`:
 * whether a word names a file or folder of the project, which is kept as a path
 * after an unknown option rather than taken for its value.
 */
export function corePytestOptions(addopts: unknown, core: OptionTable | null = null, isPath: (word: string) => boolean = () => false): string[] | null {
  const opts = words(addopts);
  const kept: string[] = [];
  const next = (i: number) => opts[i + 1];
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i]!;
    const name = o.split('=')[0]!;
    if (PLUGIN_SHORT_WITH_VALUE.has(o)) i++;
    else if (/^-n\d|^-nauto$/.test(o)) continue;
    else if (o === '-p' && !/^no:/.test(next(i) ?? '')) i++;
    else if (o === '-p') kept.push(o, opts[++i]!);
    else if (PLUGIN_OPTION.test(o) || (core && o.startsWith('-') && !core.has(name) && !/^-[A-Za-z]{2,}$/.test(o))) {
      // "--cov pkg": a value that does not look like an option belongs to it; after an option nobody knows, a word that is no path.
      const value = next(i);
      if (!o.includes('=') && value !== undefined && !value.startsWith('-') && (PLUGIN_WITH_VALUE.test(o) || (!PLUGIN_OPTION.test(o) && !isPath(value)))) i++;
    } else kept.push(o);
  }
  return kept.length === opts.length ? null : kept;
}

/** Paths among a command's arguments: folders and files, not options or their values. */
function pathArgs(p: Project, args: string[]): string[] {
  return args.filter((a) => !a.startsWith('-') && p.exists(a.split('::')[0]!));
}

/**
 * pytest or unittest for a Python project. `given` are the arguments of a
 * --test-command that named the runner: they replace the inferred paths.
 */
export function pythonRunner(p: Project, forced?: RunnerName, given?: string[]): RunnerPlan {
  const config = pytestConfig(p);
  const named = given ? pathArgs(p, given).map((a) => a.replace(/\/+$/, '')) : [];
  const dirs = named.length ? named : testDirs(p, words(config?.options.testpaths));
  const files = p.find((f) => isPyTestFile(f) && (dirs.length === 0 || dirs.some((d) => f.startsWith(`${d}/`))));
  if (files.length === 0 && !forced) {
    throw new UserError(
      `could not find the tests of ${p.dir}: no test_*.py or *_test.py files${config ? ` under ${config.file}'s testpaths` : ''}`,
      'pass --test-command "<the command that runs the tests>"',
    );
  }
  const pytestWhy = config ? config.file : looksPytest(p, files);
  const usesUnittest = files.some((f) => /\bunittest\b/.test(p.text(f) ?? ''));
  const runner: RunnerName = forced ?? (pytestWhy ? 'pytest' : usesUnittest ? 'unittest' : 'pytest');
  const evidence = given
    ? '--test-command'
    : forced
      ? '--runner'
      : (pytestWhy ?? (usesUnittest ? 'test files use unittest, and nothing names pytest' : 'test files named for pytest'));
  const roots = importRoots(p);
  const env: Record<string, string> = roots.length ? { PYTHONPATH: roots.join(':') } : {};
  // Without a test folder, test files lie among the modules: unittest's pattern (test*.py) and pytest's.
  const testPaths = dirs.length ? dirs.flatMap((d) => testGlobs(p, d)) : ['test*.py', '**/test_*.py', '**/*_test.py', '**/tests.py', '**/conftest.py'];
  if (given && runner === 'unittest') {
    return { runner, command: ['{python}', UNITTEST_JUNIT, '{report}', ...given], report: { format: 'junit', from: 'file' }, env, testPaths, evidence };
  }
  if (runner === 'unittest') {
    const start = dirs[0] ?? '.';
    // With an __init__.py the start folder is a package, imported from the root; else its modules are top-level.
    const top = start !== '.' && p.exists(`${start}/__init__.py`) ? ['-t', '.'] : [];
    const pattern = files.every((f) => /(^|\/)test[^/]*\.py$/.test(f)) ? [] : ['-p', '*test*.py'];
    return {
      runner,
      command: ['{python}', UNITTEST_JUNIT, '{report}', 'discover', '-s', start, ...top, ...pattern],
      report: { format: 'junit', from: 'file' },
      env,
      testPaths,
      evidence,
    };
  }
  const addopts = corePytestOptions(config?.options.addopts, pytestCoreOptions(), (w) => p.exists(w.replace(/\/+$/, '')));
  return {
    runner,
    // The project's own pytest config applies as written; xunit1 puts each test's file in the report.
    command: [
      '{python}',
      '-m',
      'pytest',
      '-p',
      'no:cacheprovider',
      '-o',
      'junit_family=xunit1',
      ...(addopts ? ['-o', `addopts=${addopts.join(' ')}`] : []),
      '--junitxml={report}',
      '-q',
      ...(given ? given.filter((a) => !/^--junit-?xml/.test(a)) : config?.options.testpaths ? [] : dirs),
    ],
    report: { format: 'junit', from: 'file' },
    env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', ...env },
    testPaths,
    evidence,
  };
}
