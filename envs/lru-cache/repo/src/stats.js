// Counters describing how a cache has been used.

export class CacheStats {
  constructor() {
    this.reset();
  }

  reset() {
    this.hits = 0;
    this.misses = 0;
    this.staleHits = 0;
    this.sets = 0;
    this.deletes = 0;
    this.evictions = 0;
    this.expirations = 0;
  }

  recordHit(stale = false) {
    this.hits += 1;
    if (stale) {
      this.staleHits += 1;
    }
  }

  recordMiss() {
    this.misses += 1;
  }

  recordSet() {
    this.sets += 1;
  }

  recordRemoval(reason) {
    if (reason === 'evict') {
      this.evictions += 1;
    } else if (reason === 'expire') {
      this.expirations += 1;
    } else if (reason === 'delete') {
      this.deletes += 1;
    }
  }

  get lookups() {
    return this.hits + this.misses;
  }

  // Share of lookups that found a value, between 0 and 1, rounded to four
  // decimal places.
  get hitRate() {
    const total = this.lookups;
    if (total === 0) {
      return 0;
    }
    return Math.round((this.hits / total) * 10000) / 10000;
  }

  snapshot() {
    return {
      hits: this.hits,
      misses: this.misses,
      staleHits: this.staleHits,
      sets: this.sets,
      deletes: this.deletes,
      evictions: this.evictions,
      expirations: this.expirations,
      hitRate: this.hitRate,
    };
  }

  // Adds another stats object's counters into this one.
  merge(other) {
    this.hits += other.hits;
    this.misses += other.misses;
    this.staleHits += other.staleHits;
    this.sets += other.sets;
    this.deletes += other.deletes;
    this.evictions += other.evictions;
    this.expirations += other.expirations;
    return this;
  }
}
