import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  toMillis,
  add,
  subtract,
  multiply,
  divide,
  ratio,
  negate,
  abs,
  compare,
  equals,
  min,
  max,
  clamp,
  isBetween,
  sum,
  average,
  roundTo,
  elapsed,
} from '../src/math.js';

describe('math', () => {
  it('converts numbers, strings and objects to milliseconds', () => {
    assert.equal(toMillis(1500), 1500);
    assert.equal(toMillis('2m'), 120000);
    assert.equal(toMillis({ hours: 1, minutes: 30 }), 5400000);
    assert.equal(toMillis({ d: 1, ms: -1 }), 86399999);
    assert.equal(toMillis({}), 0);
    assert.equal(toMillis({ toMilliseconds: () => 77 }), 77);
  });

  it('rejects values that are not durations', () => {
    assert.throws(() => toMillis(null), TypeError);
    assert.throws(() => toMillis(true), TypeError);
    assert.throws(() => toMillis(Number.NaN), TypeError);
    assert.throws(() => toMillis({ fortnights: 1 }), RangeError);
    assert.throws(() => toMillis({ hours: '1' }), { message: 'Field "hours" must be a finite number, got 1' });
  });

  it('adds and subtracts mixed inputs', () => {
    assert.equal(add('1h', '30m', 500), 5400500);
    assert.equal(add(), 0);
    assert.equal(add({ seconds: 10 }, -2000), 8000);
    assert.equal(subtract('1h', '90m'), -1800000);
    assert.equal(subtract(5000, 3000), 2000);
  });

  it('multiplies and divides by numbers', () => {
    assert.equal(multiply('1h', 2.5), 9000000);
    assert.equal(multiply(1000, -3), -3000);
    assert.ok(Object.is(multiply(0, -3), 0));
    assert.equal(divide('1h', 4), 900000);
    assert.equal(divide(-9000, 3), -3000);
    assert.throws(() => divide('1h', 0), { message: 'Cannot divide a duration by zero' });
    assert.throws(() => multiply(1000, Infinity), TypeError);
  });

  it('computes ratios between durations', () => {
    assert.equal(ratio('1h', '15m'), 4);
    assert.equal(ratio('90s', '1m'), 1.5);
    assert.equal(ratio(-500, 1000), -0.5);
    assert.throws(() => ratio('1h', 0), RangeError);
  });

  it('negates and takes absolute values', () => {
    assert.equal(negate('5s'), -5000);
    assert.equal(negate(-200), 200);
    assert.ok(Object.is(negate(0), 0));
    assert.equal(abs(-300), 300);
    assert.equal(abs('2s'), 2000);
  });

  it('compares durations', () => {
    assert.equal(compare('1h', '60m'), 0);
    assert.equal(compare('59m', '1h'), -1);
    assert.equal(compare('61m', '1h'), 1);
    assert.equal(compare(-1, 0), -1);
    assert.equal(equals('1m', 60000), true);
    assert.equal(equals('1m', 60001), false);
    assert.equal(equals('1m', 60005, 5), true);
    assert.equal(equals('1m', 59994, 5), false);
  });

  it('finds minimum and maximum', () => {
    assert.equal(min('1h', '5m', 400000), 300000);
    assert.equal(max('1h', '5m', 400000), 3600000);
    assert.equal(min(7), 7);
    assert.equal(max(-7, -3, -9), -3);
    assert.equal(min(3, 1, 2), 1);
    assert.equal(min(3, 2, 1), 1);
    assert.equal(max(1, 2, 3), 3);
    assert.throws(() => min(), RangeError);
    assert.throws(() => max(), RangeError);
  });

  it('clamps into a range', () => {
    assert.equal(clamp('2h', '1m', '1h'), 3600000);
    assert.equal(clamp('10s', '1m', '1h'), 60000);
    assert.equal(clamp('30m', '1m', '1h'), 1800000);
    assert.equal(clamp(5, 5, 5), 5);
    assert.throws(() => clamp(1, 10, 5), { message: 'clamp() lower bound is above upper bound' });
  });

  it('tests whether a duration lies between bounds', () => {
    assert.equal(isBetween('30m', '1m', '1h'), true);
    assert.equal(isBetween('1h', '1m', '1h'), true);
    assert.equal(isBetween('1m', '1m', '1h'), true);
    assert.equal(isBetween('1h', '1m', '1h', false), false);
    assert.equal(isBetween('1m', '1m', '1h', false), false);
    assert.equal(isBetween('59m', '1m', '1h', false), true);
    assert.equal(isBetween('2h', '1m', '1h'), false);
    assert.equal(isBetween('30s', '1m', '1h'), false);
  });

  it('sums and averages lists', () => {
    assert.equal(sum(['1m', '2m', 30000]), 210000);
    assert.equal(sum([]), 0);
    assert.equal(average(['1m', '2m', '3m']), 120000);
    assert.equal(average([1000, 2000]), 1500);
    assert.throws(() => average([]), RangeError);
    assert.throws(() => average('1m'), RangeError);
  });

  it('rounds to units with each mode', () => {
    assert.equal(roundTo(90000, 'm'), 120000);
    assert.equal(roundTo(89999, 'm'), 60000);
    assert.equal(roundTo('1h 40m', 'h', 'floor'), 3600000);
    assert.equal(roundTo('1h 10m', 'h', 'ceil'), 7200000);
    assert.equal(roundTo('1h 50m', 'h', 'trunc'), 3600000);
    assert.equal(roundTo(1234, 100), 1200);
    assert.equal(roundTo(1250, 500, 'ceil'), 1500);
    assert.equal(roundTo(1.6, 1), 2);
    assert.equal(roundTo(0.6, 1), 1);
  });

  it('rounds negative durations symmetrically or toward infinity', () => {
    assert.equal(roundTo(-90000, 'm'), -120000);
    assert.equal(roundTo(-70000, 'm', 'floor'), -120000);
    assert.equal(roundTo(-70000, 'm', 'ceil'), -60000);
    assert.equal(roundTo(-110000, 'm', 'trunc'), -60000);
    assert.ok(Object.is(roundTo(-20000, 'm'), 0));
    assert.throws(() => roundTo(1000, 0), { message: 'Rounding step must be positive' });
    assert.throws(() => roundTo(1000, 's', 'bankers'), { message: 'Unknown rounding mode: bankers' });
  });

  it('measures elapsed time between moments', () => {
    assert.equal(elapsed(1000, 4500), 3500);
    assert.equal(elapsed(new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 2))), 86400000);
    assert.equal(elapsed(new Date(Date.UTC(2024, 0, 1, 12)), Date.UTC(2024, 0, 1, 10)), -7200000);
    assert.throws(() => elapsed('yesterday', 0), TypeError);
  });
});
