import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RouteConflictError, Router, normalizeMethod } from '../src/router.ts';
import type { MatchResult } from '../src/router.ts';
import * as lib from '../src/index.ts';

function summary(result: MatchResult<string>): unknown {
  switch (result.status) {
    case 'found':
      return { handler: result.route.handler, params: result.params, query: { ...result.query }, path: result.path };
    case 'method-not-allowed':
      return { allowed: result.allowed, path: result.path };
    case 'redirect':
      return { location: result.location };
    default:
      return { notFound: result.path };
  }
}

function apiRouter(): Router<string> {
  const r = new Router<string>();
  r.get('/', 'home', { name: 'home' });
  r.get('/users', 'listUsers', { name: 'users' });
  r.post('/users', 'createUser');
  r.get('/users/me', 'me');
  r.get('/users/:id<int>', 'showUser', { name: 'user' });
  r.put('/users/:id<int>', 'updateUser');
  r.delete('/users/:id<int>', 'deleteUser');
  r.get('/files/*path', 'file', { name: 'file' });
  r.get('/archive/:year<int>?/:month<int:1..12>?', 'archive', { name: 'archive' });
  return r;
}

describe('router', () => {
  it('normalizes and validates method names', () => {
    assert.equal(normalizeMethod(' get '), 'GET');
    assert.equal(normalizeMethod('*'), '*');
    assert.throws(() => normalizeMethod('GE T'), /Invalid HTTP method "GE T"/);
    assert.throws(() => normalizeMethod(''), TypeError);
  });

  it('dispatches by method and path with converted params', () => {
    const r = apiRouter();
    assert.deepEqual(summary(r.match('GET', '/users/42')), {
      handler: 'showUser',
      params: { id: 42 },
      query: {},
      path: '/users/42',
    });
    assert.deepEqual(summary(r.match('put', '/users/7')), { handler: 'updateUser', params: { id: 7 }, query: {}, path: '/users/7' });
    assert.deepEqual(summary(r.match('GET', '/users/me')), { handler: 'me', params: {}, query: {}, path: '/users/me' });
    assert.deepEqual(summary(r.match('GET', '/')), { handler: 'home', params: {}, query: {}, path: '/' });
  });

  it('parses the query string of the matched URL', () => {
    const r = apiRouter();
    assert.deepEqual(summary(r.match('GET', 'https://api.test/users?page=2&tag=a&tag=b#x')), {
      handler: 'listUsers',
      params: {},
      query: { page: '2', tag: ['a', 'b'] },
      path: '/users',
    });
  });

  it('reports 405 with the sorted allowed methods', () => {
    const r = apiRouter();
    assert.deepEqual(summary(r.match('PATCH', '/users/3')), { allowed: ['DELETE', 'GET', 'HEAD', 'PUT'], path: '/users/3' });
    assert.deepEqual(summary(r.match('DELETE', '/users')), { allowed: ['GET', 'HEAD', 'POST'], path: '/users' });
    assert.deepEqual(r.allowedMethods('/users/me'), ['GET', 'HEAD']);
    assert.deepEqual(r.allowedMethods('/nowhere'), []);
    const postOnly = new Router<string>();
    postOnly.post('/submit', 'submit');
    assert.deepEqual(summary(postOnly.match('GET', '/submit')), { allowed: ['POST'], path: '/submit' });
  });

  it('reports 404 when no path matches', () => {
    const r = apiRouter();
    assert.deepEqual(summary(r.match('GET', '/users/abc')), { notFound: '/users/abc' });
    assert.deepEqual(summary(r.match('GET', '/archive/2020/13')), { notFound: '/archive/2020/13' });
  });

  it('answers HEAD with GET routes unless HEAD is registered', () => {
    const r = apiRouter();
    const head = r.match('HEAD', '/users');
    assert.equal(head.status === 'found' ? head.route.handler : head.status, 'listUsers');
    r.add('HEAD', '/users', 'headUsers');
    const own = r.match('HEAD', '/users');
    assert.equal(own.status === 'found' ? own.route.handler : own.status, 'headUsers');
    const post = r.match('HEAD', '/files');
    assert.equal(post.status === 'found' ? post.route.method : post.status, 'GET');
  });

  it('falls back to less specific routes that accept the method', () => {
    const r = new Router<string>();
    r.get('/users/me', 'me');
    r.post('/users/:id', 'postUser');
    r.any('/users/*rest', 'anyUsers');
    assert.deepEqual(summary(r.match('POST', '/users/me')), {
      handler: 'postUser',
      params: { id: 'me' },
      query: {},
      path: '/users/me',
    });
    assert.deepEqual(summary(r.match('PATCH', '/users/me')), {
      handler: 'anyUsers',
      params: { rest: 'me' },
      query: {},
      path: '/users/me',
    });
    assert.deepEqual(r.allowedMethods('/users/me'), ['*', 'GET', 'HEAD', 'POST']);
  });

  it('matches optional params and wildcards', () => {
    const r = apiRouter();
    assert.deepEqual(summary(r.match('GET', '/archive')), { handler: 'archive', params: {}, query: {}, path: '/archive' });
    assert.deepEqual(summary(r.match('GET', '/archive/2021/04')), {
      handler: 'archive',
      params: { year: 2021, month: 4 },
      query: {},
      path: '/archive/2021/04',
    });
    assert.deepEqual(summary(r.match('GET', '/files/a%20b/c.txt')), {
      handler: 'file',
      params: { path: 'a b/c.txt' },
      query: {},
      path: '/files/a%20b/c.txt',
    });
  });

  it('normalizes request paths before matching', () => {
    const r = apiRouter();
    assert.deepEqual(summary(r.match('GET', '//users/./me/')), { handler: 'me', params: {}, query: {}, path: '/users/me' });
    assert.deepEqual(summary(r.match('GET', '/files/x/../y')), { handler: 'file', params: { path: 'y' }, query: {}, path: '/files/y' });
  });

  it('redirects to the canonical path when configured', () => {
    const r = new Router<string>({ trailingSlash: 'redirect' });
    r.get('/docs/:page', 'docs');
    assert.deepEqual(summary(r.match('GET', '/docs/intro/?v=2')), { location: '/docs/intro?v=2' });
    assert.deepEqual(summary(r.match('GET', '/docs//intro')), { location: '/docs/intro' });
    assert.equal(r.match('GET', '/docs/intro').status, 'found');
    assert.equal(r.match('GET', '/nope/').status, 'not-found');
    assert.equal(r.match('POST', '/docs/intro/').status, 'method-not-allowed');
  });

  it('supports case-insensitive static matching', () => {
    const r = new Router<string>({ caseSensitive: false });
    r.get('/About/:Who', 'about');
    assert.deepEqual(summary(r.match('GET', '/ABOUT/Ann')), { handler: 'about', params: { Who: 'Ann' }, query: {}, path: '/ABOUT/Ann' });
    assert.equal(apiRouter().match('GET', '/USERS').status, 'not-found');
  });

  it('builds URLs for named routes', () => {
    const r = apiRouter();
    assert.equal(r.url('home'), '/');
    assert.equal(r.url('user', { id: 5 }), '/users/5');
    assert.equal(r.url('users', {}, { q: 'a b', page: 2 }), '/users?page=2&q=a+b');
    assert.equal(r.url('archive', { year: 2020 }), '/archive/2020');
    assert.equal(r.url('file', { path: 'docs/readme.md' }), '/files/docs/readme.md');
    assert.throws(() => r.url('user', { id: 'x' }), /does not satisfy <int>/);
    assert.throws(() => r.url('missing'), /Unknown route name "missing"/);
    assert.equal(r.hasRoute('user'), true);
    assert.equal(r.hasRoute('nobody'), false);
  });

  it('detects conflicting routes and duplicate names', () => {
    const r = apiRouter();
    assert.throws(() => r.get('/users/:id<int>', 'again'), RouteConflictError);
    assert.throws(() => r.get('/archive/:y<int>?', 'clash'), /GET \/archive\/:y<int>\? conflicts with GET \/archive/);
    assert.throws(() => r.post('/x', 'x', { name: 'home' }), /Duplicate route name "home"/);
    assert.throws(() => r.add([], '/empty', 'none'), /At least one method/);
    assert.throws(() => r.get('relative', 'rel'), /must start with "\/"/);
    assert.throws(() => r.get('/a//b', 'double'), /Empty segment/);
    const size = r.size;
    r.post('/users/:id', 'postById');
    assert.equal(r.size, size + 1);
  });

  it('registers several methods at once', () => {
    const r = new Router<string>();
    const routes = r.add(['get', 'post'], '/form', 'form', { name: 'form' });
    assert.deepEqual(routes.map((x) => x.method), ['GET', 'POST']);
    assert.equal(r.size, 2);
    assert.equal(r.url('form'), '/form');
    assert.deepEqual(r.allowedMethods('/form'), ['GET', 'HEAD', 'POST']);
  });

  it('prefixes routes registered in groups, including nested groups', () => {
    const r = new Router<string>();
    r.group('/api', (api) => {
      api.get('/status', 'status', { name: 'status' });
      api.group('v2/', (v2) => {
        v2.get('/items/:id', 'item', { name: 'item' });
      });
      api.get('/', 'apiRoot');
    });
    r.get('/status', 'rootStatus');
    assert.equal(r.url('status'), '/api/status');
    assert.equal(r.url('item', { id: 'a' }), '/api/v2/items/a');
    const root = r.match('GET', '/api');
    assert.equal(root.status === 'found' ? root.route.handler : '', 'apiRoot');
    const plain = r.match('GET', '/status');
    assert.equal(plain.status === 'found' ? plain.route.handler : '', 'rootStatus');
    assert.throws(() => r.group('/g', () => { throw new Error('boom'); }), /boom/);
    r.get('/after', 'after');
    assert.equal(r.match('GET', '/after').status, 'found');
  });

  it('lists routes by specificity then method', () => {
    const r = new Router<string>();
    r.get('/a/*rest', 'w');
    r.post('/a/:id', 'p2');
    r.get('/a/:id', 'p1');
    r.get('/a/b', 's');
    assert.deepEqual(r.routes().map((x) => `${x.method} ${x.pattern}`), ['GET /a/b', 'GET /a/:id', 'POST /a/:id', 'GET /a/*rest']);
  });

  it('describes the route tree with methods', () => {
    const r = new Router<string>();
    r.get('/a', 'x');
    r.post('/a', 'y');
    r.get('/a/:id', 'z');
    assert.equal(r.describe(), ['/', '  a [GET,POST]', '    :id [GET]'].join('\n'));
  });

  it('exposes the public API from the index module', () => {
    assert.equal(typeof lib.Router, 'function');
    assert.equal(lib.buildQuery({ a: 1 }), 'a=1');
    assert.equal(lib.normalizePath('/a/../b'), '/b');
    assert.equal(lib.ANY_METHOD, '*');
  });
});
