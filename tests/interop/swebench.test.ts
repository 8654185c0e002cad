// SWE-bench exports against the harness as read in SWE-bench/SWE-bench at
// 7a21e05772954cc81471ae19d56f436cecf43c54 (swebench 5.0.2): the instance
// fields of swebench/types.py, the task-repository rules of
// swebench/task/checks.py and repo.py, and the eval-script handling of
// swebench/harness/utils.py (make_test_spec) and grading.py. The export's
// images are not built here (no container engine); a bubblewrap stand-in
// runs the Dockerfile's record step and then the eval script on a clone of
// the exported bundle as the harness would, with predictions that add runner
// configuration or change tests: none resolves the task.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { EnvRepo } from '../../src/interop/env-repo.js';
import { swebenchImage, writeSweBenchTask, writeSweYaml } from '../../src/interop/swebench.js';
import { bwrapAvailable } from '../../src/runtime/host.js';
import { fromRecord } from '../../src/task/formats.js';
import type { Task } from '../../src/task/task.js';
import { fileDiff } from '../../src/util/diff.js';
import { toyTask, type ToyTask } from '../helpers/task.js';
import { tempDir } from '../helpers/workspace.js';
import { inSandbox } from './container.js';

/** swebench/types.py SWEbenchInstance, and the fields make_test_spec reads in swebench 5. */
const INSTANCE_FIELDS = [
  'repo',
  'instance_id',
  'base_commit',
  'patch',
  'test_patch',
  'problem_statement',
  'hints_text',
  'created_at',
  'version',
  'FAIL_TO_PASS',
  'PASS_TO_PASS',
  'environment_setup_commit',
];
const V5_FIELDS = ['image', 'eval_script', 'log_parser', 'eval_type'];
/** swebench/task/checks.py REQUIRED_KEYS, plus the datasets a task must list. */
const TASK_YAML_KEYS = ['instance_id', 'repo', 'version', 'base_commit', 'split', 'image', 'log_parser', 'eval_type', 'datasets'];
const TASK_FILES = ['task.yaml', 'tests.json', 'problem_statement.md', 'gold.patch', 'test.patch', 'eval.sh', 'Dockerfile'];
const START = '>>>>> Start Test Output';
const END = '>>>>> End Test Output';

const skip = bwrapAvailable() ? false : 'bubblewrap cannot create a sandbox here (apt-get install bubblewrap)';
const T = { timeout: 300_000, skip };
const sh = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

/** What make_test_spec does to an eval script: its two header lines re-added, the test command's exit code recorded before the end marker. */
function asHarnessRuns(script: string): string {
  const lines = script.split('\n').filter((l) => l !== '#!/bin/bash' && l !== 'set -uxo pipefail');
  const end = lines.findIndex((l) => l.includes(END));
  lines.splice(end, 1, 'SWEBENCH_TEST_EXIT_CODE=$?', lines[end]!, 'echo ">>>>> Test Exit Code: $SWEBENCH_TEST_EXIT_CODE"');
  return `#!/bin/bash\nset -uxo pipefail\n${lines.join('\n')}\n`;
}

/** A prediction as a model's diff: files written over a clone at the base commit (null deletes). */
function prediction(bundle: string, base: string, files: Record<string, string | null>): string {
  const dir = join(tempDir('fn-pred-'), 'repo');
  sh(tempDir(), 'clone', '-q', bundle, dir);
  sh(dir, 'checkout', '-q', base);
  for (const [rel, content] of Object.entries(files)) {
    if (content === null) execFileSync('rm', ['-f', join(dir, rel)]);
    else {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), content);
    }
  }
  sh(dir, 'add', '-A');
  return sh(dir, 'diff', '--cached', '--binary', base);
}

/**
 * The harness's run of one prediction in the stand-in: the image (the bundle
 * cloned at the base, the Dockerfile's record step), the prediction applied
 * with git apply, then the eval script as make_test_spec rewrites it.
 */
function harnessRun(taskDir: string, row: Record<string, unknown>, patch: string): { tests: Map<string, string>; exit: number; log: string } {
  const testbed = join(tempDir('fn-testbed-'), 'testbed');
  const state = tempDir('fn-opt-');
  sh(tempDir(), 'clone', '-q', join(taskDir, 'repo.bundle'), testbed);
  sh(testbed, 'checkout', '-q', '-B', 'main', String(row.base_commit));
  const record = readFileSync(join(taskDir, 'Dockerfile'), 'utf8')
    .split('\n')
    .find((l) => l.includes('drop.py record'))!
    .replace(/^RUN /, '');
  inSandbox({ [testbed]: '/testbed', [state]: '/opt/frognano' }, ['bash', '-c', record], '/testbed');
  if (patch) execFileSync('git', ['apply', '--verbose', '-'], { cwd: testbed, input: patch });
  const scriptDir = tempDir('fn-eval-');
  writeFileSync(join(scriptDir, 'eval.sh'), asHarnessRuns(String(row.eval_script)));
  let log: string;
  try {
    log = inSandbox({ [testbed]: '/testbed', [scriptDir]: '/eval', [state]: '/opt/frognano' }, ['bash', '-c', 'bash /eval/eval.sh 2>&1'], '/');
  } catch (err) {
    log = String((err as { stdout?: string }).stdout ?? '');
  }
  return { ...readLog(log), log };
}

