import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CacheStats } from '../src/stats.js';

describe('stats', () => {
  it('starts at zero with a zero hit rate', () => {
    const stats = new CacheStats();
    assert.deepEqual(stats.snapshot(), {
      hits: 0,
      misses: 0,
      staleHits: 0,
      sets: 0,
      deletes: 0,
      evictions: 0,
      expirations: 0,
      hitRate: 0,
    });
    assert.equal(stats.lookups, 0);
  });

  it('counts hits, stale hits and misses', () => {
    const stats = new CacheStats();
    stats.recordHit();
    stats.recordHit(true);
    stats.recordHit(false);
    stats.recordMiss();
    assert.equal(stats.hits, 3);
    assert.equal(stats.staleHits, 1);
    assert.equal(stats.misses, 1);
    assert.equal(stats.lookups, 4);
    assert.equal(stats.hitRate, 0.75);
  });

  it('rounds the hit rate to four decimals', () => {
    const stats = new CacheStats();
    stats.recordHit();
    stats.recordMiss();
    stats.recordMiss();
    assert.equal(stats.hitRate, 0.3333);
    stats.recordHit();
    stats.recordHit();
    stats.recordHit();
    stats.recordHit();
    assert.equal(stats.hitRate, 0.7143);
  });

  it('sorts removals by reason', () => {
    const stats = new CacheStats();
    stats.recordRemoval('evict');
    stats.recordRemoval('evict');
    stats.recordRemoval('expire');
    stats.recordRemoval('delete');
    stats.recordRemoval('clear');
    stats.recordRemoval('set');
    stats.recordSet();
    assert.equal(stats.evictions, 2);
    assert.equal(stats.expirations, 1);
    assert.equal(stats.deletes, 1);
    assert.equal(stats.sets, 1);
  });

  it('merge adds counters and reset zeroes them', () => {
    const a = new CacheStats();
    const b = new CacheStats();
    a.recordHit();
    a.recordMiss();
    a.recordRemoval('evict');
    b.recordHit(true);
    b.recordHit();
    b.recordSet();
    b.recordRemoval('expire');
    b.recordRemoval('delete');
    b.recordRemoval('evict');
    b.recordMiss();
    assert.equal(a.merge(b), a);
    assert.deepEqual(a.snapshot(), {
      hits: 3,
      misses: 2,
      staleHits: 1,
      sets: 1,
      deletes: 1,
      evictions: 2,
      expirations: 1,
      hitRate: 0.6,
    });
    assert.equal(b.hits, 2);
    a.reset();
    assert.equal(a.hits, 0);
    assert.equal(a.evictions, 0);
    assert.equal(a.staleHits, 0);
    assert.equal(a.hitRate, 0);
  });
});
