import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inferEnvironment } from '../../src/env/infer.js';
import { parseTestCommand, shellWords } from '../../src/env/runners/command.js';
import { corePytestOptions } from '../../src/env/runners/python.js';
import { parsePytestHelp, pytestCoreOptions } from '../../src/env/runners/pytest-options.js';
import { UserError } from '../../src/util/errors.js';
import { globToRegExp } from '../../src/util/glob.js';
import { JS_RUNNER_REPOS, PY_RUNNER_REPOS, writeRepo, type RepoFiles } from '../helpers/runner-repos.js';

const infer = (files: RepoFiles, opts = {}) => inferEnvironment(writeRepo(files, 'lib'), { path: '.' }, opts);

describe('env add infers the test runner from the project', () => {
  const expected: Record<string, { runner: string; evidence: RegExp; argv: RegExp; format: string; from: string }> = {
    mocha: {
      runner: 'mocha',
      evidence: /scripts\.test runs mocha/,
      argv: /^node node_modules\/\.bin\/mocha --timeout 5000 test\/ --reporter xunit --reporter-options output=\{report\}$/,
      format: 'junit',
      from: 'file',
    },
    jest: {
      runner: 'jest',
      evidence: /scripts\.test runs jest/,
      argv: /^node node_modules\/\.bin\/jest --ci --json --outputFile=\{report\}/,
      format: 'jest-json',
      from: 'file',
    },
    vitest: {
      runner: 'vitest',
      evidence: /vitest\.config\.mjs and a vitest dependency/,
      argv: /^node node_modules\/\.bin\/vitest run --reporter=json --outputFile=\{report\}$/,
      format: 'jest-json',
      from: 'file',
    },
    ava: { runner: 'ava', evidence: /package\.json "ava" and a ava dependency/, argv: /^node node_modules\/\.bin\/ava --tap$/, format: 'tap', from: 'stdout' },
    tape: { runner: 'tape', evidence: /scripts\.test runs tape/, argv: /^node node_modules\/\.bin\/tape test\/\*\.js$/, format: 'tap', from: 'stdout' },
    brittle: {
      runner: 'brittle',
      evidence: /scripts\.test runs brittle/,
      argv: /^node node_modules\/\.bin\/brittle test\/\*\.js$/,
      format: 'tap',
      from: 'stdout',
    },
    'node-tap': {
      runner: 'node-tap',
      evidence: /scripts\.test runs node-tap/,
      argv: /^node node_modules\/\.bin\/tap --disable-coverage --reporter=tap --reporter-file=\{report\}$/,
      format: 'tap',
      from: 'file',
    },
  };
  for (const [name, want] of Object.entries(expected)) {
    it(`${name}: runner, report and the runner called directly`, () => {
      const { spec, runner, evidence } = infer(JS_RUNNER_REPOS[name]!.files);
      assert.equal(runner, want.runner);
      assert.match(evidence, want.evidence);
      assert.match(spec.test.command.join(' '), want.argv);
      assert.deepEqual(spec.test.report, { format: want.format, from: want.from });
      assert.deepEqual(spec.setup, ['npm install --no-audit --no-fund --legacy-peer-deps']);
    });
  }

  it('follows `npm run` in the test script, and prefers the script over other runners among the dependencies', () => {
    const { runner, spec } = infer({
      'package.json': JSON.stringify({
        scripts: { test: 'npm run lint && npm run test:unit', 'test:unit': 'nyc mocha -r ts-node/register "test/**/*.ts"', lint: 'eslint .' },
        devDependencies: { mocha: '9', jest: '29' },
      }),
      'test/a.ts': '',
    });
    assert.equal(runner, 'mocha');
    assert.deepEqual(spec.test.command.slice(0, 5), ['node', 'node_modules/.bin/mocha', '-r', 'ts-node/register', 'test/**/*.ts']);
  });

  it('keeps the build steps a test script runs before its runner, and leaves lints and type checks out', () => {
    const built = infer({
      'package.json': JSON.stringify({
        scripts: { build: 'tsc -p .', test: 'eslint . && npm run build && mocha dist/test && size-limit' },
        devDependencies: { mocha: '10' },
      }),
      'test/a.ts': '',
    });
    assert.deepEqual(built.spec.test.command.slice(0, 5), ['sh', '-c', 'tsc -p . && exec "$0" "$@"', 'node', 'node_modules/.bin/mocha']);
    assert.match(built.evidence, /after tsc -p \./);
    const linted = infer({ 'package.json': JSON.stringify({ scripts: { test: 'xo && ava && tsd' }, devDependencies: { ava: '6' } }), 'test.js': '' });
    assert.deepEqual(linted.spec.test.command, ['node', 'node_modules/.bin/ava', '--tap']);
    const pretest = infer({
      'package.json': JSON.stringify({ scripts: { pretest: 'npm run build', test: 'tape test/*.js' }, devDependencies: { tape: '5' } }),
      'test/a.js': '',
    });
    assert.equal(pretest.spec.test.command[2], 'npm run build && exec "$0" "$@"');
  });

  it('drops the options that would replace the report, never end, or write into the read-only layer', () => {
    const { spec } = infer({
      'package.json': JSON.stringify({ scripts: { test: 'vitest run --typecheck --coverage --reporter=verbose' }, devDependencies: { vitest: '3' } }),
      'a.test.ts': '',
    });
    assert.deepEqual(spec.test.command, ['node', 'node_modules/.bin/vitest', 'run', '--reporter=json', '--outputFile={report}']);
  });

  it('turns node --test globs into the folders they start in (Node 20 takes no globs), and runs a prepare build npm runs before tests', () => {
    const { spec } = infer({ 'package.json': JSON.stringify({ scripts: { test: "node --test './test/**/*.js'" } }), 'test/a.js': '' });
    assert.deepEqual(spec.test.command.at(-1), 'test');
    const tshy = infer({
      'package.json': JSON.stringify({ scripts: { prepare: 'tshy', pretest: 'npm run prepare', test: 'tap' }, devDependencies: { tap: '18' } }),
      'test/a.ts': '',
    });
    assert.equal(tshy.spec.test.command[2], 'npm run prepare && exec "$0" "$@"');
  });

  it('sees through package managers and toolkits that wrap a runner, and protects snapshots', () => {
    const kcd = infer({
      'package.json': JSON.stringify({ scripts: { test: 'kcd-scripts test' }, devDependencies: { 'kcd-scripts': '16' } }),
      'src/__tests__/a.js': '',
      'src/__tests__/__snapshots__/a.js.snap': '',
    });
    assert.equal(kcd.runner, 'jest');
    assert.ok(kcd.spec.testPaths.includes('**/__snapshots__/**'));
    assert.equal(
      infer({ 'package.json': JSON.stringify({ scripts: { test: 'pnpm vitest run' }, devDependencies: { vitest: '3' } }), 'a.test.ts': '' }).runner,
      'vitest',
    );
  });

  it('gives node-tap 16 its own report flags (read from the lockfile or the range)', () => {
    const { spec } = infer({ 'package.json': JSON.stringify({ devDependencies: { tap: '^16.3.0' } }), 'test/a.js': '' });
    assert.deepEqual(spec.test.command.slice(2), ['--no-coverage', '--reporter=silent', '--output-file={report}']);
  });

  it('finds node:test from imports, with the TypeScript loader the project has', () => {
    const { runner, spec } = infer({
      'package.json': JSON.stringify({ devDependencies: { tsx: '4' } }),
      'tsconfig.json': '{}',
      'test/a.test.ts': "import test from 'node:test';\n",
    });
    assert.equal(runner, 'node-test');
    assert.deepEqual(spec.test.command.slice(0, 4), ['node', '--import', 'tsx', '--test']);
    assert.equal(spec.language, 'typescript');
  });

  it('names --runner when nothing says how the tests run', () => {
    assert.throws(
      () => infer({ 'package.json': '{}', 'test/a.js': "console.log('hi')\n" }),
      (err: Error) => err instanceof UserError && /could not tell how/.test(err.message) && /^pass --runner /.test(err.hint ?? ''),
    );
  });

  it('quotes a test script that names a runner it cannot read (uvu), with the flags that would do', () => {
    assert.throws(
      () => infer({ 'package.json': JSON.stringify({ scripts: { test: 'uvu -r esm test' }, devDependencies: { uvu: '^0.5.0' } }), 'test/a.js': '' }),
      (err: Error) =>
        err instanceof UserError &&
        /its test script \("uvu -r esm test"\) names none of the runners FrogNano reads/.test(err.message) &&
        /--test-command "<command>" --report tap\|junit/.test(err.hint ?? ''),
    );
  });

  it('takes --runner where the project does not say, and refuses one of another language', () => {
    assert.equal(infer({ 'package.json': '{}', 'test/a.js': '' }, { runner: 'tape' }).runner, 'tape');
    assert.throws(() => infer({ 'package.json': '{}', 'test/a.js': '' }, { runner: 'pytest' }), /does not run javascript tests/);
  });
});

