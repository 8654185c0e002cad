// The onboarding classes issue 53 named, each on a repository the test
// builds: a build committed under an ignored path, a test whose outcome
// varies from run to run, a missing generated module, and a shell-line test
// command on a Python repository.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildEnvironment } from '../../src/env/build.js';
import { envWorkspace } from '../../src/env/workspace.js';
import { addEnvironment, findEnvironment } from '../../src/env/registry.js';
import { checkEnvironment, checkRecord } from '../../src/grading/env-check.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { Store } from '../../src/store/store.js';
import { synthesize } from '../../src/taskpilot/synth.js';
import type { Task } from '../../src/task/task.js';
import { readTasks } from '../../src/task/io.js';
import { runEval } from '../../src/eval/run.js';
import { oracleModel } from '../../src/eval/oracle.js';
import { referenceFiles } from '../../src/task/reference.js';
import { ScriptedModel } from '../../src/model/scripted.js';
import { runCli } from '../helpers/cli.js';
import { gitRepo, NODE_LIB, NODE_PKG, nodeLibTests } from '../helpers/git-repos.js';
import { tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });

/** Rewards of the reference fix and of an empty change on each task. */
async function grade(tasks: Task[], dataDir: string, built: Awaited<ReturnType<typeof buildEnvironment>>) {
  const byTask = new Map(tasks.map((t) => [t.id, built]));
  const run = (model: (t: Task) => Promise<ScriptedModel>) =>
    runEval({ tasks, built: byTask, models: { forEpisode: ({ task }) => model(task) }, attempts: 1, seed: 0, workers: 1, runtime, dataDir });
  const fix = await run(async (t) => oracleModel(await referenceFiles(t, built.snapshot)));
  const empty = await run(async () => new ScriptedModel([{ content: 'Scripted no-op: submitting without a change.' }], { name: 'noop' }));
  return { fix: fix.map((r) => r.attempts[0]!.reward), empty: empty.map((r) => r.attempts[0]!.reward) };
}

/** Every reference fix earns 1 and no empty change does. */
async function assertSound(tasks: Task[], dataDir: string, built: Awaited<ReturnType<typeof buildEnvironment>>) {
  const { fix, empty } = await grade(tasks, dataDir, built);
  assert.deepEqual(
    fix,
    tasks.map(() => 1),
    'every reference fix earns 1',
  );
  assert.deepEqual(
    empty,
    tasks.map(() => 0),
    'no empty change earns 1',
  );
}

