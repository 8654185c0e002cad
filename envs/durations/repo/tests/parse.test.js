import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, parseClock, tryParse } from '../src/parse.js';
import { DurationParseError } from '../src/errors.js';

describe('parse', () => {
  it('parses compact unit terms', () => {
    assert.equal(parse('1h 30m'), 5400000);
    assert.equal(parse('1h30m15s'), 5415000);
    assert.equal(parse('90s'), 90000);
    assert.equal(parse('250ms'), 250);
    assert.equal(parse('2w 1d'), 1296000000);
  });

  it('parses long unit names with fractions', () => {
    assert.equal(parse('1.5 days'), 129600000);
    assert.equal(parse('.5 hours'), 1800000);
    assert.equal(parse('2 minutes 3 seconds'), 123000);
    assert.equal(parse('1 year'), 31536000000);
    assert.equal(parse('3 months'), 7776000000);
  });

  it('accepts commas, "and" and articles between terms', () => {
    assert.equal(parse('1 hour, 30 minutes'), 5400000);
    assert.equal(parse('1 hour and 30 minutes'), 5400000);
    assert.equal(parse('2 days, 3 hours and 4 minutes'), 183840000);
    assert.equal(parse('an hour'), 3600000);
    assert.equal(parse('1h,30m'), 5400000);
    assert.equal(parse('1h\n30m\t5s'), 5405000);
    assert.throws(() => parse(', 5m'), { message: 'Expected a number at position 0' });
    assert.throws(() => parse('and 5m'), DurationParseError);
    assert.equal(parse('a day and 30 minutes'), 88200000);
  });

  it('applies a leading sign to the whole expression', () => {
    assert.equal(parse('-1h 30m'), -5400000);
    assert.equal(parse('+2m'), 120000);
    assert.equal(parse('- 5s'), -5000);
  });

  it('reads bare numbers in the default unit', () => {
    assert.equal(parse('1500'), 1500);
    assert.equal(parse('90', { defaultUnit: 's' }), 90000);
    assert.equal(parse('-2.5', { defaultUnit: 'm' }), -150000);
    assert.equal(parse(42), 42);
    assert.equal(parse('+5'), 5);
    assert.equal(parse('.5', { defaultUnit: 's' }), 500);
    assert.equal(parse(3, { defaultUnit: 'h' }), 10800000);
  });

  it('dispatches ISO 8601 strings', () => {
    assert.equal(parse('PT1H30M'), 5400000);
    assert.equal(parse('-P1D'), -86400000);
    assert.equal(parse('+PT1M'), 60000);
    assert.equal(parse('  pt45s  '), 45000);
  });

  it('parses three-part clocks with fractions', () => {
    assert.equal(parse('01:30:00'), 5400000);
    assert.equal(parseClock('10:00:05.5'), 36005500);
    assert.equal(parseClock('0:00:01.25'), 1250);
    assert.equal(parseClock('100:59:59'), 363599000);
    assert.equal(parseClock('-00:02:03'), -123000);
    assert.equal(parseClock('-12:00:00'), -43200000);
    assert.equal(parseClock('1:5:7'), 3907000);
  });

  it('reads two-part clocks as h:mm unless asked for m:ss', () => {
    assert.equal(parseClock('1:30'), 5400000);
    assert.equal(parseClock('1:30', { twoPart: 'ms' }), 90000);
    assert.equal(parseClock('75:30', { twoPart: 'ms' }), 4530000);
    assert.equal(parseClock('2:05.5', { twoPart: 'ms' }), 125500);
    assert.equal(parse('0:45', { twoPart: 'ms' }), 45000);
  });

  it('rejects out-of-range clock fields', () => {
    assert.throws(() => parseClock('1:60'), { message: 'Minutes must be below 60' });
    assert.throws(() => parseClock('1:00:60'), { message: 'Seconds must be below 60' });
    assert.throws(() => parseClock('1:59:60'), DurationParseError);
    assert.throws(() => parseClock('1:30.5'), { message: 'Fraction requires a seconds field' });
    assert.throws(() => parseClock('1:2:3:4'), { message: 'Invalid clock duration' });
    assert.throws(() => parseClock('1:00:00.1234'), { message: 'Invalid clock duration' });
    assert.equal(parseClock('1:59:59'), 7199000);
  });

  it('enforces unit order in strict mode only', () => {
    assert.equal(parse('30m 1h'), 5400000);
    assert.equal(parse('1h 1h'), 7200000);
    assert.equal(parse('1h 30m 5s', { strict: true }), 5405000);
    assert.throws(() => parse('30m 1h', { strict: true }), /Unit "h" is out of order at position 5/);
    assert.throws(() => parse('1h 1h', { strict: true }), DurationParseError);
  });

  it('reports errors with positions', () => {
    assert.throws(() => parse('1h 30'), { name: 'DurationParseError', message: 'Missing unit at position 5', index: 5, input: '1h 30' });
    assert.throws(() => parse('5 parsecs'), { message: 'Unknown unit "parsecs" at position 2' });
    assert.throws(() => parse('h'), { message: 'Expected a number at position 0' });
    assert.throws(() => parse('   '), { message: 'Empty duration at position 0' });
    assert.throws(() => parse('-'), { message: 'No duration terms found at position 1' });
    assert.throws(() => parse(null), TypeError);
    assert.throws(() => parse(Infinity), TypeError);
  });

  it('tryParse returns a fallback instead of throwing', () => {
    assert.equal(tryParse('2s'), 2000);
    assert.equal(tryParse('nonsense'), null);
    assert.equal(tryParse('', {}, 0), 0);
    assert.equal(tryParse(undefined, {}, -1), -1);
    assert.throws(() => tryParse('5', { defaultUnit: 'bogus' }), RangeError);
  });
});