describe('env add reads Python projects', () => {
  it('pytest from pyproject config; a src/ layout on PYTHONPATH; plugin options left out of addopts; pytest itself not installed again', () => {
    const { spec, runner, evidence, notes } = infer(PY_RUNNER_REPOS['pytest-src']!.files);
    assert.equal(runner, 'pytest');
    assert.match(evidence, /pyproject\.toml \[tool\.pytest\]/);
    assert.equal(spec.test.env.PYTHONPATH, 'src');
    assert.ok(spec.test.command.includes('addopts=-q'), spec.test.command.join(' '));
    assert.deepEqual(spec.setup, [], 'pytest is already installed');
    assert.deepEqual(notes, []);
    assert.deepEqual(spec.testPaths, ['tests/**']);
  });

  it('unittest when the tests use it and nothing names pytest, through the JUnit-writing runner', () => {
    const { spec, runner } = infer(PY_RUNNER_REPOS.unittest!.files);
    assert.equal(runner, 'unittest');
    assert.deepEqual(spec.test.command, ['{python}', '{unittest-junit}', '{report}', 'discover', '-s', 'tests', '-t', '.']);
    assert.equal(spec.test.report.format, 'junit');
  });

  it('installs only the requirements the interpreter lacks, into a layer on PYTHONPATH', () => {
    const { spec, notes } = infer({
      'requirements.txt': 'pytest>=7\nsurely-not-installed-pkg==1.0  # comment\n-e .\n',
      'tests/test_a.py': 'def test_a():\n    pass\n',
    });
    assert.deepEqual(spec.setup, [
      '{python} -m pip install --quiet --disable-pip-version-check --target .pydeps surely-not-installed-pkg==1.0 || {python} {system-packages} .pydeps surely-not-installed-pkg==1.0',
    ]);
    assert.deepEqual(spec.layer, ['.pydeps']);
    assert.equal(spec.test.env.PYTHONPATH, '.pydeps');
    assert.match(notes.join(), /surely-not-installed-pkg/);
  });

  it("reads poetry's tables (not its optional dependencies), setup.cfg's lists and setup.py's literal lists", () => {
    const { notes } = infer({
      'pyproject.toml':
        '[tool.poetry.dependencies]\npython = "^3.9"\nsurely-not-core = "^1.0"\nsurely-not-extra = { version = "^2", optional = true }\n\n[tool.poetry.group.dev.dependencies]\nsurely-not-dev = "*"\n',
      'setup.cfg': '[options]\ninstall_requires =\n    surely-not-cfg>=1\n    surely-not-cfg2\n[options.extras_require]\ntest =\n    surely-not-cfg-test\n',
      'setup.py': 'from setuptools import setup\nsetup(name="x", install_requires=["surely-not-setup-py>=2"], tests_require=["surely-not-tests-require"])\n',
      'tests/test_a.py': 'def test_a():\n    pass\n',
    });
    const text = notes.join('\n');
    for (const name of [
      'surely-not-core',
      'surely-not-dev',
      'surely-not-cfg',
      'surely-not-cfg2',
      'surely-not-cfg-test',
      'surely-not-setup-py',
      'surely-not-tests-require',
    ])
      assert.match(text, new RegExp(`${name}\\b`), `${name} is installed`);
    assert.doesNotMatch(text, /surely-not-extra/, 'an optional poetry dependency is not');
  });

  it('reads testpaths and addopts from setup.cfg and tox.ini', () => {
    const cfg = infer({
      'setup.cfg': '[tool:pytest]\ntestpaths = checks\naddopts = -n auto --strict-markers\n',
      'checks/test_a.py': 'def test_a():\n    pass\n',
    });
    assert.deepEqual(cfg.spec.testPaths, ['checks/**']);
    assert.ok(cfg.spec.test.command.includes('addopts=--strict-markers'));
    const tox = infer({ 'tox.ini': '[pytest]\ntestpaths = t\n', 't/test_b.py': 'def test_b():\n    pass\n' });
    assert.match(tox.evidence, /tox\.ini/);
  });

  it('protects only the test files of a package that holds its tests among its modules', () => {
    const { spec } = infer({
      'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["toolz"]\n',
      'toolz/__init__.py': '',
      'toolz/core.py': 'def f():\n    return 1\n',
      'toolz/tests/test_core.py': 'def test_f():\n    pass\n',
    });
    assert.ok(spec.testPaths.includes('toolz/**/tests/**'), spec.testPaths.join(', '));
    assert.ok(!spec.testPaths.includes('toolz/**'));
  });

  it('does not install what tests never import: session runners, linters, pytest plugins', () => {
    const { spec } = infer({
      'pyproject.toml': '[dependency-groups]\ntest = ["tox-uv>=1", "pytest-cov", "coverage[toml]", "ruff", "hatch>=1.18"]\n',
      '.pytest.ini':
        '[pytest]\naddopts =\n    --import-mode=importlib\n    # a comment inside the value\n    --cov=pkg\n    --no-cov-on-fail\n    --doctest-modules\ntestpaths = tests\n',
      'tests/test_a.py': 'def test_a():\n    pass\n',
    });
    assert.deepEqual(spec.setup, []);
    assert.ok(spec.test.command.includes('addopts=--import-mode=importlib --doctest-modules'), spec.test.command.join(' '));
  });

  it('protects a root tests.py that unittest discovers', () => {
    const { spec, runner } = infer({
      'jsonpointer.py': 'X = 1\n',
      'tests.py': 'import unittest\n\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n',
    });
    assert.equal(runner, 'unittest');
    assert.ok(
      spec.testPaths.some((g) => globToRegExp(g).test('tests.py')),
      spec.testPaths.join(', '),
    );
    assert.ok(!spec.testPaths.some((g) => globToRegExp(g).test('jsonpointer.py')));
  });

  it('keeps the project addopts untouched when no plugin option is in them', () => {
    assert.equal(corePytestOptions('-ra --strict-markers'), null);
    assert.deepEqual(corePytestOptions(['--cov', 'pkg', '--cov-report=term', '-p', 'xdist', '-p', 'no:warnings', '--timeout=30', '-x']), [
      '-p',
      'no:warnings',
      '-x',
    ]);
  });
});