const resolvedBy = (t: Task, tests: Map<string, string>) => [...t.FAIL_TO_PASS, ...t.PASS_TO_PASS].every((id) => tests.get(id) === 'PASSED');

/** The statuses between the markers, as parse_log_jest_json reads them, and the recorded exit code. */
function readLog(log: string): { tests: Map<string, string>; exit: number } {
  const body = log.slice(log.indexOf(START), log.indexOf(END));
  const tests = new Map([...body.matchAll(/^\[(PASSED|FAILED)\]\s(.+)$/gm)].map((m) => [m[2]!.trim(), m[1]!]));
  return { tests, exit: Number(/>>>>> Test Exit Code: (\d+)/.exec(log)?.[1]) };
}

for (const language of ['python', 'javascript'] as const) {
  describe(`SWE-bench export of a ${language} task`, () => {
    let toy: ToyTask;
    let root: string;
    let repo: EnvRepo;
    let row: Record<string, unknown>;
    before(async () => {
      toy = await toyTask(language, { hidden: language === 'javascript' });
      root = tempDir('fn-swebench-');
      writeSweYaml(root);
      repo = await EnvRepo.create(join(root, 'repos', toy.task.env.name), toy.built.snapshot);
      row = await writeSweBenchTask(root, toy.task, repo, toy);
    });

    it('writes every field of an instance, with real commits of a git repository', T, () => {
      for (const k of [...INSTANCE_FIELDS, ...V5_FIELDS]) assert.ok(k in row, k);
      assert.equal(typeof row.FAIL_TO_PASS, 'string', 'the lists are JSON strings, as on the Hub');
      assert.deepEqual(JSON.parse(String(row.FAIL_TO_PASS)), toy.task.FAIL_TO_PASS);
      assert.equal(sh(repo.dir, 'cat-file', '-t', String(row.base_commit)).trim(), 'commit');
      assert.equal(sh(repo.dir, 'rev-parse', `${String(row.base_commit)}^`).trim(), row.environment_setup_commit, 'the broken commit sits on the clean one');
      assert.equal(sh(repo.dir, 'rev-parse', toy.task.id).trim(), row.base_commit, 'a branch named after the instance');
      assert.match(String(row.test_patch), /^diff --git a\/tests\//, 'the failing tests come with the test patch');
      assert.equal(row.patch, toy.task.fixPatch);
      assert.equal(row.image, swebenchImage(toy.task.id));
    });

    it('lays out a task repository swebench 5 accepts', T, () => {
      const dir = join(root, 'tasks', toy.task.id);
      assert.deepEqual(readdirSync(join(root, 'tasks')), [toy.task.id], 'the directory is named after the instance');
      for (const f of TASK_FILES) assert.ok(readdirSync(dir).includes(f), f);
      const yaml = readFileSync(join(dir, 'task.yaml'), 'utf8');
      for (const k of TASK_YAML_KEYS) assert.match(yaml, new RegExp(`^${k}:`, 'm'), k);
      assert.match(yaml, /^split: "test"$/m);
      assert.match(readFileSync(join(root, 'sweb.yaml'), 'utf8'), /^datasets:\n {2}- "frognano\/tasks"\nsplits:\n {2}- "test"\n$/);
      // checks.expected_image: swebench/ + sweb.eval.x86_64.<id>:latest, "__" as "_1776_", lower case.
      assert.equal(swebenchImage('Md-tokens.procedural__AB12'), 'swebench/sweb.eval.x86_64.md-tokens.procedural_1776_ab12:latest');
      const tests = JSON.parse(readFileSync(join(dir, 'tests.json'), 'utf8')) as Record<string, unknown>;
      assert.deepEqual(tests, { FAIL_TO_PASS: toy.task.FAIL_TO_PASS, PASS_TO_PASS: toy.task.PASS_TO_PASS });
      const script = readFileSync(join(dir, 'eval.sh'), 'utf8');
      assert.ok(script.includes(START) && script.includes(END));
      assert.doesNotMatch(script, /^set -e/m, 'a failing test must not stop the script before the end marker');
      assert.match(script, /^cd \/testbed$/m);
      const lines = script.split('\n');
      assert.match(lines[lines.findIndex((l) => l.includes(END)) - 1]!, /\(exit \$code\)$/, "the line before the end marker ends with the runner's exit code");
      assert.doesNotMatch(readFileSync(join(dir, 'Dockerfile'), 'utf8'), /COPY \. |github\.com/, 'copies only the bundle; clones nothing');
    });

    it('runs as the harness would: the gold patch resolves it, no patch does not', T, () => {
      for (const [patch, resolved] of [
        [toy.task.fixPatch, true],
        ['', false],
      ] as const) {
        const { tests, exit, log } = harnessRun(join(root, 'tasks', toy.task.id), row, patch);
        const passed = (id: string) => tests.get(id) === 'PASSED';
        assert.equal(resolvedBy(toy.task, tests), resolved, log.slice(-3000));
        assert.equal(exit === 0, resolved, 'the recorded exit code is the runner\u2019s');
        assert.ok(toy.task.PASS_TO_PASS.every(passed), 'the tests that pass before the fix pass');
      }
    });

    it('drops the runner configuration and test changes a prediction adds: none resolves the task', T, () => {
      const taskDir = join(root, 'tasks', toy.task.id);
      const bundle = join(taskDir, 'repo.bundle');
      const base = String(row.base_commit);
      const fixAdd = language === 'python' ? 'import calc\ncalc.add = lambda a, b: a + b\n' : '';
      const attacks: Record<string, Record<string, string | null>> = language === 'python'
        ? {
            'a conftest.py that fixes add at collection': { 'conftest.py': fixAdd },
            'the same in tests/': { 'tests/conftest.py': fixAdd },
            'a pytest.ini loading a forging plugin (a source file, kept)': {
              'pytest.ini': '[pytest]\naddopts = -p forger\n',
              'forger.py':
                'import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = "passed"\n',
            },
            "the tests' package __init__.py fixing add before the tests import": { 'tests/__init__.py': fixAdd },
          }
        : {
            'an added test file that rewrites the source when imported': {
              'tests/aaa.test.js':
                "import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('../src/math.js', import.meta.url), 'export const add = (a, b) => a + b;\\nexport const mul = (a, b) => a * b;\\n');\n",
            },
          };
      const resolved = Object.entries(attacks).flatMap(([what, files]) => {
        const { tests, log } = harnessRun(taskDir, row, prediction(bundle, base, files));
        assert.match(log, /frognano: dropped /, what);
        return resolvedBy(toy.task, tests) ? [what] : [];
      });
      assert.deepEqual(resolved, []);
    });

    if (language === 'javascript') {
      it('drops a package.json test script a prediction rewrites, where the tests run through npm', T, async () => {
        // The same task with its tests run by `npm test` (the script comes with the broken state), TAP read from stdout.
        const pkg = readFileSync(join(toy.built.snapshot, 'package.json'), 'utf8');
        const scripted = `${JSON.stringify({ ...(JSON.parse(pkg) as object), scripts: { test: 'node --test-reporter=tap tests/run-all.js' } })}\n`;
        const spec = {
          ...toy.task.env.spec,
          test: { ...toy.task.env.spec.test, command: ['npm', 'test', '--silent'], report: { format: 'tap' as const, from: 'stdout' as const } },
        };
        const npmTask: Task = { ...toy.task, env: { ...toy.task.env, spec }, bugPatch: toy.task.bugPatch + fileDiff('package.json', pkg, scripted) };
        const npmRoot = tempDir('fn-swebench-npm-');
        const npmRepo = await EnvRepo.create(join(npmRoot, 'repos', toy.task.env.name), toy.built.snapshot);
        const npmRow = await writeSweBenchTask(npmRoot, npmTask, npmRepo, toy);
        const taskDir = join(npmRoot, 'tasks', toy.task.id);
        assert.ok(resolvedBy(npmTask, harnessRun(taskDir, npmRow, npmTask.fixPatch).tests), 'the reference fix resolves it through npm');
        const forged = [
          'TAP version 13',
          '# Subtest: toy',
          ...[...npmTask.FAIL_TO_PASS, ...npmTask.PASS_TO_PASS].map((id, i) => `    ok ${i + 1} - ${id.split(' > ')[1]!}`),
          'ok 1 - toy',
        ].join('\n');
        const files = {
          'forge.js': `console.log(${JSON.stringify(forged)});\n`,
          'package.json': `${JSON.stringify({ ...(JSON.parse(pkg) as object), scripts: { test: 'node forge.js' } })}\n`,
        };
        const { tests, log } = harnessRun(taskDir, npmRow, prediction(join(taskDir, 'repo.bundle'), String(npmRow.base_commit), files));
        assert.equal(resolvedBy(npmTask, tests), false, log.slice(-3000));
        assert.match(log, /frognano: dropped the change to package\.json/);
      });
    }

    it('imports back to the same task', T, async () => {
      assert.deepEqual(await fromRecord('swebench', JSON.parse(JSON.stringify(row)) as Record<string, unknown>), toy.task);
    });
  });
}
