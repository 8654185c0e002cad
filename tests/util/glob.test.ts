import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { globToRegExp, matchesAny } from '../../src/util/glob.js';

describe('globs over relative paths', () => {
  it('** spans directories, * stays in one segment', () => {
    assert.ok(matchesAny('tests/a/b.py', ['tests/**']));
    assert.ok(matchesAny('pkg/sub/test_x.py', ['**/test_*.py']));
    assert.ok(matchesAny('test_x.py', ['**/test_*.py']));
    assert.ok(!matchesAny('src/tests.py', ['tests/**']));
    assert.ok(!globToRegExp('src/*.js').test('src/a/b.js'));
    assert.ok(globToRegExp('src/?.js').test('src/a.js'));
  });

  it('treats regex characters literally', () => {
    assert.ok(globToRegExp('a+b(c).js').test('a+b(c).js'));
    assert.ok(!globToRegExp('a.js').test('abjs'));
  });
});