describe("pytest's own options", () => {
  it('reads option names and values from pytest --help', () => {
    const table = parsePytestHelp(
      [
        '  -k EXPRESSION         Only run tests',
        '  -x, --exitfirst       Exit instantly',
        '  --tb=style            Traceback',
        '  --lfnf={all,none}, --last-failed-no-failures={all,none}',
        'general:',
        '      --not-an-option-line',
      ].join('\n'),
    );
    assert.deepEqual(
      [...table],
      [
        ['-k', true],
        ['-x', false],
        ['--exitfirst', false],
        ['--tb', true],
        ['--lfnf', true],
        ['--last-failed-no-failures', true],
      ],
    );
  });

  it("drops from addopts every option the machine's pytest does not know, with its value unless that is a path", {
    skip: !pytestCoreOptions() && 'no pytest on this machine',
  }, () => {
    const core = pytestCoreOptions();
    const paths = new Set(['python_utils', 'tests']);
    const addopts =
      '--doctest-modules --flake8 --cov python_utils --cov-report html --disable-socket --allow-hosts=127.0.0.1 -ra --strict-markers -W error --some-plugin-flag tests';
    assert.deepEqual(
      corePytestOptions(addopts, core, (w) => paths.has(w)),
      ['--doctest-modules', '-ra', '--strict-markers', '-W', 'error', 'tests'],
    );
  });
});

