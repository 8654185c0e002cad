// Memoization on top of LRUCache.

import { LRUCache } from './lru.js';

// Turns a value into a string that is equal for structurally equal inputs:
// object keys are sorted, and types are kept apart (1 and '1' differ).
export function stableStringify(value) {
  if (value === null) {
    return 'null';
  }
  const type = typeof value;
  if (type === 'string') {
    return JSON.stringify(value);
  }
  if (type === 'number') {
    if (Object.is(value, -0)) {
      return '-0';
    }
    return Number.isNaN(value) ? 'NaN' : String(value);
  }
  if (type === 'bigint') {
    return `${value}n`;
  }
  if (type === 'boolean') {
    return value ? 'true' : 'false';
  }
  if (type === 'undefined') {
    return 'undefined';
  }
  if (type === 'function' || type === 'symbol') {
    throw new TypeError(`cannot build a cache key from a ${type}`);
  }
  if (Array.isArray(value)) {
    return `[${value.map(stableStringify).join(',')}]`;
  }
  if (value instanceof Date) {
    return `Date(${value.getTime()})`;
  }
  const parts = [];
  for (const key of Object.keys(value).sort()) {
    if (value[key] === undefined) {
      continue;
    }
    parts.push(`${JSON.stringify(key)}:${stableStringify(value[key])}`);
  }
  return `{${parts.join(',')}}`;
}

function isThenable(value) {
  return value !== null && typeof value === 'object' && typeof value.then === 'function';
}

export function memoize(fn, options = {}) {
  if (typeof fn !== 'function') {
    throw new TypeError('memoize expects a function');
  }
  const { key: keyFn, maxArgs, cache: providedCache, cacheRejections = false, ...cacheOptions } = options;
  if (maxArgs !== undefined && (!Number.isInteger(maxArgs) || maxArgs < 0)) {
    throw new RangeError('maxArgs must be a non-negative integer');
  }
  if (keyFn !== undefined && typeof keyFn !== 'function') {
    throw new TypeError('key must be a function');
  }
  const cache = providedCache ?? new LRUCache({ max: 500, ...cacheOptions });
  let calls = 0;

  const keyFor = (args) => {
    const used = maxArgs === undefined ? args : args.slice(0, maxArgs);
    return keyFn ? keyFn(...used) : stableStringify(used);
  };

  function memoized(...args) {
    const key = keyFor(args);
    const cached = cache.get(key);
    if (cached !== undefined || cache.has(key)) {
      return cached;
    }
    calls += 1;
    const result = fn.apply(this, args);
    cache.set(key, result);
    if (!cacheRejections && isThenable(result)) {
      // A failed promise must not be served to later callers.
      result.then(undefined, () => {
        if (cache.peek(key) === result) {
          cache.delete(key);
        }
      });
    }
    return result;
  }

  memoized.cache = cache;
  memoized.keyFor = (...args) => keyFor(args);
  memoized.forget = (...args) => cache.delete(keyFor(args));
  memoized.clear = () => cache.clear();
  Object.defineProperty(memoized, 'calls', { get: () => calls });
  return memoized;
}
