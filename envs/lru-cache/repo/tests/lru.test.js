import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LRUCache } from '../src/lru.js';
import { createManualClock } from '../src/ttl.js';

function recorder() {
  const events = [];
  const onEvict = (value, key, reason) => events.push(`${reason}:${key}=${value}`);
  return { events, onEvict };
}

describe('lru', () => {
  describe('construction', () => {
    it('requires a count or size limit', () => {
      assert.throws(() => new LRUCache(), /at least one of max or maxSize/);
      assert.throws(() => new LRUCache({ max: 0 }), /at least one of max or maxSize/);
      assert.throws(() => new LRUCache({ max: -1 }), /max must be a positive integer/);
      assert.throws(() => new LRUCache({ max: 2.5 }), /max must be a positive integer/);
      assert.throws(() => new LRUCache({ maxSize: 'big' }), /maxSize must be a positive integer/);
      assert.equal(new LRUCache({ max: 1 }).max, 1);
      assert.equal(new LRUCache({ maxSize: 1 }).maxSize, 1);
    });

    it('validates function options and clamps maxEntrySize', () => {
      assert.throws(() => new LRUCache({ max: 3, sizeCalculation: 4 }), /sizeCalculation must be a function/);
      assert.throws(() => new LRUCache({ max: 3, now: 5 }), /now must be a function/);
      assert.throws(() => new LRUCache({ max: 3, ttl: -2 }), RangeError);
      assert.equal(new LRUCache({ maxSize: 10 }).maxEntrySize, 10);
      assert.equal(new LRUCache({ maxSize: 10, maxEntrySize: 4 }).maxEntrySize, 4);
      assert.equal(new LRUCache({ maxSize: 10, maxEntrySize: 40 }).maxEntrySize, 10);
      assert.equal(new LRUCache({ max: 10, maxEntrySize: 40 }).maxEntrySize, 40);
      assert.equal(new LRUCache({ max: 10 }).maxEntrySize, 0);
    });
  });

  describe('basic operations', () => {
    it('stores and returns values', () => {
      const cache = new LRUCache({ max: 3 });
      assert.equal(cache.set('a', 1), cache);
      cache.set('b', 2);
      assert.equal(cache.get('a'), 1);
      assert.equal(cache.get('b'), 2);
      assert.equal(cache.get('zzz'), undefined);
      assert.equal(cache.size, 2);
      assert.equal(cache.calculatedSize, 2);
    });

    it('evicts the least recently used entry when full', () => {
      const { events, onEvict } = recorder();
      const cache = new LRUCache({ max: 3, onEvict });
      cache.set('a', 1).set('b', 2).set('c', 3);
      cache.get('a');
      cache.set('d', 4);
      assert.deepEqual([...cache.keys()], ['d', 'a', 'c']);
      assert.equal(cache.has('b'), false);
      assert.deepEqual(events, ['evict:b=2']);
      assert.equal(cache.stats.evictions, 1);
      assert.equal(cache.size, 3);
    });

    it('a cache of one keeps only the newest entry', () => {
      const cache = new LRUCache({ max: 1 });
      cache.set('a', 1);
      cache.set('b', 2);
      assert.equal(cache.size, 1);
      assert.equal(cache.peek('a'), undefined);
      assert.equal(cache.peek('b'), 2);
    });

    it('overwriting updates value, recency and reports the old value', () => {
      const { events, onEvict } = recorder();
      const cache = new LRUCache({ max: 3, onEvict });
      cache.set('a', 1).set('b', 2).set('c', 3);
      cache.set('a', 10);
      assert.deepEqual([...cache.entries()], [['a', 10], ['c', 3], ['b', 2]]);
      cache.set('a', 10);
      assert.deepEqual(events, ['set:a=1']);
      assert.equal(cache.size, 3);
      assert.equal(cache.stats.sets, 5);
    });

    it('peek and has do not change recency or stats', () => {
      const cache = new LRUCache({ max: 2 });
      cache.set('a', 1).set('b', 2);
      assert.equal(cache.peek('a'), 1);
      assert.equal(cache.has('a'), true);
      assert.equal(cache.has('nope'), false);
      assert.equal(cache.peek('nope'), undefined);
      cache.set('c', 3);
      assert.equal(cache.has('a'), false);
      assert.equal(cache.stats.hits, 0);
      assert.equal(cache.stats.misses, 0);
    });

    it('delete removes an entry and reports whether it existed', () => {
      const { events, onEvict } = recorder();
      const cache = new LRUCache({ max: 3, onEvict });
      cache.set('a', 1).set('b', 2);
      assert.equal(cache.delete('a'), true);
      assert.equal(cache.delete('a'), false);
      assert.equal(cache.size, 1);
      assert.equal(cache.calculatedSize, 1);
      assert.deepEqual(events, ['delete:a=1']);
      assert.equal(cache.stats.deletes, 1);
    });

    it('clear empties the cache and notifies oldest first', () => {
      const { events, onEvict } = recorder();
      const cache = new LRUCache({ max: 5, onEvict });
      cache.set('a', 1).set('b', 2).set('c', 3);
      cache.clear();
      assert.equal(cache.size, 0);
      assert.equal(cache.calculatedSize, 0);
      assert.deepEqual([...cache.keys()], []);
      assert.deepEqual(events, ['clear:a=1', 'clear:b=2', 'clear:c=3']);
      cache.set('d', 4);
      assert.equal(cache.get('d'), 4);
    });

    it('pop removes the least recently used entry', () => {
      const cache = new LRUCache({ max: 5 });
      cache.set('a', 1).set('b', 2).set('c', 3);
      cache.get('a');
      assert.deepEqual(cache.pop(), ['b', 2]);
      assert.deepEqual(cache.pop(), ['c', 3]);
      assert.deepEqual(cache.pop(), ['a', 1]);
      assert.equal(cache.pop(), undefined);
      assert.equal(cache.size, 0);
    });

    it('iterates in both directions and supports forEach', () => {
      const cache = new LRUCache({ max: 5 });
      cache.set('a', 1).set('b', 2).set('c', 3);
      assert.deepEqual([...cache], [['c', 3], ['b', 2], ['a', 1]]);
      assert.deepEqual([...cache.rentries()], [['a', 1], ['b', 2], ['c', 3]]);
      assert.deepEqual([...cache.values()], [3, 2, 1]);
      const seen = [];
      const ctx = { tag: '#' };
      cache.forEach(function (value, key, owner) {
        seen.push(`${this.tag}${key}${value}`);
        assert.equal(owner, cache);
      }, ctx);
      assert.deepEqual(seen, ['#c3', '#b2', '#a1']);
    });

    it('keeps working after a listener throws', () => {
      const errors = [];
      const cache = new LRUCache({
        max: 1,
        onEvict: () => {
          throw new Error('listener failed');
        },
        onError: (error, key) => errors.push(`${key}:${error.message}`),
      });
      cache.set('a', 1);
      cache.set('b', 2);
      assert.deepEqual(errors, ['a:listener failed']);
      assert.equal(cache.get('b'), 2);
      assert.equal(cache.size, 1);

      const quiet = new LRUCache({
        max: 1,
        onEvict: () => {
          throw new Error('boom');
        },
      });
      quiet.set('x', 1).set('y', 2);
      assert.equal(quiet.listenerErrors.length, 1);
      assert.equal(quiet.listenerErrors[0].message, 'boom');
    });
  });

  describe('sizes', () => {
    it('limits by total weight', () => {
      const { events, onEvict } = recorder();
      const cache = new LRUCache({ maxSize: 10, sizeCalculation: (value) => value.length, onEvict });
      cache.set('a', 'xxxx');
      cache.set('b', 'yyyy');
      assert.equal(cache.calculatedSize, 8);
      cache.set('c', 'zz');
      assert.equal(cache.calculatedSize, 10);
      assert.equal(cache.size, 3);
      cache.set('d', 'w');
      assert.equal(cache.calculatedSize, 7);
      assert.deepEqual([...cache.keys()], ['d', 'c', 'b']);
      cache.set('e', 'vvvvvvvvv');
      assert.deepEqual([...cache.keys()], ['e', 'd']);
      assert.equal(cache.calculatedSize, 10);
      assert.deepEqual(events, ['evict:a=xxxx', 'evict:b=yyyy', 'evict:c=zz']);
    });

    it('explicit sizes override sizeCalculation and are validated', () => {
      const cache = new LRUCache({ maxSize: 100, sizeCalculation: () => 7 });
      cache.set('a', 'x', { size: 30 });
      cache.set('b', 'y');
      assert.equal(cache.calculatedSize, 37);
      assert.throws(() => cache.set('c', 'z', { size: 0 }), /must be a positive integer/);
      assert.throws(() => cache.set('c', 'z', { size: 1.5 }), /must be a positive integer/);
      const bad = new LRUCache({ maxSize: 5, sizeCalculation: () => -1 });
      assert.throws(() => bad.set('k', 'v'), TypeError);
      assert.equal(bad.size, 0);
    });

    it('resizing an entry adjusts the total', () => {
      const cache = new LRUCache({ maxSize: 20, sizeCalculation: (value) => value });
      cache.set('a', 5).set('b', 6);
      cache.set('a', 2);
      assert.equal(cache.calculatedSize, 8);
      cache.set('b', 18);
      assert.equal(cache.calculatedSize, 20);
      cache.set('c', 1);
      assert.equal(cache.calculatedSize, 19);
      assert.deepEqual([...cache.keys()], ['c', 'b']);
    });

    it('drops entries larger than maxEntrySize', () => {
      const { events, onEvict } = recorder();
      const cache = new LRUCache({ maxSize: 10, maxEntrySize: 5, sizeCalculation: (v) => v.length, onEvict });
      cache.set('a', 'abc');
      cache.set('b', 'abcde');
      cache.set('c', 'abcdef');
      assert.equal(cache.has('c'), false);
      assert.equal(cache.size, 2);
      cache.set('a', 'abcdefgh');
      assert.equal(cache.has('a'), false);
      assert.equal(cache.calculatedSize, 5);
      assert.deepEqual(events, ['delete:a=abc']);
    });

    it('resize evicts down to the new limits', () => {
      const { events, onEvict } = recorder();
      const cache = new LRUCache({ max: 5, onEvict });
      for (const key of ['a', 'b', 'c', 'd', 'e']) {
        cache.set(key, key.charCodeAt(0) - 96);
      }
      assert.equal(cache.resize(3), 2);
      assert.deepEqual([...cache.keys()], ['e', 'd', 'c']);
      assert.deepEqual(events, ['evict:a=1', 'evict:b=2']);
      assert.equal(cache.resize(10), 0);
      cache.set('f', 6);
      assert.equal(cache.size, 4);
      assert.throws(() => cache.resize(0), /at least one of max or maxSize/);
      assert.throws(() => cache.resize(-3), /max must be a positive integer/);
    });

    it('a weight limit of one holds a single unit entry', () => {
      const cache = new LRUCache({ maxSize: 1, sizeCalculation: (v) => v });
      cache.set('a', 1);
      cache.set('b', 1);
      assert.deepEqual([...cache.keys()], ['b']);
      cache.set('c', 2);
      assert.equal(cache.has('c'), false);
      assert.equal(cache.maxEntrySize, 1);
      assert.equal(cache.calculatedSize, 1);
      const capped = new LRUCache({ maxSize: 5, maxEntrySize: 1 });
      assert.equal(capped.maxEntrySize, 1);
    });

    it('resize adds a weight limit to a count-limited cache', () => {
      const cache = new LRUCache({ max: 10, sizeCalculation: (v) => v });
      cache.set('a', 4).set('b', 3);
      assert.equal(cache.resize(10, 5), 1);
      assert.equal(cache.maxEntrySize, 5);
      assert.deepEqual([...cache.keys()], ['b']);
      cache.set('c', 6);
      assert.equal(cache.has('c'), false);
      const capped = new LRUCache({ maxSize: 50, maxEntrySize: 3 });
      capped.resize(0, 20);
      assert.equal(capped.maxEntrySize, 3);
      capped.resize(0, 2);
      assert.equal(capped.maxEntrySize, 2);
      capped.resize(0, 1);
      assert.equal(capped.maxEntrySize, 1);
    });

    it('resize by weight tightens maxEntrySize', () => {
      const cache = new LRUCache({ maxSize: 20, sizeCalculation: (v) => v });
      cache.set('a', 8).set('b', 7).set('c', 4);
      assert.equal(cache.resize(0, 12), 1);
      assert.equal(cache.maxEntrySize, 12);
      assert.deepEqual([...cache.keys()], ['c', 'b']);
      cache.set('big', 13);
      assert.equal(cache.has('big'), false);
      assert.equal(cache.calculatedSize, 11);
    });
  });

  describe('ttl', () => {
    it('expires entries using the injected clock', () => {
      const clock = createManualClock(1000);
      const { events, onEvict } = recorder();
      const cache = new LRUCache({ max: 10, ttl: 100, now: clock, onEvict });
      cache.set('a', 1);
      clock.advance(99);
      assert.equal(cache.has('a'), true);
      assert.equal(cache.get('a'), 1);
      clock.advance(1);
      assert.equal(cache.has('a'), false);
      assert.equal(cache.peek('a'), undefined);
      assert.equal(cache.size, 1);
      assert.equal(cache.get('a'), undefined);
      assert.equal(cache.size, 0);
      assert.deepEqual(events, ['expire:a=1']);
      assert.equal(cache.stats.expirations, 1);
      assert.equal(cache.stats.misses, 1);
      assert.equal(cache.stats.hits, 1);
    });

    it('per-entry ttl overrides the default and 0 never expires', () => {
      const clock = createManualClock();
      const cache = new LRUCache({ max: 10, ttl: 50, now: clock });
      cache.set('short', 1, { ttl: 10 });
      cache.set('default', 2);
      cache.set('forever', 3, { ttl: 0 });
      assert.equal(cache.getRemainingTTL('short'), 10);
      assert.equal(cache.getRemainingTTL('default'), 50);
      assert.equal(cache.getRemainingTTL('forever'), Infinity);
      assert.equal(cache.getRemainingTTL('missing'), 0);
      clock.advance(30);
      assert.deepEqual([...cache.keys()], ['forever', 'default']);
      assert.equal(cache.getRemainingTTL('default'), 20);
      clock.advance(1000);
      assert.deepEqual([...cache.keys()], ['forever']);
      assert.equal(cache.getRemainingTTL('default'), 0);
    });

    it('setting again restarts the ttl', () => {
      const clock = createManualClock();
      const cache = new LRUCache({ max: 10, ttl: 100, now: clock });
      cache.set('a', 1);
      clock.advance(80);
      cache.set('a', 2);
      clock.advance(80);
      assert.equal(cache.get('a'), 2);
      assert.equal(cache.getRemainingTTL('a'), 20);
    });

    it('updateAgeOnGet extends the life of read entries', () => {
      const clock = createManualClock(1000);
      const cache = new LRUCache({ max: 10, ttl: 100, now: clock, updateAgeOnGet: true });
      cache.set('a', 1);
      cache.set('b', 2);
      clock.advance(60);
      assert.equal(cache.get('a'), 1);
      assert.equal(cache.getRemainingTTL('a'), 100);
      assert.equal(cache.get('b', { updateAgeOnGet: false }), 2);
      assert.equal(cache.getRemainingTTL('b'), 40);
      clock.advance(60);
      assert.equal(cache.get('a'), 1);
      assert.equal(cache.getRemainingTTL('a'), 100);
      assert.equal(cache.get('b'), undefined);
      assert.equal(cache.stats.staleHits, 0);
    });

    it('updateAgeOnGet keeps the ttl given by the latest set', () => {
      const clock = createManualClock(500);
      const cache = new LRUCache({ max: 10, now: clock, updateAgeOnGet: true });
      cache.set('a', 1, { ttl: 50 });
      clock.advance(30);
      cache.set('a', 2, { ttl: 200 });
      clock.advance(10);
      assert.equal(cache.get('a'), 2);
      assert.equal(cache.getRemainingTTL('a'), 200);
    });

    it('purgeStale removes only expired entries', () => {
      const clock = createManualClock();
      const { events, onEvict } = recorder();
      const cache = new LRUCache({ max: 10, now: clock, onEvict });
      cache.set('a', 1, { ttl: 10 });
      cache.set('b', 2, { ttl: 30 });
      cache.set('c', 3, { ttl: 20 });
      cache.set('d', 4);
      clock.advance(20);
      assert.equal(cache.purgeStale(), 2);
      assert.deepEqual(events, ['expire:a=1', 'expire:c=3']);
      assert.deepEqual([...cache.keys()], ['d', 'b']);
      assert.equal(cache.purgeStale(), 0);
    });
  });

  describe('stale-while-revalidate', () => {
    it('serves stale values inside the window and misses after it', () => {
      const clock = createManualClock();
      const cache = new LRUCache({ max: 10, ttl: 100, staleWhileRevalidate: 50, now: clock });
      cache.set('a', 1);
      clock.advance(100);
      assert.equal(cache.has('a'), false);
      assert.equal(cache.peek('a'), 1);
      assert.equal(cache.get('a'), 1);
      assert.deepEqual([...cache.keys()], ['a']);
      clock.advance(49);
      assert.equal(cache.get('a'), 1);
      clock.advance(1);
      assert.equal(cache.peek('a'), undefined);
      assert.equal(cache.get('a'), undefined);
      assert.equal(cache.stats.staleHits, 2);
      assert.equal(cache.stats.hits, 2);
      assert.equal(cache.stats.misses, 1);
    });

    it('revalidates synchronously when the callback returns a value', () => {
      const clock = createManualClock();
      const calls = [];
      const cache = new LRUCache({
        max: 10,
        ttl: 100,
        staleWhileRevalidate: 50,
        now: clock,
        revalidate: (key, stale) => {
          calls.push(`${key}:${stale}`);
          return stale + 1;
        },
      });
      cache.set('n', 1);
      assert.equal(cache.get('n'), 1);
      assert.equal(calls.length, 0);
      clock.advance(120);
      assert.equal(cache.get('n'), 1);
      assert.equal(cache.get('n'), 2);
      assert.deepEqual(calls, ['n:1']);
      assert.equal(cache.getRemainingTTL('n'), 100);
    });

    it('runs one asynchronous revalidation at a time', async () => {
      const clock = createManualClock();
      let calls = 0;
      const cache = new LRUCache({
        max: 10,
        ttl: 100,
        staleWhileRevalidate: 100,
        now: clock,
        revalidate: async (key) => {
          calls += 1;
          return `${key}-v${calls + 1}`;
        },
      });
      cache.set('k', 'k-v1');
      clock.advance(150);
      assert.equal(cache.get('k'), 'k-v1');
      assert.equal(cache.get('k'), 'k-v1');
      assert.equal(calls, 1);
      const pending = cache.revalidation('k');
      assert.ok(pending instanceof Promise);
      await pending;
      assert.equal(cache.revalidation('k'), undefined);
      assert.equal(cache.get('k'), 'k-v2');
      assert.equal(cache.has('k'), true);
    });

    it('a newer set wins over a pending revalidation', async () => {
      const clock = createManualClock();
      let release;
      const cache = new LRUCache({
        max: 10,
        ttl: 10,
        staleWhileRevalidate: 10,
        now: clock,
        revalidate: () =>
          new Promise((resolve) => {
            release = resolve;
          }),
      });
      cache.set('k', 'old');
      clock.advance(15);
      cache.get('k');
      const pending = cache.revalidation('k');
      cache.set('k', 'manual');
      release('from-revalidate');
      await pending;
      assert.equal(cache.get('k'), 'manual');
    });

    it('deleting or clearing cancels a pending revalidation', async () => {
      const clock = createManualClock();
      const releases = [];
      const cache = new LRUCache({
        max: 10,
        ttl: 10,
        staleWhileRevalidate: 10,
        now: clock,
        revalidate: () => new Promise((resolve) => releases.push(resolve)),
      });
      cache.set('a', 'old-a').set('b', 'old-b');
      clock.advance(12);
      cache.get('a');
      cache.get('b');
      const pa = cache.revalidation('a');
      const pb = cache.revalidation('b');
      cache.delete('a');
      assert.equal(cache.revalidation('a'), undefined);
      cache.clear();
      assert.equal(cache.revalidation('b'), undefined);
      releases[0]('new-a');
      releases[1]('new-b');
      await pa;
      await pb;
      assert.equal(cache.size, 0);
      assert.equal(cache.peek('a'), undefined);
    });

    it('a revalidation resolving to undefined keeps the stale value', async () => {
      const clock = createManualClock();
      let calls = 0;
      const cache = new LRUCache({
        max: 10,
        ttl: 10,
        staleWhileRevalidate: 50,
        now: clock,
        revalidate: async () => {
          calls += 1;
          return undefined;
        },
      });
      cache.set('a', 'stale');
      clock.advance(15);
      assert.equal(cache.get('a'), 'stale');
      await cache.revalidation('a');
      assert.equal(cache.revalidation('a'), undefined);
      assert.equal(cache.get('a'), 'stale');
      assert.equal(calls, 2);
    });

    it('keeps the stale value when revalidation fails', async () => {
      const clock = createManualClock();
      const errors = [];
      const cache = new LRUCache({
        max: 10,
        ttl: 10,
        staleWhileRevalidate: 100,
        now: clock,
        onError: (error, key) => errors.push(`${key}:${error.message}`),
        revalidate: (key) => (key === 'sync' ? thrower() : Promise.reject(new Error('offline'))),
      });
      function thrower() {
        throw new Error('sync failure');
      }
      cache.set('async', 1).set('sync', 2);
      clock.advance(20);
      assert.equal(cache.get('async'), 1);
      await cache.revalidation('async');
      assert.equal(cache.get('sync'), 2);
      assert.equal(cache.revalidation('sync'), undefined);
      assert.deepEqual(errors, ['async:offline', 'sync:sync failure']);
      assert.equal(cache.peek('async'), 1);
      assert.equal(cache.revalidation('async'), undefined);
      assert.equal(cache.get('async'), 1);
      await cache.revalidation('async');
      assert.deepEqual(errors, ['async:offline', 'sync:sync failure', 'async:offline']);
    });
  });
});
