import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseISO, formatISO, isISODuration } from '../src/iso.js';

describe('iso', () => {
  it('parses time components', () => {
    assert.equal(parseISO('PT1H30M'), 5400000);
    assert.equal(parseISO('PT45S'), 45000);
    assert.equal(parseISO('PT2H0M5S'), 7205000);
    assert.equal(parseISO('PT0S'), 0);
  });

  it('parses date components with fixed month and year lengths', () => {
    assert.equal(parseISO('P1D'), 86400000);
    assert.equal(parseISO('P2W'), 1209600000);
    assert.equal(parseISO('P1M'), 2592000000);
    assert.equal(parseISO('P1Y2D'), 31708800000);
    assert.equal(parseISO('P1DT12H'), 129600000);
  });

  it('parses signs, lower case and decimal fractions', () => {
    assert.equal(parseISO('-PT1M'), -60000);
    assert.equal(parseISO('+PT1M'), 60000);
    assert.equal(parseISO('pt1.5s'), 1500);
    assert.equal(parseISO('PT0,25H'), 900000);
    assert.equal(parseISO('P1DT1.5M'), 86490000);
  });

  it('allows a fraction only on the smallest component', () => {
    assert.throws(() => parseISO('PT1.5H30M'), { message: 'Only the smallest component may have a fraction' });
    assert.throws(() => parseISO('P0.5DT1H'), /smallest component/);
  });

  it('rejects malformed durations', () => {
    assert.throws(() => parseISO('P'), { message: 'ISO duration has no components' });
    assert.throws(() => parseISO('P1DT'), { message: 'Missing time components after "T" at position 3' });
    assert.throws(() => parseISO('PT'), /Missing time components/);
    assert.throws(() => parseISO('P1H'), { message: 'Invalid ISO 8601 duration' });
    assert.throws(() => parseISO('PT1S1M'), { name: 'DurationParseError' });
    assert.throws(() => parseISO(60), TypeError);
  });

  it('checks validity without throwing', () => {
    assert.equal(isISODuration('P3DT4H'), true);
    assert.equal(isISODuration('3 days'), false);
    assert.equal(isISODuration('PT'), false);
    assert.equal(isISODuration(null), false);
  });

  it('formats durations with days and time fields', () => {
    assert.equal(formatISO(5400000), 'PT1H30M');
    assert.equal(formatISO(93784005), 'P1DT2H3M4.005S');
    assert.equal(formatISO(86400000), 'P1D');
    assert.equal(formatISO(3600000 + 5000), 'PT1H5S');
    assert.equal(formatISO(0), 'PT0S');
    assert.equal(formatISO(0.4), 'PT0S');
  });

  it('formats fractional seconds, negatives and weeks', () => {
    assert.equal(formatISO(1500), 'PT1.5S');
    assert.equal(formatISO(250), 'PT0.25S');
    assert.equal(formatISO(1020), 'PT1.02S');
    assert.equal(formatISO(5005), 'PT5.005S');
    assert.equal(formatISO(-90000), '-PT1M30S');
    assert.equal(formatISO(1209600000, { weeks: true }), 'P2W');
    assert.equal(formatISO(1209600000), 'P14D');
    assert.equal(formatISO(1209601000, { weeks: true }), 'P14DT1S');
    assert.equal(formatISO(864000000, { weeks: true }), 'P10D');
    assert.throws(() => formatISO(Number.NaN), TypeError);
  });

  it('round-trips through parse and format', () => {
    for (const text of ['PT1H30M', 'P2DT3H4M5.6S', '-PT0.001S', 'P400D', 'PT59M59S']) {
      assert.equal(formatISO(parseISO(text)), text);
    }
  });
});
