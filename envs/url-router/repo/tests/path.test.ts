import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hasTrailingSlash, joinPaths, normalizePath, safeDecode, splitPath, splitUrl } from '../src/path.ts';

describe('path', () => {
  it('splits path-only URLs into path, query and hash', () => {
    assert.deepEqual(splitUrl('/a/b?x=1&y=2#top'), { path: '/a/b', query: 'x=1&y=2', hash: 'top' });
    assert.deepEqual(splitUrl('/a#frag?notquery'), { path: '/a', query: '', hash: 'frag?notquery' });
    assert.deepEqual(splitUrl('?q=1'), { path: '/', query: 'q=1', hash: '' });
    assert.deepEqual(splitUrl('/plain'), { path: '/plain', query: '', hash: '' });
    assert.deepEqual(splitUrl('#only'), { path: '/', query: '', hash: 'only' });
  });

  it('strips scheme and authority from absolute URLs', () => {
    assert.deepEqual(splitUrl('https://example.com:8080/x/y?z=1'), { path: '/x/y', query: 'z=1', hash: '' });
    assert.deepEqual(splitUrl('http://example.com'), { path: '/', query: '', hash: '' });
    assert.deepEqual(splitUrl('http://example.com?a=b'), { path: '/', query: 'a=b', hash: '' });
  });

  it('decodes percent escapes and tolerates malformed ones', () => {
    assert.equal(safeDecode('hello%20world'), 'hello world');
    assert.equal(safeDecode('caf%C3%A9'), 'café');
    assert.equal(safeDecode('no-escapes'), 'no-escapes');
    assert.equal(safeDecode('%41%E0%'), 'A%E0%');
    assert.equal(safeDecode('100%'), '100%');
    assert.equal(safeDecode('%7e%zz'), '~%zz');
    assert.equal(safeDecode('%80%7F%41'), '%80\x7fA');
  });

  it('collapses slashes and resolves dot segments', () => {
    assert.equal(normalizePath('//a///b/'), '/a/b');
    assert.equal(normalizePath('/a/./b/../c'), '/a/c');
    assert.equal(normalizePath('/../../x'), '/x');
    assert.equal(normalizePath('a/b'), '/a/b');
    assert.equal(normalizePath(''), '/');
    assert.equal(normalizePath('/a/..'), '/');
    assert.equal(normalizePath('/a/b/c/../../d'), '/a/d');
  });

  it('applies the trailing slash policy', () => {
    assert.equal(normalizePath('/a/b/', { trailingSlash: 'keep' }), '/a/b/');
    assert.equal(normalizePath('/a/b', { trailingSlash: 'keep' }), '/a/b');
    assert.equal(normalizePath('/a/b/.', { trailingSlash: 'keep' }), '/a/b/');
    assert.equal(normalizePath('/a/b/c/..', { trailingSlash: 'keep' }), '/a/b/');
    assert.equal(normalizePath('/a/./b', { trailingSlash: 'keep' }), '/a/b');
    assert.equal(normalizePath('/a/b', { trailingSlash: 'add' }), '/a/b/');
    assert.equal(normalizePath('/a/b//', { trailingSlash: 'strip' }), '/a/b');
    assert.equal(normalizePath('/', { trailingSlash: 'add' }), '/');
    assert.equal(normalizePath('/', { trailingSlash: 'keep' }), '/');
  });

  it('optionally lowercases the path', () => {
    assert.equal(normalizePath('/Users/ME/', { lowercase: true }), '/users/me');
    assert.equal(normalizePath('/Users/ME/'), '/Users/ME');
  });

  it('splits paths into decoded segments', () => {
    assert.deepEqual(splitPath('/a/b%20c/'), ['a', 'b c']);
    assert.deepEqual(splitPath('/'), []);
    assert.deepEqual(splitPath('//x//y'), ['x', 'y']);
    assert.deepEqual(splitPath('/a%2Fb/c'), ['a/b', 'c']);
  });

  it('detects trailing slashes', () => {
    assert.equal(hasTrailingSlash('/a/'), true);
    assert.equal(hasTrailingSlash('/a'), false);
    assert.equal(hasTrailingSlash('/'), false);
    assert.equal(hasTrailingSlash(''), false);
    assert.equal(hasTrailingSlash('a/'), true);
  });

  it('joins path fragments with single slashes', () => {
    assert.equal(joinPaths('/api/', '/v1', 'users'), '/api/v1/users');
    assert.equal(joinPaths('/api', '/users/'), '/api/users/');
    assert.equal(joinPaths('/', '/'), '/');
    assert.equal(joinPaths(), '/');
    assert.equal(joinPaths('//a//', '', 'b'), '/a/b');
    assert.equal(joinPaths('/a/', '/'), '/a');
  });
});
