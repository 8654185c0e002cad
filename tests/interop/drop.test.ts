// The drop step of exported SWE-bench and SWE-smith tasks
// (assets/exports/frognano_drop.py) on a small repository: what the verifier
// drops from an agent's change (src/verifier/changes.ts: tests, runner and
// interpreter configuration, links, the dependency layer) is put back as
// the base commit has it, read from the copy the image keeps outside the
// work tree; source changes stay.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { globToRegExp } from '../../src/util/glob.js';
import { exportAssetsDir } from '../../src/util/paths.js';
import { RUNNER_FILES } from '../../src/verifier/changes.js';
import { tempDir } from '../helpers/workspace.js';

const HELPER = join(exportAssetsDir, 'frognano_drop.py');
const sh = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });
const RULES = JSON.stringify({
  tests: ['tests/**'].map((g) => globToRegExp(g).source),
  runner: RUNNER_FILES.map((g) => globToRegExp(g).source),
  hidden: ['spec/hidden_check.py'],
  layer: ['node_modules'],
});

function write(root: string, rel: string, content: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

/** A repository at its base commit, set up as an image is (a dependency layer and an untracked file setup made), and recorded. */
function built(): { root: string; state: string; base: string } {
  const root = tempDir('fn-drop-');
  const state = join(tempDir('fn-drop-state-'), 'frognano');
  for (const [rel, content] of Object.entries({
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    'tests/helpers.py': 'X = 1\n',
    'pytest.ini': '[pytest]\n',
    'run.sh': 'echo run\n',
  }))
    write(root, rel, content);
  chmodSync(join(root, 'run.sh'), 0o755);
  sh(root, 'init', '-q', '-b', 'main');
  sh(root, 'add', '-A');
  sh(root, 'commit', '-qm', 'base');
  write(root, 'node_modules/runner/index.js', 'module.exports = 1;\n');
  write(root, 'build/made.txt', 'by setup\n');
  execFileSync('python3', ['-I', '-S', HELPER, 'record', root, state]);
  return { root, state, base: sh(root, 'rev-parse', 'HEAD').trim() };
}

function dropIn(root: string, state: string, base = 'HEAD'): { status: number | null; out: string } {
  const r = spawnSync('python3', ['-I', '-S', HELPER, 'drop', root, state, base, RULES], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('the drop step of exported SWE-bench and SWE-smith tasks', () => {
  it('puts back tests and runner configuration, removes what was added, keeps source changes', () => {
    const { root, state, base } = built();
    write(root, 'calc.py', 'def add(a, b):\n    return a + b\n'); // source: kept
    write(root, 'conftest.py', 'import calc\n'); // added runner file: removed
    write(root, 'pytest.ini', '[pytest]\naddopts = -p forger\n'); // changed runner file: put back
    write(root, 'tests/test_calc.py', 'def test_add():\n    pass\n'); // changed test: put back
    rmSync(join(root, 'tests/helpers.py')); // deleted test-support file: put back
    write(root, 'tests/conftest.py', 'x = 1\n');
    write(root, 'spec/hidden_check.py', 'x = 1\n'); // a hidden test of the task: removed
    write(root, 'src/pkg/sitecustomize.py', 'x = 1\n');
    write(root, 'lib.pth', 'import forger\n');
    write(root, '.npmrc', 'node-options=--require ./forge.js\n');
    write(root, 'sub/.git/config', '[core]\n'); // a nested repository
    symlinkSync('/etc/passwd', join(root, 'data.txt')); // an added link
    chmodSync(join(root, 'run.sh'), 0o644); // mode of a tracked file that is no runner file: kept
    const { status, out } = dropIn(root, state, base);
    assert.equal(status, 0, out);
    assert.equal(readFileSync(join(root, 'calc.py'), 'utf8'), 'def add(a, b):\n    return a + b\n');
    assert.equal(readFileSync(join(root, 'pytest.ini'), 'utf8'), '[pytest]\n');
    assert.match(readFileSync(join(root, 'tests/test_calc.py'), 'utf8'), /assert add\(2, 3\) == 5/);
    assert.equal(readFileSync(join(root, 'tests/helpers.py'), 'utf8'), 'X = 1\n');
    for (const gone of [
      'conftest.py',
      'tests/conftest.py',
      'spec/hidden_check.py',
      'src/pkg/sitecustomize.py',
      'lib.pth',
      '.npmrc',
      'sub/.git/config',
      'data.txt',
    ]) {
      assert.ok(!existsSync(join(root, gone)) && !isLink(join(root, gone)), gone);
    }
    assert.equal(readFileSync(join(root, 'build/made.txt'), 'utf8'), 'by setup\n', 'what setup made stays');
    assert.match(out, /dropped conftest\.py \(runner or interpreter configuration\): removed/);
    assert.match(out, /dropped the change to pytest\.ini \(runner or interpreter configuration\): put back/);
  });

  it('puts back a test folder a link replaced, and a tracked file a link replaced', () => {
    const { root, state } = built();
    rmSync(join(root, 'tests'), { recursive: true });
    const elsewhere = tempDir('fn-drop-elsewhere-');
    write(elsewhere, 'test_calc.py', 'def test_add():\n    pass\n');
    symlinkSync(elsewhere, join(root, 'tests'));
    rmSync(join(root, 'calc.py'));
    symlinkSync(join(elsewhere, 'test_calc.py'), join(root, 'calc.py'));
    const { status, out } = dropIn(root, state);
    assert.equal(status, 0, out);
    assert.ok(!isLink(join(root, 'tests')) && existsSync(join(root, 'tests/test_calc.py')));
    assert.match(readFileSync(join(root, 'tests/test_calc.py'), 'utf8'), /== 5/);
    assert.ok(!isLink(join(root, 'calc.py')));
    assert.match(readFileSync(join(root, 'calc.py'), 'utf8'), /a - b/);
  });

  it('refuses the run where the prediction changed the dependency layer, which cannot be put back', () => {
    const { root, state } = built();
    write(root, 'node_modules/runner/index.js', 'module.exports = () => "ok";\n');
    const { status, out } = dropIn(root, state);
    assert.equal(status, 3, out);
    assert.match(out, /changed the dependency layer/);
  });

  it("reads the base from its own copy of the repository: the work tree's .git is the prediction's to change", () => {
    const { root, state } = built();
    write(root, 'conftest.py', 'import calc\n');
    // A prediction applied by GNU patch can rewrite the work tree's .git: its objects and config are never used.
    rmSync(join(root, '.git', 'objects'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[core]\n\tfsmonitor = touch /tmp/fn-drop-pwned\n');
    const { status, out } = dropIn(root, state);
    assert.equal(status, 0, out);
    assert.ok(!existsSync(join(root, 'conftest.py')));
    writeFileSync(join(root, '.git', 'HEAD'), '0123456789012345678901234567890123456789\n');
    const unknown = dropIn(root, state);
    assert.equal(unknown.status, 3, 'a HEAD the image does not have is refused');
  });
});

function isLink(path: string): boolean {
  try {
    readlinkSync(path);
    return true;
  } catch {
    return false;
  }
}
