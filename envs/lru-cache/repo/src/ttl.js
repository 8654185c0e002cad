// Time-to-live helpers. Every function takes the current time explicitly so
// that callers can inject their own clock.

export const FRESH = 'fresh';
export const STALE = 'stale';
export const EXPIRED = 'expired';

// Normalises a ttl option: undefined, 0 and Infinity all mean "never expires"
// and are returned as 0. Negative or non-numeric values are rejected.
export function normalizeTtl(ttl, name = 'ttl') {
  if (ttl === undefined || ttl === null) {
    return 0;
  }
  if (typeof ttl !== 'number' || Number.isNaN(ttl)) {
    throw new TypeError(`${name} must be a number`);
  }
  if (ttl < 0) {
    throw new RangeError(`${name} must not be negative`);
  }
  return Number.isFinite(ttl) ? ttl : 0;
}

export function computeExpiry(now, ttl) {
  return ttl > 0 ? now + ttl : Infinity;
}

export function isExpired(expiresAt, now) {
  return expiresAt !== Infinity && now >= expiresAt;
}

// Milliseconds until expiry, never below zero; Infinity when it never expires.
export function remaining(expiresAt, now) {
  if (expiresAt === Infinity) {
    return Infinity;
  }
  const left = expiresAt - now;
  return left > 0 ? left : 0;
}

// Classifies an entry: fresh before its expiry, stale during the
// stale-while-revalidate window after it, expired afterwards.
export function entryState(expiresAt, now, staleWindow) {
  if (!isExpired(expiresAt, now)) {
    return FRESH;
  }
  if (staleWindow > 0 && now < expiresAt + staleWindow) {
    return STALE;
  }
  return EXPIRED;
}

// How far into the entry's life we are, as a fraction between 0 and 1.
export function lifeFraction(setAt, expiresAt, now) {
  if (expiresAt === Infinity) {
    return 0;
  }
  const total = expiresAt - setAt;
  if (total <= 0) {
    return 1;
  }
  const used = now - setAt;
  if (used <= 0) {
    return 0;
  }
  return used >= total ? 1 : used / total;
}

// A clock for tests and simulations: time only moves when told to.
export function createManualClock(start = 0) {
  let current = start;
  const now = () => current;
  now.advance = (ms) => {
    if (ms < 0) {
      throw new RangeError('a clock cannot go backwards');
    }
    current += ms;
    return current;
  };
  now.set = (time) => {
    if (time < current) {
      throw new RangeError('a clock cannot go backwards');
    }
    current = time;
    return current;
  };
  return now;
}
