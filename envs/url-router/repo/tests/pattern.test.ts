import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  PatternError,
  applyConstraint,
  buildPath,
  compareSpecificity,
  constraintKey,
  parseIntConstraint,
  parsePattern,
  specificity,
} from '../src/pattern.ts';

describe('pattern', () => {
  it('parses static, param and wildcard segments', () => {
    const p = parsePattern('/users/:id/files/*path');
    assert.deepEqual(p.segments, [
      { type: 'static', value: 'users' },
      { type: 'param', name: 'id', optional: false, constraint: null },
      { type: 'static', value: 'files' },
      { type: 'wildcard', name: 'path' },
    ]);
    assert.deepEqual(p.paramNames, ['id', 'path']);
    assert.equal(p.trailingSlash, false);
  });

  it('parses the root pattern and trailing slashes', () => {
    const root = parsePattern('/');
    assert.deepEqual(root.segments, []);
    assert.equal(root.trailingSlash, false);
    const slash = parsePattern('/docs/');
    assert.deepEqual(slash.segments, [{ type: 'static', value: 'docs' }]);
    assert.equal(slash.trailingSlash, true);
  });

  it('gives an unnamed wildcard the default name', () => {
    const p = parsePattern('/static/*');
    assert.deepEqual(p.segments[1], { type: 'wildcard', name: 'wildcard' });
  });

  it('parses int constraints with and without ranges', () => {
    assert.deepEqual(parseIntConstraint('int', '/x', 0), { kind: 'int', min: null, max: null });
    assert.deepEqual(parseIntConstraint('int:1..50', '/x', 0), { kind: 'int', min: 1, max: 50 });
    assert.deepEqual(parseIntConstraint('int:-5..', '/x', 0), { kind: 'int', min: -5, max: null });
    assert.deepEqual(parseIntConstraint('int:..9', '/x', 0), { kind: 'int', min: null, max: 9 });
    assert.deepEqual(parseIntConstraint('int:3..3', '/x', 0), { kind: 'int', min: 3, max: 3 });
    assert.throws(() => parseIntConstraint('int:5..4', '/x', 2), /Empty range 5\.\.4/);
    assert.throws(() => parseIntConstraint('float', '/x', 2), PatternError);
  });

  it('parses regex constraints with nested groups and optional markers', () => {
    const p = parsePattern('/posts/:slug((?:[a-z]+-)*[a-z]+)?');
    const seg = p.segments[1];
    assert.equal(seg.type, 'param');
    if (seg.type !== 'param') return;
    assert.equal(seg.optional, true);
    assert.equal(seg.constraint?.kind, 'regex');
    assert.equal(constraintKey(seg.constraint), '((?:[a-z]+-)*[a-z]+)');
    const escaped = parsePattern('/v/:n(a\\))');
    const eseg = escaped.segments[1];
    assert.ok(eseg.type === 'param' && eseg.constraint?.kind === 'regex');
    assert.equal(constraintKey(eseg.constraint), '(a\\))');
    assert.equal(applyConstraint(eseg.constraint, 'a)'), 'a)');
  });

  it('reports syntax errors with their position', () => {
    const cases: Array<[string, RegExp]> = [
      ['users', /must start with "\/" in pattern "users" at 0/],
      ['/a//b', /Empty segment in pattern "\/a\/\/b" at 3/],
      ['/a/*rest/b', /Wildcard must be the last segment .* at 3/],
      ['/a/:', /Missing parameter name .* at 3/],
      ['/a/:<int>', /Missing parameter name .* at 3/],
      ['/a/:id<int', /Unclosed "<" .* at 6/],
      ['/a/:id([0-9]', /Unbalanced "\(" .* at 6/],
      ['/a/:id([)', /Invalid regular expression \/\[\/ .* at 6/],
      ['/a/:id-x', /Unexpected "-x" .* at 6/],
      ['/a/:x?/:y', /Required parameter after optional one .* at 7/],
      ['/a/:x?/b', /Static segment after optional parameter .* at 7/],
      ['/a/:x/:x', /Duplicate parameter "x" .* at 6/],
      ['/a/*x-y', /Invalid wildcard name .* at 3/],
    ];
    for (const [source, message] of cases) {
      assert.throws(() => parsePattern(source), (err: unknown) => {
        assert.ok(err instanceof PatternError, source);
        assert.match(err.message, message);
        assert.equal(err.pattern, source);
        return true;
      });
    }
  });

  it('applies int constraints with ranges and conversion', () => {
    const c = parseIntConstraint('int:1..10', '/x', 0);
    assert.equal(applyConstraint(c, '1'), 1);
    assert.equal(applyConstraint(c, '10'), 10);
    assert.equal(applyConstraint(c, '0'), undefined);
    assert.equal(applyConstraint(c, '11'), undefined);
    assert.equal(applyConstraint(c, '5a'), undefined);
    const any = parseIntConstraint('int', '/x', 0);
    assert.equal(applyConstraint(any, '-42'), -42);
    assert.equal(applyConstraint(any, '007'), 7);
    assert.equal(applyConstraint(any, '99999999999999999999'), undefined);
    assert.equal(applyConstraint(any, ''), undefined);
  });

  it('applies regex constraints anchored to the whole segment', () => {
    const p = parsePattern('/:code([A-Z]{3})');
    const seg = p.segments[0];
    assert.ok(seg.type === 'param');
    assert.equal(applyConstraint(seg.constraint, 'EUR'), 'EUR');
    assert.equal(applyConstraint(seg.constraint, 'EURO'), undefined);
    assert.equal(applyConstraint(seg.constraint, 'xEUR'), undefined);
    assert.equal(applyConstraint(null, 'anything'), 'anything');
  });

  it('formats constraint keys', () => {
    assert.equal(constraintKey(null), '');
    assert.equal(constraintKey(parseIntConstraint('int', '/', 0)), '<int>');
    assert.equal(constraintKey(parseIntConstraint('int:2..', '/', 0)), '<int:2..>');
    assert.equal(constraintKey(parseIntConstraint('int:..7', '/', 0)), '<int:..7>');
    assert.equal(constraintKey(parseIntConstraint('int:0..7', '/', 0)), '<int:0..7>');
  });

  it('scores specificity by segment kind', () => {
    assert.equal(specificity(parsePattern('/')), 0);
    assert.equal(specificity(parsePattern('/a/b')), 200);
    assert.equal(specificity(parsePattern('/a/:id')), 110);
    assert.equal(specificity(parsePattern('/a/:id<int>')), 120);
    assert.equal(specificity(parsePattern('/a/:id?')), 105);
    assert.equal(specificity(parsePattern('/a/:id<int>?')), 115);
    assert.equal(specificity(parsePattern('/a/*rest')), 101);
  });

  it('orders patterns by specificity, length, then source', () => {
    const sources = ['/a/*rest', '/a/:id', '/a/b', '/a/:id<int>', '/b/c', '/a/:x/:y', '/a'];
    const sorted = sources.map(parsePattern).sort(compareSpecificity).map((p) => p.source);
    assert.deepEqual(sorted, ['/a/b', '/b/c', '/a/:x/:y', '/a/:id<int>', '/a/:id', '/a/*rest', '/a']);
    assert.equal(compareSpecificity(parsePattern('/x'), parsePattern('/x')), 0);
    assert.equal(compareSpecificity(parsePattern('/a'), parsePattern('/b')), -1);
    assert.equal(compareSpecificity(parsePattern('/b'), parsePattern('/a')), 1);
    assert.ok(compareSpecificity(parsePattern('/:a/:b'), parsePattern('/c/*w')) > 0);
    assert.ok(compareSpecificity(parsePattern('/c/:x'), parsePattern('/c/*w/')) < 0);
    assert.ok(compareSpecificity(parsePattern('/*w'), parsePattern('/:q<int>?')) > 0);
  });

  it('builds paths from params with encoding', () => {
    const p = parsePattern('/users/:id/posts/:slug');
    assert.equal(buildPath(p, { id: 7, slug: 'hello world' }), '/users/7/posts/hello%20world');
    assert.equal(buildPath(parsePattern('/u/:name'), { name: 'a@b:c/d' }), '/u/a@b:c%2Fd');
    assert.equal(buildPath(parsePattern('/')), '/');
    assert.equal(buildPath(parsePattern('/docs/')), '/docs/');
  });

  it('stops at missing optional params and fills wildcards', () => {
    const p = parsePattern('/archive/:year<int>?/:month<int:1..12>?');
    assert.equal(buildPath(p, {}), '/archive');
    assert.equal(buildPath(p, { year: 2024 }), '/archive/2024');
    assert.equal(buildPath(p, { year: 2024, month: 3 }), '/archive/2024/3');
    assert.equal(buildPath(p, { year: '', month: 3 }), '/archive');
    const w = parsePattern('/files/*path');
    assert.equal(buildPath(w, { path: 'a/b c/d' }), '/files/a/b%20c/d');
    assert.equal(buildPath(w, { path: ['x', '', 'y/z'] }), '/files/x/y%2Fz');
    assert.equal(buildPath(w, {}), '/files');
    assert.equal(buildPath(parsePattern('/files/*path/'), { path: 'q' }), '/files/q/');
    assert.equal(buildPath(parsePattern('/*path/'), {}), '/');
    assert.equal(buildPath(parsePattern('/:lang?/'), { lang: 'en' }), '/en/');
  });

  it('rejects missing required params and constraint violations when building', () => {
    const p = parsePattern('/items/:id<int:1..>');
    assert.throws(() => buildPath(p, {}), /Missing parameter "id" for "\/items\/:id<int:1..>"/);
    assert.throws(() => buildPath(p, { id: null }), /Missing parameter "id"/);
    assert.throws(() => buildPath(p, { id: 0 }), /does not satisfy <int:1..>: "0"/);
    assert.throws(() => buildPath(p, { id: 'abc' }), TypeError);
    assert.equal(buildPath(p, { id: 1 }), '/items/1');
  });
});
