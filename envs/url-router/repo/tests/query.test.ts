import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildQuery, getAll, getFirst, getInt, parseQuery, withQuery } from '../src/query.ts';

function plain(value: object): object {
  return { ...value };
}

describe('query', () => {
  it('parses simple pairs with or without a leading question mark', () => {
    assert.deepEqual(plain(parseQuery('?a=1&b=two')), { a: '1', b: 'two' });
    assert.deepEqual(plain(parseQuery('a=1&b=two')), { a: '1', b: 'two' });
    assert.deepEqual(plain(parseQuery('')), {});
    assert.deepEqual(plain(parseQuery('?')), {});
  });

  it('decodes plus signs and percent escapes in keys and values', () => {
    assert.deepEqual(plain(parseQuery('q=hello+world&na%20me=caf%C3%A9&x=%zz')), {
      q: 'hello world',
      'na me': 'café',
      x: '%zz',
    });
  });

  it('handles flags, empty values, empty pairs and empty keys', () => {
    assert.deepEqual(plain(parseQuery('flag&&empty=&=orphan&k=v=w')), { flag: '', empty: '', k: 'v=w' });
  });

  it('collects repeated keys and bracket keys into arrays', () => {
    assert.deepEqual(plain(parseQuery('t=a&t=b&t=c')), { t: ['a', 'b', 'c'] });
    assert.deepEqual(plain(parseQuery('one[]=x')), { one: ['x'] });
    assert.deepEqual(plain(parseQuery('m=1&m[]=2')), { m: ['1', '2'] });
    assert.deepEqual(plain(parseQuery('id%5B%5D=5&id%5B%5D=6')), { id: ['5', '6'] });
  });

  it('splits comma separated values when asked', () => {
    assert.deepEqual(plain(parseQuery('c=a,b%2Cc&d=e', { comma: true })), { c: ['a', 'b,c'], d: 'e' });
    assert.deepEqual(plain(parseQuery('c=a,b')), { c: 'a,b' });
  });

  it('stops after the pair limit, not counting empty pairs', () => {
    assert.deepEqual(plain(parseQuery('a=1&&b=2&c=3&d=4', { limit: 2 })), { a: '1', b: '2' });
    assert.deepEqual(plain(parseQuery('a=1&b=2', { limit: 0 })), {});
    const many = Array.from({ length: 1001 }, (_, i) => `k${i}=${i}`).join('&');
    const parsed = parseQuery(many);
    assert.equal(Object.keys(parsed).length, 1000);
    assert.equal(parsed.k999, '999');
    assert.equal(parsed.k1000, undefined);
  });

  it('returns an object without prototype keys', () => {
    const q = parseQuery('toString=1');
    assert.equal(Object.getPrototypeOf(q), null);
    assert.equal(q.toString, '1');
    assert.equal(getFirst(parseQuery('a=1'), 'constructor', 'none'), 'none');
  });

  it('builds query strings skipping null and undefined', () => {
    assert.equal(buildQuery({ a: 1, b: 'x y', c: true, d: null, e: undefined, f: '' }), 'a=1&b=x+y&c=true&f=');
    assert.equal(buildQuery({}), '');
    assert.equal(buildQuery({ 'k&y': 'v=1/2' }), 'k%26y=v%3D1%2F2');
  });

  it('builds arrays in repeat, brackets and comma formats', () => {
    const params = { tag: ['a', 'b c'], none: [] as string[], n: 3 };
    assert.equal(buildQuery(params), 'tag=a&tag=b+c&n=3');
    assert.equal(buildQuery(params, { arrayFormat: 'brackets' }), 'tag%5B%5D=a&tag%5B%5D=b+c&n=3');
    assert.equal(buildQuery(params, { arrayFormat: 'comma' }), 'tag=a,b+c&n=3');
  });

  it('sorts keys when asked', () => {
    assert.equal(buildQuery({ z: 1, a: 2, m: 3 }, { sort: true }), 'a=2&m=3&z=1');
    assert.equal(buildQuery({ z: 1, a: 2, m: 3 }), 'z=1&a=2&m=3');
  });

  it('round trips through build and parse', () => {
    const source = { name: 'Zoë & co', tags: ['x', 'y'], page: '2' };
    assert.deepEqual(plain(parseQuery(buildQuery(source))), source);
    assert.deepEqual(plain(parseQuery(buildQuery(source, { arrayFormat: 'brackets' }))), source);
  });

  it('appends queries to paths, keeping fragments', () => {
    assert.equal(withQuery('/a', { x: 1 }), '/a?x=1');
    assert.equal(withQuery('/a?y=2', { x: 1 }), '/a?y=2&x=1');
    assert.equal(withQuery('/a?', { x: 1 }), '/a?x=1');
    assert.equal(withQuery('/a?y=2&', { x: 1 }), '/a?y=2&x=1');
    assert.equal(withQuery('/a#top', { x: 1 }), '/a?x=1#top');
    assert.equal(withQuery('/a#top', {}), '/a#top');
    assert.equal(withQuery('#top', { x: 1 }), '?x=1#top');
    assert.equal(withQuery('/a', { b: 2, a: 1 }, { sort: true }), '/a?a=1&b=2');
  });

  it('reads first values and all values', () => {
    const q = parseQuery('a=1&a=2&b=3&e[]=');
    assert.equal(getFirst(q, 'a'), '1');
    assert.equal(getFirst(q, 'b'), '3');
    assert.equal(getFirst(q, 'zz'), '');
    assert.equal(getFirst(q, 'zz', 'dflt'), 'dflt');
    assert.equal(getFirst({ empty: [] }, 'empty', 'fb'), 'fb');
    assert.equal(getFirst({ one: ['x'] }, 'one', 'fb'), 'x');
    assert.deepEqual(getAll(q, 'a'), ['1', '2']);
    assert.deepEqual(getAll(q, 'b'), ['3']);
    assert.deepEqual(getAll(q, 'e'), ['']);
    assert.deepEqual(getAll(q, 'zz'), []);
    const all = getAll(q, 'a');
    all.push('9');
    assert.deepEqual(q.a, ['1', '2']);
  });

  it('reads clamped integers with fallbacks', () => {
    const q = parseQuery('page=7&neg=-3&big=500&bad=4x&sp=+12&pad=%2009');
    assert.equal(getInt(q, 'page', 1), 7);
    assert.equal(getInt(q, 'neg', 0), -3);
    assert.equal(getInt(q, 'neg', 0, 0), 0);
    assert.equal(getInt(q, 'big', 0, 1, 100), 100);
    assert.equal(getInt(q, 'page', 0, 1, 7), 7);
    assert.equal(getInt(q, 'page', 0, 7, 9), 7);
    assert.equal(getInt(q, 'bad', 5), 5);
    assert.equal(getInt(q, 'missing', 9), 9);
    assert.equal(getInt(q, 'sp', 0), 12);
    assert.equal(getInt(q, 'pad', 0), 9);
  });
});
