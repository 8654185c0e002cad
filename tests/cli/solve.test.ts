import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { nodeTests, RUN_ALL } from '../helpers/env.js';
import { JS_BROKEN, JS_SOURCE } from '../helpers/task.js';
import { tempDir } from '../helpers/workspace.js';

const DEP = 'export const dep = 1;\n';

/** A small JavaScript project with the add bug, a dependency folder, optionally under git. */
function project(opts: { git?: boolean; root?: string } = {}): string {
  const dir = opts.root ?? tempDir('fn-userrepo-');
  const files: Record<string, string> = {
    'package.json': '{"type":"module","private":true}\n',
    'src/math.js': JS_BROKEN,
    'tests/run-all.js': RUN_ALL,
    'tests/math.test.js': nodeTests({ 'add sums': "const { add } = await import('../src/math.js'); assert.equal(add(2, 3), 5);" }),
    'node_modules/dep/index.js': DEP,
    '.gitignore': 'node_modules/\n',
  };
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  if (opts.git) {
    const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['commit', '-qm', 'init'], { cwd: dir, env });
  }
  return dir;
}

/** A scripted model (a JSON file of replies): tries to write into the read-only dependency folder, fixes add, submits. */
function fixScript(): string {
  const path = join(tempDir(), 'fix.json');
  writeFileSync(
    path,
    JSON.stringify([
      { toolCalls: [{ name: 'Bash', arguments: { command: 'echo hacked > node_modules/dep/index.js; node --test-reporter=tap tests/run-all.js | tail -3' } }] },
      { toolCalls: [{ name: 'Write', arguments: { file_path: 'src/math.js', content: JS_SOURCE } }] },
      { content: 'Fixed add.' },
    ]),
  );
  return path;
}

const solve = (repo: string, ...extra: string[]) =>
  runCli([
    'solve',
    '--repo',
    repo,
    '--issue',
    'add(2, 3) returns -1 instead of 5.',
    '--model',
    `scripted:${fixScript()}`,
    '--data-dir',
    tempDir('fn-data-'),
    '--test-command',
    'node --test-reporter=tap tests/run-all.js',
    ...extra,
  ]);

