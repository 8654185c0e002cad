import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorExcerpt, explainFailure } from '../../src/grading/diagnose.js';
import { gitRepo } from '../helpers/git-repos.js';

describe('explaining a broken suite', () => {
  const repo = gitRepo('proj', {
    files: {
      'package.json': JSON.stringify({ scripts: { build: 'tsc' }, devDependencies: { jest: '29' } }),
      'mypkg/__init__.py': '',
    },
  });

  it('tells a missing generated module of the project from a missing dependency', () => {
    const own = explainFailure(["E   ModuleNotFoundError: No module named 'mypkg._version'"], repo);
    assert.equal(own?.cause, 'generated-module');
    const dep = explainFailure(["ModuleNotFoundError: No module named 'numpy'"], repo);
    assert.equal(dep?.cause, 'missing-dependency');
    assert.match(dep?.fix ?? '', /declare numpy/);
  });

  it('finds the first error inside a pytest collection block, not a later generic one', () => {
    const out = [
      '==== ERRORS ====',
      '_____ ERROR collecting tests/test_a.py _____',
      'ImportError while importing test module',
      "E   ModuleNotFoundError: No module named 'mypkg.gen'",
      '=== short test summary info ===',
      'RuntimeError: later',
    ].join('\n');
    assert.equal(explainFailure([out], repo)?.error, "ModuleNotFoundError: No module named 'mypkg.gen'");
    assert.match(errorExcerpt(out) ?? '', /ERROR collecting tests\/test_a\.py/);
  });

  it("names ts-node for jest's TypeScript config, and the build for a missing relative file", () => {
    const ts = explainFailure(["Error: Jest: 'ts-node' is required for the TypeScript configuration files. Make sure it is installed"], repo);
    assert.equal(ts?.cause, 'undeclared-dependency');
    assert.match(ts?.fix ?? '', /add ts-node to package.json's devDependencies/);
    const built = explainFailure(["Error: Cannot find module '../dist/index.js'"], repo);
    assert.equal(built?.cause, 'generated-module');
    assert.match(built?.fix ?? '', /npm run build/);
    const declared = explainFailure(["Cannot find module 'jest-circus'"], repo);
    assert.equal(declared?.cause, 'undeclared-dependency');
  });

  it('tells a test command this Node does not know from a broken suite', () => {
    const out = 'node: bad option: --experimental-transform-types';
    assert.equal(explainFailure([out], repo)?.cause, 'runtime-version');
    assert.equal(errorExcerpt(out), out);
  });

  it('says nothing where nothing looks like an error', () => {
    assert.equal(explainFailure(['ok 1 - adds', '1 passing'], repo), null);
  });
});
