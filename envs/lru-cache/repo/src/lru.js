// A least-recently-used cache with optional time-to-live, weight limits and
// stale-while-revalidate support.

import { LinkedList, ListNode } from './linked-list.js';
import { normalizeTtl, computeExpiry, entryState, remaining, FRESH, STALE, EXPIRED } from './ttl.js';
import { CacheStats } from './stats.js';

function isPositiveInteger(n) {
  return Number.isInteger(n) && n > 0;
}

function checkLimit(value, name) {
  if (value === undefined || value === 0) {
    return 0;
  }
  if (!isPositiveInteger(value)) {
    throw new TypeError(`${name} must be a positive integer`);
  }
  return value;
}

function isThenable(value) {
  return value !== null && typeof value === 'object' && typeof value.then === 'function';
}

export class LRUCache {
  constructor(options = {}) {
    const {
      max,
      maxSize,
      maxEntrySize,
      sizeCalculation,
      ttl,
      staleWhileRevalidate,
      updateAgeOnGet = false,
      now = Date.now,
      onEvict,
      onError,
      revalidate,
    } = options;
    this.max = checkLimit(max, 'max');
    this.maxSize = checkLimit(maxSize, 'maxSize');
    if (this.max === 0 && this.maxSize === 0) {
      throw new TypeError('at least one of max or maxSize must be set');
    }
    const entryLimit = checkLimit(maxEntrySize, 'maxEntrySize');
    if (this.maxSize > 0) {
      this.maxEntrySize = entryLimit > 0 ? Math.min(entryLimit, this.maxSize) : this.maxSize;
    } else {
      this.maxEntrySize = entryLimit;
    }
    if (sizeCalculation !== undefined && typeof sizeCalculation !== 'function') {
      throw new TypeError('sizeCalculation must be a function');
    }
    if (typeof now !== 'function') {
      throw new TypeError('now must be a function returning milliseconds');
    }
    this.sizeCalculation = sizeCalculation;
    this.ttl = normalizeTtl(ttl);
    this.staleWindow = normalizeTtl(staleWhileRevalidate, 'staleWhileRevalidate');
    this.updateAgeOnGet = updateAgeOnGet;
    this.now = now;
    this.onEvict = onEvict;
    this.onError = onError;
    this.revalidate = revalidate;
    this.listenerErrors = [];
    this.stats = new CacheStats();
    this._map = new Map();
    this._list = new LinkedList();
    this._calculatedSize = 0;
    this._pending = new Map();
  }

  get size() {
    return this._map.size;
  }

  get calculatedSize() {
    return this._calculatedSize;
  }

  _entrySize(key, value, explicit) {
    let size = 1;
    if (explicit !== undefined) {
      size = explicit;
    } else if (this.sizeCalculation !== undefined) {
      size = this.sizeCalculation(value, key);
    }
    if (!isPositiveInteger(size)) {
      throw new TypeError(`size of entry ${String(key)} must be a positive integer`);
    }
    return size;
  }

  _reportError(error, key) {
    if (typeof this.onError === 'function') {
      this.onError(error, key);
    } else {
      this.listenerErrors.push(error);
    }
  }

  _notify(key, value, reason) {
    if (typeof this.onEvict !== 'function') {
      return;
    }
    try {
      this.onEvict(value, key, reason);
    } catch (error) {
      this._reportError(error, key);
    }
  }

  _removeNode(node, reason) {
    this._map.delete(node.key);
    this._list.remove(node);
    this._calculatedSize -= node.size;
    this._pending.delete(node.key);
    this.stats.recordRemoval(reason);
    this._notify(node.key, node.value, reason);
  }

  _enforceLimits() {
    let evicted = 0;
    while (
      (this.max > 0 && this._map.size > this.max) ||
      (this.maxSize > 0 && this._calculatedSize > this.maxSize)
    ) {
      const victim = this._list.tail;
      if (victim === null) {
        break;
      }
      this._removeNode(victim, 'evict');
      evicted += 1;
    }
    return evicted;
  }

  set(key, value, options = {}) {
    const now = this.now();
    const ttl = options.ttl === undefined ? this.ttl : normalizeTtl(options.ttl);
    const size = this._entrySize(key, value, options.size);
    const existing = this._map.get(key);
    if (this.maxEntrySize > 0 && size > this.maxEntrySize) {
      // Too large to ever fit: the old value is dropped rather than kept.
      if (existing !== undefined) {
        this._removeNode(existing, 'delete');
      }
      return this;
    }
    if (existing !== undefined) {
      const previous = existing.value;
      this._calculatedSize += size - existing.size;
      existing.value = value;
      existing.size = size;
      existing.setAt = now;
      existing.expiresAt = computeExpiry(now, ttl);
      this._pending.delete(key);
      this._list.moveToFront(existing);
      if (previous !== value) {
        this._notify(key, previous, 'set');
      }
    } else {
      const node = new ListNode(key, value);
      node.size = size;
      node.setAt = now;
      node.expiresAt = computeExpiry(now, ttl);
      this._map.set(key, node);
      this._list.pushFront(node);
      this._calculatedSize += size;
    }
    this.stats.recordSet();
    this._enforceLimits();
    return this;
  }

