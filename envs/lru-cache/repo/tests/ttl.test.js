import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
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
} from '../src/ttl.js';

describe('ttl', () => {
  it('normalizeTtl maps missing and infinite values to 0', () => {
    assert.equal(normalizeTtl(undefined), 0);
    assert.equal(normalizeTtl(null), 0);
    assert.equal(normalizeTtl(0), 0);
    assert.equal(normalizeTtl(Infinity), 0);
    assert.equal(normalizeTtl(250), 250);
    assert.equal(normalizeTtl(0.5), 0.5);
  });

  it('normalizeTtl rejects bad values and names the option', () => {
    assert.throws(() => normalizeTtl(-1), RangeError);
    assert.throws(() => normalizeTtl('10'), TypeError);
    assert.throws(() => normalizeTtl(NaN), /ttl must be a number/);
    assert.throws(() => normalizeTtl(-5, 'staleWhileRevalidate'), /staleWhileRevalidate must not be negative/);
  });

  it('computeExpiry adds the ttl or never expires', () => {
    assert.equal(computeExpiry(1000, 500), 1500);
    assert.equal(computeExpiry(1000, 0), Infinity);
    assert.equal(computeExpiry(0, 1), 1);
  });

  it('isExpired is true from the expiry instant on', () => {
    assert.equal(isExpired(100, 99), false);
    assert.equal(isExpired(100, 100), true);
    assert.equal(isExpired(100, 101), true);
    assert.equal(isExpired(Infinity, 1e15), false);
  });

  it('remaining counts down to zero', () => {
    assert.equal(remaining(100, 40), 60);
    assert.equal(remaining(100, 99), 1);
    assert.equal(remaining(100, 100), 0);
    assert.equal(remaining(100, 150), 0);
    assert.equal(remaining(Infinity, 5), Infinity);
  });

  it('entryState distinguishes fresh, stale and expired', () => {
    assert.equal(entryState(100, 99, 50), FRESH);
    assert.equal(entryState(100, 100, 50), STALE);
    assert.equal(entryState(100, 149, 50), STALE);
    assert.equal(entryState(100, 150, 50), EXPIRED);
    assert.equal(entryState(100, 100, 0), EXPIRED);
    assert.equal(entryState(Infinity, 1e9, 0), FRESH);
    assert.equal(entryState(100, 100, 1), STALE);
    assert.equal(entryState(100, 101, 1), EXPIRED);
  });

  it('lifeFraction reports the used share of the ttl', () => {
    assert.equal(lifeFraction(100, 200, 100), 0);
    assert.equal(lifeFraction(100, 200, 125), 0.25);
    assert.equal(lifeFraction(100, 200, 150), 0.5);
    assert.equal(lifeFraction(100, 200, 200), 1);
    assert.equal(lifeFraction(100, 200, 300), 1);
    assert.equal(lifeFraction(100, 200, 50), 0);
    assert.equal(lifeFraction(100, Infinity, 500), 0);
    assert.equal(lifeFraction(100, 100, 100), 1);
    assert.equal(lifeFraction(10, 11, 10), 0);
    assert.equal(lifeFraction(0, 4, 1), 0.25);
  });

  it('manual clock moves only when told to', () => {
    const clock = createManualClock(10);
    assert.equal(clock(), 10);
    assert.equal(clock.advance(5), 15);
    assert.equal(clock(), 15);
    assert.equal(clock.set(40), 40);
    assert.equal(clock.advance(0), 40);
    assert.equal(clock.set(40), 40);
    assert.throws(() => clock.advance(-1), RangeError);
    assert.throws(() => clock.set(39), RangeError);
    assert.equal(clock(), 40);
    assert.equal(createManualClock()(), 0);
  });
});
