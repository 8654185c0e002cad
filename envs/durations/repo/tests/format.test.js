import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { format, formatClock, humanize, fromNow } from '../src/format.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('format', () => {
  it('formats in short style by default', () => {
    assert.equal(format(5400000), '1h 30m');
    assert.equal(format(D + 2 * H + 3 * M + 4 * S + 5), '1d 2h 3m 4s 5ms');
    assert.equal(format(90 * S), '1m 30s');
    assert.equal(format(999), '999ms');
  });

  it('formats in long style with plurals', () => {
    assert.equal(format(H + M, { style: 'long' }), '1 hour, 1 minute');
    assert.equal(format(2 * D + 5 * S, { style: 'long' }), '2 days, 5 seconds');
    assert.equal(format(3 * H, { style: 'long', separator: ' ' }), '3 hours');
    assert.equal(
      format(H + 2 * M + 3 * S, { style: 'long', conjunction: ' and ' }),
      '1 hour, 2 minutes and 3 seconds',
    );
    assert.equal(format(2 * M, { style: 'long', conjunction: ' and ' }), '2 minutes');
    assert.equal(format(D + M, { style: 'long', conjunction: ' and ' }), '1 day and 1 minute');
  });

  it('formats zero and negative durations', () => {
    assert.equal(format(0), '0ms');
    assert.equal(format(0, { style: 'long', units: ['h', 'm'] }), '0 minutes');
    assert.equal(format(-5400000), '-1h 30m');
    assert.equal(format(-400, { units: ['s'] }), '0s');
    assert.equal(format(-600, { units: ['s'] }), '-1s');
    assert.equal(format(-1), '-1ms');
    assert.equal(format(0.6), '1ms');
  });

  it('limits the number of units and rounds the last one', () => {
    assert.equal(format(H + 29 * M + 31 * S, { maxUnits: 2 }), '1h 30m');
    assert.equal(format(H + 29 * M + 29 * S, { maxUnits: 2 }), '1h 29m');
    assert.equal(format(H + 31 * M, { maxUnits: 1 }), '2h');
    assert.equal(format(D + 11 * H, { maxUnits: 1 }), '1d');
    assert.equal(format(2 * H + 30 * S, { maxUnits: 2 }), '2h 1m');
  });

  it('carries rounding into the next larger unit', () => {
    assert.equal(format(59700, { maxUnits: 1 }), '1m');
    assert.equal(format(59700, { maxUnits: 1, style: 'long' }), '1 minute');
    assert.equal(format(2 * H - 100, { maxUnits: 2 }), '2h');
    assert.equal(format(59400, { maxUnits: 1 }), '59s');
    assert.equal(format(D - 100, { maxUnits: 1 }), '1d');
    assert.equal(format(D - 100, { maxUnits: 3 }), '1d');
  });

  it('formats with a custom unit set', () => {
    assert.equal(format(2 * D + 3 * H, { units: ['h', 'm'] }), '51h');
    assert.equal(format(90 * M, { units: ['m'] }), '90m');
    assert.equal(format(1234567, { units: ['m', 's'] }), '20m 35s');
    assert.equal(format(10 * D, { units: ['w', 'd'] }), '1w 3d');
  });

  it('validates its options', () => {
    assert.throws(() => format(1000, { style: 'narrow' }), { message: 'Unknown style: narrow' });
    assert.throws(() => format(1000, { maxUnits: 0 }), RangeError);
    assert.throws(() => format(1000, { maxUnits: 1.5 }), RangeError);
    assert.throws(() => format(Infinity), TypeError);
  });

  it('formats clocks', () => {
    assert.equal(formatClock(5400000), '01:30:00');
    assert.equal(formatClock(36 * H + 5 * M + 9 * S), '36:05:09');
    assert.equal(formatClock(59 * S + 600), '00:01:00');
    assert.equal(formatClock(-(2 * M + 3 * S)), '-00:02:03');
    assert.equal(formatClock(-300), '00:00:00');
    assert.equal(formatClock(-1, { showMs: true }), '-00:00:00.001');
    assert.equal(formatClock(0.6, { showMs: true }), '00:00:00.001');
  });

  it('formats clocks with milliseconds and without hours', () => {
    assert.equal(formatClock(H + 1250, { showMs: true }), '01:00:01.250');
    assert.equal(formatClock(7, { showMs: true }), '00:00:00.007');
    assert.equal(formatClock(4 * M + 5 * S, { hideZeroHours: true }), '04:05');
    assert.equal(formatClock(H + 4 * M, { hideZeroHours: true }), '01:04:00');
    assert.equal(formatClock(-1500, { showMs: true, hideZeroHours: true }), '-00:01.500');
  });

  it('humanizes short durations', () => {
    assert.equal(humanize(0), 'a few seconds');
    assert.equal(humanize(44 * S), 'a few seconds');
    assert.equal(humanize(45 * S), 'a minute');
    assert.equal(humanize(89 * S), 'a minute');
    assert.equal(humanize(90 * S), '2 minutes');
    assert.equal(humanize(44 * M), '44 minutes');
    assert.equal(humanize(45 * M), 'an hour');
    assert.equal(humanize(90 * M), 'about 2 hours');
    assert.equal(humanize(21 * H), 'about 21 hours');
  });

  it('humanizes long durations', () => {
    assert.equal(humanize(22 * H), 'a day');
    assert.equal(humanize(36 * H), '2 days');
    assert.equal(humanize(25 * D), '25 days');
    assert.equal(humanize(26 * D), 'about a month');
    assert.equal(humanize(45 * D), '2 months');
    assert.equal(humanize(319 * D), '11 months');
    assert.equal(humanize(320 * D), 'about a year');
    assert.equal(humanize(548 * D), '2 years');
    assert.equal(humanize(3650 * D), '10 years');
  });

  it('humanizes relative durations', () => {
    assert.equal(humanize(2 * H, { relative: true }), 'in about 2 hours');
    assert.equal(humanize(-3 * D, { relative: true }), '3 days ago');
    assert.equal(humanize(-3 * D), '3 days');
    assert.equal(humanize(0, { relative: true }), 'in a few seconds');
    assert.equal(humanize(-1, { relative: true }), 'a few seconds ago');
    assert.equal(fromNow(1000000 + 5 * M, 1000000), 'in 5 minutes');
    assert.equal(fromNow(1000000, 1000000 + 40 * D), 'about a month ago');
    assert.throws(() => fromNow(Number.NaN, 0), TypeError);
  });
});
