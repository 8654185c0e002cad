import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { addEnvironment, findEnvironment } from '../../src/env/registry.js';
import { Store } from '../../src/store/store.js';
import { UserError } from '../../src/util/errors.js';
import { git } from '../../src/util/git.js';
import { tempDir } from '../helpers/workspace.js';

function repo(files: Record<string, string>): string {
  const dir = join(tempDir('fn-repo-'), 'my-lib');
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

describe('env add', () => {
  it('infers a Python repository: pytest with a JUnit report, tests path, name', async () => {
    const store = new Store(tempDir());
    const { spec } = await addEnvironment(store, repo({ 'pyproject.toml': '[project]\nname="x"\n', 'lib/a.py': '', 'tests/test_a.py': '' }));
    assert.equal(spec.name, 'my-lib');
    assert.equal(spec.language, 'python');
    assert.equal(spec.test.report.format, 'junit');
    assert.ok(spec.test.command.includes('--junitxml={report}'));
    assert.deepEqual(spec.testPaths, ['tests/**']);
    assert.equal(findEnvironment(store, 'my-lib').spec.name, 'my-lib');
    store.close();
  });

  it('infers a JavaScript repository using jest, with npm ci as setup and node_modules as the layer', async () => {
    const store = new Store(tempDir());
    const dir = repo({ 'package.json': JSON.stringify({ devDependencies: { jest: '29' } }), 'package-lock.json': '{}', '__tests__/a.test.js': '' });
    const { spec } = await addEnvironment(store, dir, { name: 'jsx' });
    assert.equal(spec.language, 'javascript');
    assert.deepEqual(spec.setup, ['npm ci --no-audit --no-fund || npm install --no-audit --no-fund --legacy-peer-deps']);
    assert.deepEqual(spec.layer, ['node_modules']);
    assert.equal(spec.test.report.format, 'jest-json');
    assert.equal(spec.test.command[0], 'node', 'calls the runner directly, not npm test');
    store.close();
  });

  it('says which flag to pass when the language cannot be told', async () => {
    const store = new Store(tempDir());
    await assert.rejects(addEnvironment(store, repo({ 'README.md': 'hi' })), (err: Error) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /could not tell the language/);
      assert.match(err.hint ?? '', /--language/);
      return true;
    });
    store.close();
  });

  it('says what to pass when the tests cannot be found', async () => {
    const store = new Store(tempDir());
    await assert.rejects(addEnvironment(store, repo({ 'package.json': '{}', 'index.js': '' })), (err: Error) => {
      assert.match(err.message, /could not tell how .* runs its tests/);
      assert.match((err as UserError).hint ?? '', /^pass --runner node-test\|tape\|brittle\|mocha/);
      return true;
    });
    store.close();
  });

  it('registers a git repository by URL at a pinned commit', async () => {
    const dir = repo({ 'setup.py': '', 'pkg/__init__.py': '', 'tests/test_x.py': 'def test_x():\n    pass\n' });
    await git(['init', '-q'], { cwd: dir });
    await git(['add', '-A'], { cwd: dir });
    await git(['commit', '-qm', 'init'], { cwd: dir });
    const head = (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    const store = new Store(tempDir());
    const { spec } = await addEnvironment(store, `file://${dir}`, { name: 'from-git' });
    assert.deepEqual(spec.source, { git: `file://${dir}`, ref: head });
    store.close();
  });

  it('refuses the name of a starter environment', async () => {
    const store = new Store(tempDir());
    await assert.rejects(addEnvironment(store, repo({ 'setup.py': '', 'tests/test_a.py': '' }), { name: 'lru-cache' }), /starter environment/);
    await assert.rejects(addEnvironment(store, repo({ 'setup.py': '', 'tests/test_a.py': '' }), { name: 'lru-cache', force: true }), /starter environment/);
    store.close();
  });

  it('refuses a name already registered unless forced, which replaces it', async () => {
    const store = new Store(tempDir());
    const first = repo({ 'setup.py': '', 'tests/test_a.py': '' });
    const second = repo({ 'package.json': JSON.stringify({ devDependencies: { jest: '29' } }), '__tests__/a.test.js': '' });
    assert.equal((await addEnvironment(store, first)).replaced, undefined);
    await assert.rejects(addEnvironment(store, second), (err: Error) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /"my-lib" is already registered \(added by `env add .*my-lib`/);
      assert.match(err.hint ?? '', /--force/);
      assert.match(err.hint ?? '', /--name/);
      return true;
    });
    assert.equal(findEnvironment(store, 'my-lib').spec.language, 'python', 'the first registration is intact');
    store.recordCheck({ env: 'my-lib', runtime: 'bwrap', accepted: true, summary: {}, tests: [] });
    assert.ok(store.latestChecks().has('my-lib'));
    const { spec, replaced } = await addEnvironment(store, second, { force: true });
    assert.equal(store.latestChecks().has('my-lib'), false, 'the old environment check is not shown for the new one');
    assert.equal(spec.language, 'javascript');
    assert.equal(replaced?.origin, `env add ${first}`);
    assert.equal(findEnvironment(store, 'my-lib').spec.language, 'javascript');
    store.close();
  });
});

describe('env add on shapes the sample of real repositories showed', () => {
  it('reads a testpaths folder written with a trailing slash', async () => {
    const store = new Store(tempDir());
    const { spec } = await addEnvironment(
      store,
      repo({ 'setup.cfg': '[tool:pytest]\ntestpaths = t/unit/\n', 'vine/__init__.py': '', 't/unit/test_a.py': 'def test_a():\n    pass\n' }),
    );
    assert.equal(spec.language, 'python');
    assert.ok(
      spec.testPaths.some((g) => g.startsWith('t/unit')),
      spec.testPaths.join(', '),
    );
    store.close();
  });

  it('takes a Python project that keeps a package.json for front-end tooling (no npm test script) for Python', async () => {
    const store = new Store(tempDir());
    const { spec } = await addEnvironment(
      store,
      repo({
        'package.json': JSON.stringify({ scripts: { build: 'lerna run build' } }),
        'pyproject.toml': '[project]\nname = "nb"\n',
        'nb/__init__.py': '',
        'tests/test_nb.py': 'def test_a():\n    pass\n',
      }),
    );
    assert.equal(spec.language, 'python');
    store.close();
  });
});
