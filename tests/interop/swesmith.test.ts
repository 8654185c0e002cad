// SWE-smith exports against its harness as read in SWE-smith v0.0.9
// (upstream history at 9b74ac08118a85c39c356802f7961893af73e07f):
// profiles/base.py names (repo_name `<owner>__<repo>.<commit8>`, instance ids
// `<repo_name>.<suffix without a dot>`, images
// `swebench/swesmith.<arch>.<owner>_1776_<repo>.<commit8>`), the branch per
// instance with the bug and then the failing tests removed (its evaluation
// checks out HEAD~1), and its eval script's markers. No image is built; a
// bubblewrap stand-in runs the profile Dockerfile's record step on a clone
// and then the profile's test command, with predictions that add runner
// configuration or change tests: none resolves the task.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { EnvRepo } from '../../src/interop/env-repo.js';
import { profilesModule, sweSmithDockerfile, sweSmithNames, sweSmithTestCmd, writeSweSmithTask } from '../../src/interop/swesmith.js';
import { bwrapAvailable } from '../../src/runtime/host.js';
import { fromRecord } from '../../src/task/formats.js';
import { toyTask, type ToyTask } from '../helpers/task.js';
import { tempDir } from '../helpers/workspace.js';
import { inSandbox } from './container.js';

const skip = bwrapAvailable() ? false : 'bubblewrap cannot create a sandbox here (apt-get install bubblewrap)';
const T = { timeout: 300_000, skip };
const sh = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

describe('SWE-smith export', () => {
  let toy: ToyTask;
  let repo: EnvRepo;
  let record: Record<string, unknown>;
  let files: [string[], string[]];
  before(async () => {
    toy = await toyTask('python', { hidden: true });
    repo = await EnvRepo.create(join(tempDir('fn-swesmith-'), 'repo'), toy.built.snapshot);
    ({ record, testFiles: files } = await writeSweSmithTask(toy.task, repo, toy));
  });

  it('names the repository, instance and image as SWE-smith does', T, () => {
    const names = sweSmithNames(toy.task, repo.clean);
    assert.equal(record.repo, `frognano__pytoy.${repo.clean.slice(0, 8)}`);
    assert.match(String(record.instance_id), /^frognano__pytoy\.[0-9a-f]{8}\.[^.]+$/);
    assert.equal(String(record.instance_id).split('.').slice(0, -1).join('.'), record.repo, 'the profile key is the id up to its last dot');
    assert.equal(record.image_name, `swebench/swesmith.x86_64.frognano_1776_pytoy.${repo.clean.slice(0, 8)}`);
    assert.equal(names.instanceId, record.instance_id);
    assert.equal(record.patch, toy.task.bugPatch, "SWE-smith's patch is the bug");
    assert.ok(Array.isArray(record.FAIL_TO_PASS));
  });

  it('holds a branch per instance: the bug, then its failing tests removed', T, () => {
    const id = String(record.instance_id);
    assert.deepEqual(sh(repo.dir, 'log', '--format=%s', id).trim().split('\n'), [
      'Remove F2P Tests',
      'Bug Patch',
      'clean: the environment as FrogNano built it',
    ]);
    assert.deepEqual(sh(repo.dir, 'diff', '--name-only', `${id}~1`, id).trim().split('\n'), ['tests/test_calc.py']);
    assert.deepEqual(files, [['tests/test_calc.py'], ['tests/__init__.py']]);
  });

  /**
   * SWE-smith's run of one prediction in the stand-in: the image (the mirror
   * cloned, the Dockerfile's record step), the instance's branch, HEAD~1, the
   * prediction applied (for gold, the bug reversed), then the test command
   * between the harness's markers; returns the tests reported passed.
   */
  function harnessRun(apply: (testbed: string) => void): { passed: Set<string>; body: string } {
    const testbed = join(tempDir('fn-sstb-'), 'testbed');
    const state = tempDir('fn-ssopt-');
    sh(tempDir(), 'clone', '-q', repo.dir, testbed);
    const step = sweSmithDockerfile(toy.task.env.spec)
      .split('\n')
      .find((l) => l.includes('drop.py record'))!
      .replace(/^RUN /, '');
    inSandbox({ [testbed]: '/testbed', [state]: '/opt/frognano' }, ['bash', '-c', step], '/testbed');
    sh(testbed, 'checkout', '-q', String(record.instance_id));
    sh(testbed, 'checkout', '-q', 'HEAD~1');
    apply(testbed);
    const dir = tempDir('fn-sseval-');
    writeFileSync(
      join(dir, 'eval.sh'),
      `#!/bin/bash\nset -uxo pipefail\ncd /testbed\n: '>>>>> Start Test Output'\n${sweSmithTestCmd(toy.task.env.spec, toy.task.hiddenFiles)}\n: '>>>>> End Test Output'\n`,
    );
    let log: string;
    try {
      log = inSandbox({ [testbed]: '/testbed', [dir]: '/eval', [state]: '/opt/frognano' }, ['bash', '-c', 'bash /eval/eval.sh 2>&1'], '/');
    } catch (err) {
      log = String((err as { stdout?: string }).stdout ?? '');
    }
    const body = log.slice(log.indexOf("+ : '>>>>> Start Test Output'"), log.indexOf("+ : '>>>>> End Test Output'"));
    return { passed: new Set([...body.matchAll(/^\[PASSED\]\s(.+)$/gm)].map((m) => m[1]!.trim())), body: log };
  }

  it("runs the profile's test command as its harness would: the reversed bug resolves the task", T, () => {
    for (const gold of [true, false]) {
      const { passed, body } = harnessRun((testbed) => {
        if (gold) execFileSync('git', ['apply', '--reverse', '-'], { cwd: testbed, input: toy.task.bugPatch });
      });
      assert.equal(
        toy.task.FAIL_TO_PASS.every((t) => passed.has(t)),
        gold,
        body,
      );
      assert.ok(toy.task.PASS_TO_PASS.every((t) => passed.has(t)));
    }
  });

  it('drops the runner configuration and test changes a prediction adds: none resolves the task', T, () => {
    const fixAdd = 'import calc\ncalc.add = lambda a, b: a + b\n';
    for (const [rel, content] of [
      ['conftest.py', fixAdd],
      ['tests/conftest.py', fixAdd],
      ['tests/__init__.py', fixAdd],
    ] as const) {
      const { passed, body } = harnessRun((testbed) => {
        writeFileSync(join(testbed, rel), content);
      });
      assert.equal(
        toy.task.FAIL_TO_PASS.every((t) => passed.has(t)),
        false,
        `${rel}: ${body}`,
      );
      assert.match(body, new RegExp(`frognano: dropped (the change to )?${rel.replaceAll('.', '\\.')}`));
    }
  });

  it('writes a profiles module that parses and registers each environment', T, () => {
    const module = profilesModule([{ t: toy.task, clean: repo.clean }], { [String(record.instance_id)]: files });
    execFileSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: module });
    assert.match(module, /^class FrogNano0\(PythonProfile\):$/m);
    assert.match(module, new RegExp(`commit: str = "${repo.clean}"`));
    assert.match(module, /^for _profile in \(FrogNano0,\):\n {4}registry\.register_profile\(_profile\)$/m);
  });

  it('imports back to the same task, under its own id', T, async () => {
    assert.deepEqual(await fromRecord('swesmith', JSON.parse(JSON.stringify(record)) as Record<string, unknown>), toy.task);
  });
});