  get(key, options = {}) {
    const node = this._map.get(key);
    if (node === undefined) {
      this.stats.recordMiss();
      return undefined;
    }
    const now = this.now();
    const state = entryState(node.expiresAt, now, this.staleWindow);
    if (state === EXPIRED) {
      this._removeNode(node, 'expire');
      this.stats.recordMiss();
      return undefined;
    }
    if (state === STALE) {
      // The caller gets the stale value even if revalidation finishes now.
      const stale = node.value;
      this.stats.recordHit(true);
      this._startRevalidation(node);
      return stale;
    }
    const updateAge = options.updateAgeOnGet ?? this.updateAgeOnGet;
    if (updateAge && node.expiresAt !== Infinity) {
      const ttl = node.expiresAt - node.setAt;
      node.setAt = now;
      node.expiresAt = now + ttl;
    }
    this._list.moveToFront(node);
    this.stats.recordHit(false);
    return node.value;
  }

  _startRevalidation(node) {
    const key = node.key;
    if (typeof this.revalidate !== 'function' || this._pending.has(key)) {
      return;
    }
    let result;
    try {
      result = this.revalidate(key, node.value);
    } catch (error) {
      this._reportError(error, key);
      return;
    }
    if (isThenable(result)) {
      const done = Promise.resolve(result).then(
        (value) => {
          if (this._pending.get(key) !== done) {
            return;
          }
          this._pending.delete(key);
          if (value !== undefined) {
            this.set(key, value);
          }
        },
        (error) => {
          if (this._pending.get(key) === done) {
            this._pending.delete(key);
          }
          this._reportError(error, key);
        },
      );
      this._pending.set(key, done);
    } else if (result !== undefined) {
      this.set(key, result);
    }
  }

  // The promise of a revalidation in progress for key, if any.
  revalidation(key) {
    return this._pending.get(key);
  }

  peek(key) {
    const node = this._map.get(key);
    if (node === undefined) {
      return undefined;
    }
    const state = entryState(node.expiresAt, this.now(), this.staleWindow);
    return state === EXPIRED ? undefined : node.value;
  }

  has(key) {
    const node = this._map.get(key);
    if (node === undefined) {
      return false;
    }
    return entryState(node.expiresAt, this.now(), this.staleWindow) === FRESH;
  }

  delete(key) {
    const node = this._map.get(key);
    if (node === undefined) {
      return false;
    }
    this._removeNode(node, 'delete');
    return true;
  }

  clear() {
    const nodes = [...this._list.nodesReversed()];
    this._map.clear();
    this._list.clear();
    this._pending.clear();
    this._calculatedSize = 0;
    for (const node of nodes) {
      this._notify(node.key, node.value, 'clear');
    }
  }

  // Removes the least recently used entry and returns it as [key, value].
  pop() {
    const node = this._list.tail;
    if (node === null) {
      return undefined;
    }
    this._removeNode(node, 'delete');
    return [node.key, node.value];
  }

  getRemainingTTL(key) {
    const node = this._map.get(key);
    if (node === undefined) {
      return 0;
    }
    return remaining(node.expiresAt, this.now());
  }

  // Drops every entry past its stale window; returns how many were dropped.
  purgeStale() {
    const now = this.now();
    const victims = [];
    for (const node of this._list.nodesReversed()) {
      if (entryState(node.expiresAt, now, this.staleWindow) === EXPIRED) {
        victims.push(node);
      }
    }
    for (const node of victims) {
      this._removeNode(node, 'expire');
    }
    return victims.length;
  }

  // Changes the limits; evicts least recently used entries that no longer
  // fit and returns how many were evicted.
  resize(max, maxSize = this.maxSize) {
    const newMax = checkLimit(max, 'max');
    const newMaxSize = checkLimit(maxSize, 'maxSize');
    if (newMax === 0 && newMaxSize === 0) {
      throw new TypeError('at least one of max or maxSize must be set');
    }
    this.max = newMax;
    this.maxSize = newMaxSize;
    if (newMaxSize > 0 && (this.maxEntrySize === 0 || this.maxEntrySize > newMaxSize)) {
      this.maxEntrySize = newMaxSize;
    }
    return this._enforceLimits();
  }

  *_live(reversed) {
    const now = this.now();
    const nodes = reversed ? this._list.nodesReversed() : this._list.nodes();
    for (const node of nodes) {
      if (entryState(node.expiresAt, now, this.staleWindow) !== EXPIRED) {
        yield node;
      }
    }
  }

  // Most recently used first.
  *entries() {
    for (const node of this._live(false)) {
      yield [node.key, node.value];
    }
  }

  // Least recently used first.
  *rentries() {
    for (const node of this._live(true)) {
      yield [node.key, node.value];
    }
  }

  *keys() {
    for (const node of this._live(false)) {
      yield node.key;
    }
  }

  *values() {
    for (const node of this._live(false)) {
      yield node.value;
    }
  }

  forEach(callback, thisArg) {
    for (const node of this._live(false)) {
      callback.call(thisArg, node.value, node.key, this);
    }
  }

  [Symbol.iterator]() {
    return this.entries();
  }
}
