import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sourceFiles } from '../../src/taskpilot/sources.js';
import { makeJsEnv } from '../helpers/env.js';
import { join } from 'node:path';

describe('the sources generators may change', () => {
  it('are the library code: not tests, tooling folders, declaration files or tool config', () => {
    const env = makeJsEnv({
      'index.js': 'export const a = 1;\n',
      'lib/b.js': 'export const b = 2;\n',
      'scripts/build.js': 'console.log(1);\n',
      'benchmark/run.js': 'console.log(1);\n',
      'examples/demo.js': 'console.log(1);\n',
      'index.d.ts': 'export declare const a: number;\n',
      'gulpfile.js': 'module.exports = {};\n',
      'vite.config.js': 'export default {};\n',
    });
    const rels = sourceFiles(join(env.baseDir, 'repo'), env.spec).map((f) => f.rel);
    assert.deepEqual(rels.sort(), ['index.js', 'lib/b.js']);
  });
});
