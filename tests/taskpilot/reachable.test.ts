import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateSpec } from '../../src/env/spec.js';
import { reachedByTests } from '../../src/taskpilot/reachable.js';
import { sourceFiles } from '../../src/taskpilot/sources.js';
import { gitRepo } from '../helpers/git-repos.js';

const spec = (language: 'javascript' | 'python', testPaths: string[]) =>
  validateSpec({
    schema: 'frognano.environment/v1',
    name: 'r',
    language,
    source: { path: '.' },
    test: { command: ['true'], report: { format: 'tap', from: 'stdout' } },
    testPaths,
  });

describe('files the tests reach through their imports', () => {
  it('follows require, import and the package name through JavaScript files, and leaves out what no test reaches', () => {
    const dir = gitRepo('js', {
      files: {
        'package.json': JSON.stringify({ name: 'my-lib', main: 'lib/index.js' }),
        'lib/index.js': "module.exports = require('./a');\n",
        'lib/a.js': "const b = require('./b.js');\nmodule.exports = () => b();\n",
        'lib/b.js': 'module.exports = () => 1;\n',
        'lib/unused.js': 'module.exports = 2;\n',
        'src/helper.ts': 'export const h = 1;\n',
        'src/entry.ts': "export { h } from './helper.js';\n",
        'test/a.test.js': "const lib = require('my-lib');\nimport('../src/entry.js');\n",
      },
    });
    const s = spec('javascript', ['test/**']);
    const reached = reachedByTests(dir, s, sourceFiles(dir, s));
    assert.deepEqual([...(reached ?? [])].sort(), ['lib/a.js', 'lib/b.js', 'lib/index.js', 'src/entry.ts', 'src/helper.ts']);
  });

  it("follows Python's absolute and relative imports, parent packages included, multi-line imports too", () => {
    const dir = gitRepo('py', {
      files: {
        'src/pkg/__init__.py': 'from .core import run\n',
        'src/pkg/core.py': 'from . import util\n',
        'src/pkg/util.py': 'X = 1\n',
        'src/pkg/sub/__init__.py': '',
        'src/pkg/sub/deep.py': 'Y = 2\n',
        'src/pkg/cli.py': 'import sys\n',
        'tests/test_a.py': 'from pkg.sub.deep import (\n    Y,\n)\nimport os\n',
      },
    });
    const s = spec('python', ['tests/**']);
    const reached = reachedByTests(dir, s, sourceFiles(dir, s));
    assert.deepEqual([...(reached ?? [])].sort(), [
      'src/pkg/__init__.py',
      'src/pkg/core.py',
      'src/pkg/sub/__init__.py',
      'src/pkg/sub/deep.py',
      'src/pkg/util.py',
    ]);
  });

  it('gives no filter when the tests reach nothing it can read', () => {
    const dir = gitRepo('none', { files: { 'lib/a.js': 'module.exports = 1;\n', 'test/a.test.js': "require('some-installed-package');\n" } });
    const s = spec('javascript', ['test/**']);
    assert.equal(reachedByTests(dir, s, sourceFiles(dir, s)), null);
  });
});
