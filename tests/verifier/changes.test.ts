import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptChanges, protectedReason } from '../../src/verifier/changes.js';
import { fileDiff } from '../../src/util/diff.js';

const TESTS = ['tests/**'];

describe('accepted changes', () => {
  it('keeps source changes and drops tests, runner config and start-up hooks', () => {
    const diff = [
      fileDiff('src/math.js', 'a - b\n', 'a + b\n'),
      fileDiff('tests/math.test.js', 'assert(x)\n', 'assert(true)\n'),
      fileDiff('conftest.py', '', 'import pytest\n'),
      fileDiff('lib/conftest.py', '', 'import pytest\n'),
      fileDiff('package.json', '{}\n', '{"scripts":{}}\n'),
      fileDiff('pytest.ini', '', '[pytest]\naddopts = -k nothing\n'),
      fileDiff('sitecustomize.py', '', 'import os\n'),
      fileDiff('vitest.config.ts', '', 'export default {}\n'),
      fileDiff('.mocharc.json', '', '{}\n'),
    ].join('');
    const out = acceptChanges(diff, TESTS);
    assert.deepEqual(out.files, ['src/math.js']);
    assert.match(out.patch, /^\+a \+ b$/m);
    assert.doesNotMatch(out.patch, /assert\(true\)|import pytest|scripts|addopts/);
    assert.deepEqual(
      out.dropped.map((d) => d.file),
      ['tests/math.test.js', 'conftest.py', 'lib/conftest.py', 'package.json', 'pytest.ini', 'sitecustomize.py', 'vitest.config.ts', '.mocharc.json'],
    );
    assert.equal(out.dropped[0]!.reason, 'a test file');
  });

  it('drops hidden test files even outside the test globs, and deletions of tests', () => {
    const diff =
      fileDiff('spec/hidden_check.py', '', 'def test(): pass\n') +
      'diff --git a/tests/a.test.js b/tests/a.test.js\ndeleted file mode 100644\nindex 1111111..0000000\n--- a/tests/a.test.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n';
    const out = acceptChanges(diff, TESTS, ['spec/hidden_check.py']);
    assert.equal(out.patch, '');
    assert.equal(out.dropped.length, 2);
  });

  it('drops symbolic links, renames into tests, and paths it cannot read', () => {
    const link =
      'diff --git a/src/x.js b/src/x.js\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/src/x.js\n@@ -0,0 +1 @@\n+../tests/a.test.js\n\\ No newline at end of file\n';
    const rename = 'diff --git a/src/old.js b/tests/old.js\nsimilarity index 100%\nrename from src/old.js\nrename to tests/old.js\n';
    const quoted = 'diff --git "a/src/\\346.js" "b/src/\\346.js"\nnew file mode 100644\n--- /dev/null\n+++ "b/src/\\346\\227.js"\n@@ -0,0 +1 @@\n+x\n';
    const out = acceptChanges(link + rename + quoted, TESTS);
    assert.equal(out.dropped[0]!.reason, 'a symbolic link');
    assert.equal(out.dropped[1]!.reason, 'a test file');
    assert.equal(out.dropped.length + out.files.length, 3);
    assert.ok(!out.patch.includes('120000') && !out.patch.includes('rename to tests'));
  });

  it('names what is protected', () => {
    assert.equal(protectedReason('src/a.py', TESTS), null);
    assert.equal(protectedReason('tests/deep/x.py', TESTS), 'a test file');
    assert.equal(protectedReason('src/../tests/x.py', TESTS), 'the path leaves the repository');
    assert.equal(protectedReason('.git/config', TESTS), 'runner or interpreter configuration');
    assert.equal(protectedReason('node_modules/assert/index.js', TESTS), 'runner or interpreter configuration');
  });
});