describe('--test-command and --env', () => {
  it('splits a shell line as the shell would, and refuses to split shell syntax', () => {
    assert.deepEqual(shellWords(`mocha --grep "adds two" 'test/**/*.js'`), ['mocha', '--grep', 'adds two', 'test/**/*.js']);
    assert.equal(shellWords('tape test/*.js | tap-spec'), null);
  });

  it('a line naming a known runner becomes that runner with the user arguments and its report', () => {
    assert.deepEqual(parseTestCommand('npx mocha --timeout 5000 test/'), { runner: 'mocha', args: ['--timeout', '5000', 'test/'] });
    assert.deepEqual(parseTestCommand('python3 -m pytest -x tests/unit'), { runner: 'pytest', args: ['-x', 'tests/unit'] });
    const { spec } = infer({ 'pyproject.toml': '', 'tests/unit/test_a.py': 'def test_a():\n    pass\n' }, { testCommand: 'CI=1 pytest -x tests/unit' });
    assert.ok(spec.test.command.includes('--junitxml={report}'));
    assert.deepEqual(spec.test.command.slice(-2), ['-x', 'tests/unit']);
    assert.equal(spec.test.env.CI, '1');
    assert.deepEqual(spec.testPaths, ['tests/unit/**']);
  });

  it('any other line runs as a shell line, and needs --report', () => {
    const files = { 'package.json': '{}', 'test/a.js': '' };
    assert.throws(
      () => infer(files, { testCommand: 'make check && ./run-tests.sh' }),
      (err: Error) => err instanceof UserError && /--report/.test(err.hint ?? ''),
    );
    const { spec } = infer(files, { testCommand: './run-tests.sh --tap > {report}', report: 'tap' });
    assert.deepEqual(spec.test.command, ['sh', '-c', './run-tests.sh --tap > {report}']);
    assert.deepEqual(spec.test.report, { format: 'tap', from: 'file' });
  });

  it('--env values reach the tests, beside what inference set', () => {
    const { spec } = infer(PY_RUNNER_REPOS['pytest-src']!.files, { env: { APP_MODE: 'test', PYTHONPATH: 'extra' } });
    assert.equal(spec.test.env.APP_MODE, 'test');
    assert.equal(spec.test.env.PYTHONPATH, 'src:extra');
  });
});