describe('frognano solve', () => {
  it('prints the diff and leaves the repository unchanged without --apply', async () => {
    const repo = project({ git: true });
    const r = await solve(repo);
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /^diff --git a\/src\/math\.js b\/src\/math\.js/m);
    assert.match(r.out, /^-  return a - b;$/m);
    assert.match(r.out, /^\+  return a \+ b;$/m);
    assert.doesNotMatch(r.out, /node_modules/);
    assert.match(r.out, /is unchanged\. To apply: rerun with --apply, or run: git -C .* apply /);
    const saved = /diff saved to (\S+)/.exec(r.out)?.[1];
    assert.ok(saved && existsSync(saved));
    assert.match(r.err, /step 1 .*Bash echo hacked/);
    assert.match(r.err, /step 2 .*Write src\/math\.js/);
    assert.match(r.err, /stopped: submitted after 3 step/);
    assert.equal(readFileSync(join(repo, 'src/math.js'), 'utf8'), JS_BROKEN);
    assert.equal(readFileSync(join(repo, 'node_modules/dep/index.js'), 'utf8'), DEP, 'the dependency folder is never written');
    assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' }), '');
  });

  it('applies the diff to a git repository with --apply', async () => {
    const repo = project({ git: true });
    const r = await solve(repo, '--apply');
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /applied to /);
    assert.equal(readFileSync(join(repo, 'src/math.js'), 'utf8'), JS_SOURCE);
    assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' }), ' M src/math.js\n');
  });

  it('applies to a plain directory and to a folder inside a larger git repository', async () => {
    const plain = project();
    assert.equal((await solve(plain, '--apply')).code, 0);
    assert.equal(readFileSync(join(plain, 'src/math.js'), 'utf8'), JS_SOURCE);
    const outer = tempDir('fn-outer-');
    execFileSync('git', ['init', '-q'], { cwd: outer });
    const inner = project({ root: join(outer, 'packages', 'calc') });
    const hint = await solve(inner);
    assert.match(hint.out, /git -C \S+ apply --directory=packages\/calc /);
    const r = await solve(inner, '--apply');
    assert.equal(r.code, 0, r.err + r.out);
    assert.equal(readFileSync(join(inner, 'src/math.js'), 'utf8'), JS_SOURCE);
  });

  it('runs the tests before and after the change, found as env add finds them, and names what now passes', async () => {
    const repo = project({ git: true });
    const r = await runCli([
      'solve',
      '--repo',
      repo,
      '--issue',
      'add(2, 3) returns -1 instead of 5.',
      '--model',
      `scripted:${fixScript()}`,
      '--data-dir',
      tempDir('fn-data-'),
    ]);
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.err, /tests before the change: 0 passed, 1 not passing/);
    assert.match(r.out, /tests with the change: 1 passed, 0 not passing/);
    assert.match(r.out, /now pass \(1\): toy > add sums/);
    assert.match(r.out, /verdict: the change fixes tests and breaks none/);
  });

  it('exits 1 and says which tests a breaking change makes fail; --apply refuses it unless --force', async () => {
    const repo = project({ git: true });
    writeFileSync(
      join(repo, 'tests/mul.test.js'),
      nodeTests({ 'mul multiplies': "const { mul } = await import('../src/math.js'); assert.equal(mul(2, 3), 6);" }, 'more'),
    );
    // Fixes add and breaks mul.
    const script = join(tempDir(), 'break.json');
    writeFileSync(
      script,
      JSON.stringify([
        { toolCalls: [{ name: 'Write', arguments: { file_path: 'src/math.js', content: JS_SOURCE.replace('a * b', 'a + b') } }] },
        { content: 'Fixed add.' },
      ]),
    );
    const run = (...extra: string[]) =>
      runCli(['solve', '--repo', repo, '--issue', 'add is wrong', '--model', `scripted:${script}`, '--data-dir', tempDir('fn-data-'), ...extra]);
    const r = await run('--apply');
    assert.equal(r.code, 1, r.err + r.out);
    assert.match(r.out, /now pass \(1\): toy > add sums/);
    assert.match(r.out, /now FAIL \(1\): more > mul multiplies/);
    assert.match(r.out, /verdict: the change makes the tests WORSE/);
    assert.match(r.err, /breaks passing tests .*--force/);
    assert.equal(readFileSync(join(repo, 'src/math.js'), 'utf8'), JS_BROKEN, 'refused: the repository is unchanged');
    const forced = await run('--apply', '--force');
    assert.equal(forced.code, 1, 'applied, and still a change that made things worse');
    assert.match(forced.out, /applied to /);
    assert.equal(readFileSync(join(repo, 'src/math.js'), 'utf8'), JS_SOURCE.replace('a * b', 'a + b'));
  });

  it('exits 1 when the model produces no diff, and says why', async () => {
    const repo = project({ git: true });
    const issue = join(tempDir(), 'issue.md');
    writeFileSync(issue, 'Fix add.\n');
    const r = await runCli(['solve', '--repo', repo, '--issue', issue, '--model', 'scripted:noop', '--data-dir', tempDir('fn-data-'), '--apply']);
    assert.equal(r.code, 1);
    assert.match(r.out, /No changes/);
    assert.equal(readFileSync(join(repo, 'src/math.js'), 'utf8'), JS_BROKEN);
  });

  it('rejects bad inputs with a clear message', async () => {
    const repo = project();
    const data = tempDir('fn-data-');
    const cases: [string[], RegExp][] = [
      [['solve', '--issue', 'x', '--model', 'scripted:noop'], /solve needs --repo/],
      [['solve', '--repo', repo, '--model', 'scripted:noop'], /solve needs --issue/],
      [['solve', '--repo', join(repo, 'nope'), '--issue', 'x', '--model', 'scripted:noop'], /is not a directory/],
      [['solve', '--repo', repo, '--issue', 'x', '--model', 'scripted:oracle'], /scripted:oracle needs a task[\s\S]*frognano eval/],
      [['solve', '--repo', repo, '--issue', 'x'], /no model given/],
      [['solve', '--repo', repo, '--issue', '   ', '--model', 'scripted:noop'], /the issue is empty/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli([...args, '--data-dir', data]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, message);
    }
  });

  it('refuses a repository with no tests before the agent runs, naming the repository and the flag; --allow-unchecked lets it work unchecked', async () => {
    const repo = tempDir('fn-notests-');
    writeFileSync(join(repo, 'package.json'), '{"type":"module"}\n');
    writeFileSync(join(repo, 'math.js'), 'export const add = (a, b) => a - b;\n');
    const script = join(tempDir(), 'fix.json');
    writeFileSync(
      script,
      JSON.stringify([
        { toolCalls: [{ name: 'Write', arguments: { file_path: 'math.js', content: 'export const add = (a, b) => a + b;\n' } }] },
        { content: 'done' },
      ]),
    );
    const run = (...extra: string[]) =>
      runCli(['solve', '--repo', repo, '--issue', 'add is wrong', '--model', `scripted:${script}`, '--data-dir', tempDir('fn-data-'), ...extra]);
    const r = await run('--apply');
    assert.equal(r.code, 2, r.err + r.out);
    assert.match(r.err, new RegExp(`nothing can check a change: could not tell how ${repo} runs its tests`));
    assert.match(r.err, /fix: pass --test-command "CMD".*or --allow-unchecked/);
    assert.doesNotMatch(r.err, /solve-|--runner|step 1/, 'no temporary copy, no flag solve lacks, and the agent never ran');
    assert.equal(readFileSync(join(repo, 'math.js'), 'utf8'), 'export const add = (a, b) => a - b;\n');
    const allowed = await run('--allow-unchecked');
    assert.equal(allowed.code, 0, allowed.err + allowed.out);
    assert.match(allowed.err, /the change will not be checked \(--allow-unchecked\)/);
    assert.match(allowed.out, /verdict: unchecked \(could not tell how .* runs its tests/);
    assert.doesNotMatch(allowed.out + allowed.err, /solve-[A-Za-z0-9]{6}/, 'messages name the repository, not its temporary copy');
  });

  it('refuses a repository whose tests do not complete before any change', async () => {
    const repo = project({ git: true });
    const crash = ['--test-command', 'echo Segmentation fault; exit 139', '--report', 'tap'];
    const r = await runCli(['solve', '--repo', repo, '--issue', 'add is wrong', '--model', 'scripted:noop', '--data-dir', tempDir('fn-data-'), ...crash]);
    assert.equal(r.code, 2, r.err + r.out);
    assert.match(r.err, new RegExp(`the tests of ${repo} do not complete before any change: the tap report could not be read`));
    assert.match(r.err, /fix: fix --test-command .* or --allow-unchecked/);
    assert.doesNotMatch(r.err, /stopped:/, 'the agent never ran');
  });

  it('takes --issue as a file when it looks like one: a missing one is an error naming it, a sentence is the text', async () => {
    const repo = project({ git: true });
    const data = tempDir('fn-data-');
    for (const missing of ['issue.md', 'docs/bug', 'notes\\bug.txt']) {
      const r = await runCli(['solve', '--repo', repo, '--issue', missing, '--model', 'scripted:noop', '--data-dir', data]);
      assert.equal(r.code, 2, `${missing}: ${r.err}`);
      assert.match(r.err, new RegExp(`--issue ${missing.replaceAll('\\', '\\\\')}: no such file`));
    }
    const dir = await runCli(['solve', '--repo', repo, '--issue', repo, '--model', 'scripted:noop', '--data-dir', data]);
    assert.match(dir.err, /is a directory/);
    const text = await runCli(['solve', '--repo', repo, '--issue', 'add/sub are swapped in math.js', '--model', 'scripted:noop', '--data-dir', data]);
    assert.equal(text.code, 1, 'a sentence is the issue itself: the agent runs (and, scripted to do nothing, changes nothing)');
    assert.match(text.out, /No changes/);
    const report = await runCli([
      'solve',
      '--repo',
      repo,
      '--issue',
      'x y',
      '--test-command',
      'make check',
      '--report',
      'xml',
      '--model',
      'scripted:noop',
      '--data-dir',
      data,
    ]);
    assert.equal(report.code, 2);
    assert.match(report.err, /--report "xml" is not supported/);
  });

  it('documents itself in the help', async () => {
    assert.match((await runCli(['--help'])).out, /solve .*your own repository/);
    const h = await runCli(['solve', '--help']);
    assert.match(h.out, /--apply/);
    assert.match(h.out, /scripted:oracle\s+NOT a model/);
    assert.match(h.out, /--allow-unchecked/);
    assert.match(h.out, /names a file, and is an\s+error when there is none/);
  });
});