describe('onboarding classes (issue 53)', () => {
  const dataDir = tempDir();
  const store = new Store(dataDir);
  after(() => store.close());

  it('a build committed under an ignored dist/ is in the workspace and its commit; ignored files left on disk are not', async () => {
    const dir = gitRepo('built-lib', {
      // The project commits its build under dist/ although .gitignore names it (what tripped the leak check).
      files: {
        'package.json': NODE_PKG,
        '.gitignore': 'dist/*\nsecret.txt\n',
        'src/index.js': NODE_LIB,
        'dist/index.js': `// built from src/index.js\n${NODE_LIB}`,
        'test/lib.test.js': nodeLibTests('../src/index.js'),
      },
      untracked: { 'secret.txt': 'not part of the repository', 'dist/stale.js': 'module.exports = 1;\n' },
    });
    await addEnvironment(store, dir, { name: 'built-lib' });
    const env = findEnvironment(store, 'built-lib');
    const built = await buildEnvironment(env, { dataDir, runtime });
    assert.ok(existsSync(join(built.snapshot, 'dist/index.js')), 'the committed build is in the snapshot');
    assert.ok(!existsSync(join(built.snapshot, 'secret.txt')) && !existsSync(join(built.snapshot, 'dist/stale.js')), 'ignored, uncommitted files are not');

    // An edit to the committed file is in the workspace's diff.
    const ws = await envWorkspace(built, runtime, dataDir);
    try {
      ws.writeFile('dist/index.js', NODE_LIB.replace('return lo;', 'return hi;'));
      assert.match(await ws.diff(), /^diff --git a\/dist\/index\.js/m);
    } finally {
      ws.dispose();
    }

    const tasks: Task[] = [];
    const stats = await synthesize({
      envs: [env],
      n: 4,
      strategies: ['procedural'],
      workers: 1,
      seed: 1,
      hint: 'symptom',
      visibility: 'visible',
      outDir: join(dataDir, 'tasks-built'),
      dataDir,
      runtime,
      onTask: (t) => tasks.push(t),
    });
    assert.equal(stats.byEnv['built-lib']?.outcomes.leak ?? 0, 0, `no candidate is rejected as a leak: ${stats.rejections.map((r) => r.detail).join('; ')}`);
    assert.ok(tasks.length >= 1, `valid tasks: ${JSON.stringify(stats)}`);
    await assertSound(tasks, dataDir, built);
  });

  it('tests whose outcome varies run to run (as timing-dependent ones do) are refused, and never labels even with --force', async () => {
    // Each "varies" test passes 30% of runs: env check sees failures or flakes, and ten reference runs let one through with p = 6e-6.
    const varies = Array.from({ length: 6 }, (_, i) => `test('responds in time ${i}', () => assert.ok(require('node:crypto').randomInt(10) < 3));`).join('\n');
    const dir = gitRepo('timing-lib', {
      files: { 'package.json': NODE_PKG, 'lib/index.js': NODE_LIB, 'test/lib.test.js': nodeLibTests('../lib/index.js', varies) },
    });
    await addEnvironment(store, dir, { name: 'timing-lib' });
    const env = findEnvironment(store, 'timing-lib');
    const check = await checkEnvironment(env, { dataDir, runtime });
    store.recordCheck(checkRecord(check));
    assert.equal(check.accepted, false, 'env check rejects it');

    const refused = await runCli(['--data-dir', dataDir, 'synth', '--env', 'timing-lib', '--n', '2', '--out', join(dataDir, 'refused')]);
    assert.equal(refused.code, 1, refused.err);
    assert.match(refused.err, /synth uses only environments env check accepted: "timing-lib" was rejected by env check/);
    assert.match(refused.err, /--force/);

    const forced = await runCli([
      '--data-dir',
      dataDir,
      'synth',
      '--env',
      'timing-lib',
      '--n',
      '6',
      '--strategy',
      'procedural',
      '--workers',
      '1',
      '--force',
      '--out',
      join(dataDir, 'forced'),
      '--json',
    ]);
    assert.equal(forced.code, 0, forced.err);
    assert.match(forced.err, /WARNING: --force: "timing-lib" was rejected by env check/);
    const tasks = readTasks(join(dataDir, 'forced'));
    for (const t of tasks) {
      assert.ok(!t.FAIL_TO_PASS.some((id) => /responds in time/.test(id)), `${t.id} labels a varying test: ${t.FAIL_TO_PASS.join(', ')}`);
      assert.ok(!t.PASS_TO_PASS.some((id) => /responds in time/.test(id)), `${t.id} keeps a varying test as P2P`);
    }
    if (tasks.length) {
      await assertSound(tasks, dataDir, await buildEnvironment(findEnvironment(store, 'timing-lib'), { dataDir, runtime }));
    }
  });

  it('a collection error from a missing generated module is quoted, with its cause and fix', async () => {
    const dir = gitRepo('gen-lib', {
      files: {
        'pyproject.toml': '[project]\nname = "genlib"\nversion = "0.1"\n',
        '.gitignore': 'genlib/_version.py\n',
        'genlib/__init__.py': 'from ._version import version\n\ndef double(x):\n    return 2 * x\n',
        'tests/test_double.py': 'from genlib import double\n\ndef test_double():\n    assert double(2) == 4\n',
      },
    });
    await addEnvironment(store, dir, { name: 'gen-lib' });
    const check = await checkEnvironment(findEnvironment(store, 'gen-lib'), { dataDir, runtime });
    assert.equal(check.accepted, false);
    assert.equal(check.explanation?.cause, 'generated-module');
    const text = check.reasons.join('\n');
    assert.match(text, /first error: ModuleNotFoundError: No module named 'genlib\._version'/);
    assert.match(text, /fix: genlib\._version is part of this repository but not committed/);
  });

  it('a project that reads its own installed version is seen as installed (a minimal .dist-info in the layer)', async () => {
    const dir = gitRepo('meta-lib', {
      files: {
        'setup.cfg': '[metadata]\nname = meta-lib\nversion = 1.2.3\n',
        'metalib/__init__.py': 'from importlib.metadata import version\n__version__ = version("meta-lib")\n\ndef double(x):\n    return 2 * x\n',
        'tests/test_meta.py':
          'import metalib\n\ndef test_version():\n    assert metalib.__version__ == "1.2.3"\n\ndef test_double():\n    assert metalib.double(2) == 4\n',
      },
    });
    await addEnvironment(store, dir, { name: 'meta-lib' });
    const check = await checkEnvironment(findEnvironment(store, 'meta-lib'), { dataDir, runtime });
    assert.equal(check.accepted, true, check.reasons.join('\n'));
    assert.equal(check.passed, 2);
  });

  it('a shell-line --test-command on a Python repository keeps the inferred import path and runner', async () => {
    const dir = gitRepo('src-lib', {
      files: {
        'pyproject.toml': '[project]\nname = "srclib"\nversion = "0.1"\n',
        'src/srclib/__init__.py': 'def double(x):\n    return 2 * x\n',
        'tests/test_double.py': 'from srclib import double\n\ndef test_double():\n    assert double(2) == 4\n\ndef test_zero():\n    assert double(0) == 0\n',
      },
    });
    const { spec, inferred } = await addEnvironment(store, dir, {
      name: 'src-lib',
      testCommand: 'cd . && python3 -m pytest -q -p no:cacheprovider --junitxml={report} tests',
      report: 'junit',
    });
    assert.equal(inferred?.runner, 'pytest');
    assert.match(spec.test.env.PYTHONPATH ?? '', /(^|:)src($|:)/);
    const check = await checkEnvironment(findEnvironment(store, 'src-lib'), { dataDir, runtime });
    assert.equal(check.accepted, true, check.reasons.join('\n'));
    assert.equal(check.passed, 2);
  });

  it('a doctest in a module is no label and its module is never hidden: the agent can edit it, and the fix goes there', async () => {
    const doc = (name: string, call: string, out: string, body: string) =>
      `def ${name}(a, b):\n    \"\"\"\n    >>> ${call}\n    ${out}\n    \"\"\"\n    ${body}\n`;
    const dir = gitRepo('doc-lib', {
      files: {
        'pyproject.toml': '[project]\nname = "doclib"\nversion = "0.1"\n',
        'doclib/__init__.py': '',
        'doclib/core.py': [
          doc('add', 'add(2, 3)', '5', 'return a + b'),
          doc('span', 'span(2, 7)', '5', 'return b - a if b > a else a - b'),
          doc('scale', 'scale(2, 3)', '6', 'return a * b'),
        ].join('\n\n'),
        // As more-itertools does: unittest runs the module's doctests beside the tests.
        'tests/__init__.py': '',
        'tests/test_doctests.py':
          'import doctest\nimport doclib.core\n\ndef load_tests(loader, tests, ignore):\n    tests.addTests(doctest.DocTestSuite(doclib.core))\n    return tests\n',
        'tests/test_core.py': [
          'import unittest',
          'from doclib.core import add, span, scale',
          '',
          'class CoreTest(unittest.TestCase):',
          ...['add(2, 3) == 5', 'add(-1, 1) == 0', 'span(2, 7) == 5', 'span(7, 2) == 5', 'scale(2, 3) == 6', 'scale(0, 4) == 0'].map(
            (cond, i) => `    def test_${i}(self):\n        self.assertTrue(${cond})\n`,
          ),
          '',
        ].join('\n'),
      },
    });
    await addEnvironment(store, dir, { name: 'doc-lib' });
    const env = findEnvironment(store, 'doc-lib');
    const check = await checkEnvironment(env, { dataDir, runtime });
    assert.equal(check.accepted, true, check.reasons.join('\n'));
    assert.ok(check.passed >= 9, `the doctests run too: ${check.passed} passed`);
    const tasks: Task[] = [];
    const outcomes: string[] = [];
    for (const visibility of ['hidden', 'visible'] as const) {
      const stats = await synthesize({
        envs: [env],
        n: 4,
        strategies: ['procedural'],
        workers: 1,
        seed: 3,
        hint: 'symptom',
        visibility,
        outDir: join(dataDir, `doc-${visibility}`),
        dataDir,
        runtime,
        onTask: (t) => tasks.push(t),
      });
      outcomes.push(JSON.stringify(stats.byEnv['doc-lib']?.outcomes), JSON.stringify(stats.rejections.map((r) => r.detail)));
    }
    assert.ok(tasks.length > 0, `some task is valid: ${outcomes.join(' ')}`);
    for (const t of tasks) {
      assert.ok(!t.hiddenFiles.some((f) => f.startsWith('doclib/')), `${t.id} hides code: ${t.hiddenFiles.join(', ')}`);
      assert.ok(![...t.FAIL_TO_PASS, ...t.PASS_TO_PASS].some((id) => id.startsWith('doclib/')), `${t.id} labels a doctest`);
    }
    await assertSound(tasks, dataDir, await buildEnvironment(env, { dataDir, runtime }));
  });

  it('a Python dependency pip cannot fetch is taken from the system packages (Debian python3-*)', {
    skip: !existsSync('/usr/lib/python3/dist-packages/appdirs.py') && 'needs Debian python3-appdirs (.ci/run installs it)',
  }, async () => {
    const dir = gitRepo('sys-deps', {
      files: {
        'requirements.txt': 'appdirs>=1.4\n',
        'syslib/__init__.py': 'import appdirs\n\ndef cache_name(app):\n    return appdirs.user_cache_dir(app).rsplit("/", 1)[-1]\n',
        'tests/test_sys.py':
          'from syslib import cache_name\n\ndef test_name():\n    assert cache_name("frog") == "frog"\n\ndef test_other():\n    assert cache_name("nano") == "nano"\n',
      },
    });
    const { spec } = await addEnvironment(store, dir, { name: 'sys-deps' });
    const check = await checkEnvironment(findEnvironment(store, 'sys-deps'), { dataDir, runtime });
    assert.equal(check.accepted, true, check.reasons.join('\n'));
    assert.equal(check.passed, 2);
    if (spec.setup.length)
      assert.match(spec.setup[0]!, /pip install .* \|\| \{python\} \{system-packages\} \.pydeps 'appdirs/, 'pip first, the system packages after');
  });

  it("a colour library's tests see colour left on, as on CI: the sandbox sets neither NO_COLOR nor FORCE_COLOR", async () => {
    // As ansi-colors and kleur decide: colour unless the environment turns it off.
    const lib = "const on = !('NO_COLOR' in process.env) && process.env.FORCE_COLOR !== '0';\nexports.red = (s) => (on ? `\\x1b[31m${s}\\x1b[39m` : s);\n";
    const tests = [
      "const test = require('node:test');",
      "const assert = require('node:assert');",
      "const { red } = require('../lib/index.js');",
      "test('wraps in red', () => assert.strictEqual(red('a'), '\\x1b[31ma\\x1b[39m'));",
      "test('wraps empty', () => assert.strictEqual(red(''), '\\x1b[31m\\x1b[39m'));",
      '',
    ].join('\n');
    const dir = gitRepo('colour-lib', { files: { 'package.json': NODE_PKG, 'lib/index.js': lib, 'test/colour.test.js': tests } });
    await addEnvironment(store, dir, { name: 'colour-lib' });
    const check = await checkEnvironment(findEnvironment(store, 'colour-lib'), { dataDir, runtime });
    assert.equal(check.accepted, true, check.reasons.join('\n'));
    assert.equal(check.passed, 2);
  });
});
