import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileDiff } from '../../src/util/diff.js';
import { forgingSigns } from '../../src/verifier/forging.js';

const added = (file: string, lines: string) => fileDiff(file, '', `${lines}\n`);
const kinds = (patch: string) => forgingSigns(patch).map((s) => s.kind);

describe('the static check for forging', () => {
  it('sees each kind of forging in Python source', () => {
    const cases: [string, string][] = [
      ['import _pytest.reports', 'reaches into the test framework'],
      ['def pytest_runtest_makereport(item, call):', 'reaches into the test framework'],
      ['atexit.register(leave)', 'registers an exit hook'],
      ['os._exit(0)', 'registers an exit hook'],
      ['path = "--junitxml="', 'names the test report'],
      ['frame = sys._getframe(1)', 'inspects the caller\u2019s stack'],
      ['line = frame.f_back.f_lineno', 'inspects the caller\u2019s stack'],
      ['objs = gc.get_objects()', 'inspects the caller\u2019s stack'],
      ['builtins.print = quiet', 'patches builtins or output'],
      ['sys.stdout = io.StringIO()', 'patches builtins or output'],
      ['if os.fork() == 0:', 'starts a process'],
      ['import subprocess', 'starts a process'],
    ];
    for (const [line, kind] of cases) assert.ok(kinds(added('pkg/mod.py', line)).includes(kind), line);
    assert.deepEqual(kinds(added('pkg/mod.py', 'class R:\n    def __eq__(self, other):\n        """Equal to anything."""\n        return True')), [
      'makes equality always true',
    ]);
    assert.deepEqual(kinds(added('pkg/mod.py', 'R.__eq__ = lambda self, other: True')), ['makes equality always true']);
  });

  it('sees each kind of forging in JavaScript and TypeScript source', () => {
    const cases: [string, string][] = [
      ["import { it } from 'node:test';", 'reaches into the test framework'],
      ['assert.strictEqual = () => {};', 'reaches into the test framework'],
      ['for (const k of Object.keys(assert)) assert[k] = noop;', 'reaches into the test framework'],
      ["process.on('exit', () => {});", 'registers an exit hook'],
      ["const dest = args.find((a) => a.startsWith('--test-reporter-destination='));", 'names the test report'],
      ["out.write('ok 1 - add sums');", 'names the test report'],
      ['Error.prepareStackTrace = (_, frames) => frames;', 'inspects the caller\u2019s stack'],
      ['const where = new Error().stack;', 'inspects the caller\u2019s stack'],
      ['process.stdout.write = quiet;', 'patches builtins or output'],
      ["import { spawn } from 'node:child_process';", 'starts a process'],
    ];
    for (const [line, kind] of cases) {
      assert.ok(kinds(added('src/mod.js', line)).includes(kind), line);
      assert.ok(kinds(added('src/mod.ts', line)).includes(kind), `${line} (TypeScript)`);
    }
  });

  it('reads only added source lines, without comments', () => {
    assert.deepEqual(forgingSigns(fileDiff('pkg/mod.py', 'import atexit\n', 'import os\n')), [], 'a removed line is no sign');
    assert.deepEqual(kinds(added('pkg/mod.py', 'x = 1  # never use atexit here')), []);
    assert.deepEqual(kinds(added('src/mod.js', "const x = 1; // process.on('exit') would be wrong\n/* child_process\n   node:test */ const y = 2;")), []);
    assert.deepEqual(kinds(added('docs/notes.md', 'atexit, node:test, sys._getframe')), [], 'not a source file');
    assert.deepEqual(
      kinds(added('src/mod.js', "const s = 'use // in a string'; process.on('exit', f);")),
      ['registers an exit hook'],
      'a comment marker inside a string is not a comment',
    );
  });

  it('raises no alarm on any line of the starter environments’ source (every reference fix adds only such lines)', () => {
    const envs = new URL('../../envs/', import.meta.url).pathname;
    let files = 0;
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        if (statSync(p).isDirectory()) return n === 'tests' || n === 'node_modules' ? [] : walk(p);
        return /\.(py|[cm]?[jt]s)$/.test(n) ? [p] : [];
      });
    for (const path of walk(envs)) {
      files++;
      const signs = forgingSigns(added(relative(envs, path), readFileSync(path, 'utf8').trimEnd()));
      assert.deepEqual(signs, [], path);
    }
    assert.ok(files >= 30, `${files} source files read`);
  });
});
