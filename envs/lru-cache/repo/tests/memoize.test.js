import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { memoize, stableStringify } from '../src/memoize.js';
import { LRUCache } from '../src/lru.js';
import { createManualClock } from '../src/ttl.js';

describe('memoize', () => {
  it('stableStringify keeps primitive types apart', () => {
    assert.equal(stableStringify('1'), '"1"');
    assert.equal(stableStringify(1), '1');
    assert.equal(stableStringify(-0), '-0');
    assert.equal(stableStringify(0), '0');
    assert.equal(stableStringify(NaN), 'NaN');
    assert.equal(stableStringify(10n), '10n');
    assert.equal(stableStringify(true), 'true');
    assert.equal(stableStringify(false), 'false');
    assert.equal(stableStringify(null), 'null');
    assert.equal(stableStringify(undefined), 'undefined');
  });

  it('stableStringify sorts object keys and skips undefined fields', () => {
    assert.equal(stableStringify({ b: 2, a: [1, 'x'], c: undefined }), '{"a":[1,"x"],"b":2}');
    assert.equal(stableStringify({ a: 1, b: 2 }), stableStringify({ b: 2, a: 1 }));
    assert.equal(stableStringify([{ z: null }, []]), '[{"z":null},[]]');
    assert.equal(stableStringify(new Date(5000)), 'Date(5000)');
    assert.equal(stableStringify({}), '{}');
  });

  it('stableStringify rejects functions and symbols', () => {
    assert.throws(() => stableStringify(() => 1), /from a function/);
    assert.throws(() => stableStringify([Symbol('s')]), /from a symbol/);
  });

  it('calls the function once per distinct argument list', () => {
    let calls = 0;
    const add = memoize((a, b) => {
      calls += 1;
      return a + b;
    });
    assert.equal(add(1, 2), 3);
    assert.equal(add(1, 2), 3);
    assert.equal(add(2, 1), 3);
    assert.equal(add('1', 2), '12');
    assert.equal(calls, 3);
    assert.equal(add.calls, 3);
    assert.equal(add.cache.stats.hits, 1);
    assert.equal(add.cache.stats.misses, 3);
  });

  it('caches undefined results too', () => {
    let calls = 0;
    const nothing = memoize(() => {
      calls += 1;
      return undefined;
    });
    assert.equal(nothing(), undefined);
    assert.equal(nothing(), undefined);
    assert.equal(calls, 1);
  });

  it('supports custom key functions and maxArgs', () => {
    const byId = memoize((user) => user.name.toUpperCase(), { key: (user) => user.id });
    assert.equal(byId({ id: 1, name: 'ann' }), 'ANN');
    assert.equal(byId({ id: 1, name: 'bob' }), 'ANN');
    assert.equal(byId.calls, 1);

    const first = memoize((a, b) => a * 10 + b, { maxArgs: 1 });
    assert.equal(first(3, 4), 34);
    assert.equal(first(3, 9), 34);
    assert.equal(first(4, 9), 49);
    assert.equal(first.keyFor(3, 100), '[3]');
    const once = memoize((a) => a, { maxArgs: 0 });
    assert.equal(once(1), 1);
    assert.equal(once(2), 1);
    assert.throws(() => memoize(() => 1, { maxArgs: -1 }), RangeError);
    assert.throws(() => memoize(() => 1, { key: 'id' }), TypeError);
    assert.throws(() => memoize('not a function'), TypeError);
  });

  it('respects the cache limits and ttl it is given', () => {
    const clock = createManualClock();
    const square = memoize((n) => n * n, { max: 2, ttl: 100, now: clock });
    square(1);
    square(2);
    square(3);
    assert.equal(square.cache.size, 2);
    assert.equal(square.calls, 3);
    square(1);
    assert.equal(square.calls, 4);
    clock.advance(100);
    square(1);
    assert.equal(square.calls, 5);
  });

  it('defaults to 500 entries and can share a cache', () => {
    const double = memoize((n) => n * 2);
    assert.equal(double.cache.max, 500);
    const shared = new LRUCache({ max: 3 });
    const f = memoize((n) => n + 1, { cache: shared });
    f(1);
    assert.equal(shared.peek('[1]'), 2);
  });

  it('forget and clear drop cached results', () => {
    const hello = memoize((name) => `hello ${name}`);
    hello('a');
    hello('b');
    assert.equal(hello.forget('a'), true);
    assert.equal(hello.forget('a'), false);
    hello('a');
    assert.equal(hello.calls, 3);
    hello.clear();
    assert.equal(hello.cache.size, 0);
    hello('b');
    assert.equal(hello.calls, 4);
  });

  it('passes this through to the wrapped function', () => {
    const obj = {
      base: 100,
      plus: memoize(function (n) {
        return this.base + n;
      }),
    };
    assert.equal(obj.plus(5), 105);
  });

  it('forgets rejected promises unless told to keep them', async () => {
    let attempts = 0;
    const flaky = memoize(async (n) => {
      attempts += 1;
      if (attempts === 1) {
        throw new Error('first try fails');
      }
      return n * 3;
    });
    await assert.rejects(flaky(2), /first try fails/);
    assert.equal(flaky.cache.size, 0);
    assert.equal(await flaky(2), 6);
    assert.equal(await flaky(2), 6);
    assert.equal(attempts, 2);

    const sticky = memoize(async () => {
      throw new Error('always');
    }, { cacheRejections: true });
    await assert.rejects(sticky(), /always/);
    await assert.rejects(sticky(), /always/);
    assert.equal(sticky.calls, 1);
    assert.equal(sticky.cache.size, 1);
  });
});
