export { LRUCache } from './lru.js';
export { LinkedList, ListNode } from './linked-list.js';
export { CacheStats } from './stats.js';
export {
  normalizeTtl,
  computeExpiry,
  isExpired,
  remaining,
  entryState,
  lifeFraction,
  createManualClock,
  FRESH,
  STALE,
  EXPIRED,
} from './ttl.js';
export { memoize, stableStringify } from './memoize.js';
