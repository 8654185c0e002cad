import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  findUnit,
  unitInfo,
  isUnit,
  unitMs,
  canonicalUnit,
  toMs,
  fromMs,
  convert,
  unitName,
  sortUnits,
  breakdown,
  largestUnit,
  UNIT_KEYS,
  MINUTE,
  HOUR,
  DAY,
  WEEK,
  MONTH,
  YEAR,
} from '../src/units.js';

describe('units', () => {
  it('has the expected unit constants', () => {
    assert.equal(MINUTE, 60000);
    assert.equal(HOUR, 3600000);
    assert.equal(DAY, 86400000);
    assert.equal(WEEK, 604800000);
    assert.equal(MONTH, 2592000000);
    assert.equal(YEAR, 31536000000);
    assert.deepEqual(UNIT_KEYS, ['y', 'mo', 'w', 'd', 'h', 'm', 's', 'ms']);
  });

  it('resolves keys, singular, plural and aliases case-insensitively', () => {
    assert.equal(findUnit('hrs').key, 'h');
    assert.equal(findUnit(' Minutes ').key, 'm');
    assert.equal(findUnit('SEC').key, 's');
    assert.equal(findUnit('mo').key, 'mo');
    assert.equal(findUnit('msecs').key, 'ms');
    assert.equal(findUnit('fortnight'), null);
    assert.equal(findUnit(42), null);
  });

  it('unitInfo throws RangeError for unknown units', () => {
    assert.equal(unitInfo('week').ms, WEEK);
    assert.throws(() => unitInfo('parsec'), { name: 'RangeError', message: 'Unknown duration unit: parsec' });
    assert.equal(isUnit('days'), true);
    assert.equal(isUnit('dayz'), false);
  });

  it('reports milliseconds per unit and canonical keys', () => {
    assert.equal(unitMs('s'), 1000);
    assert.equal(unitMs('ms'), 1);
    assert.equal(unitMs('yr'), YEAR);
    assert.equal(canonicalUnit('weeks'), 'w');
    assert.equal(canonicalUnit('Millisecond'), 'ms');
  });

  it('converts values to and from milliseconds', () => {
    assert.equal(toMs(1.5, 'h'), 5400000);
    assert.equal(toMs(-2, 'min'), -120000);
    assert.equal(fromMs(90000, 'm'), 1.5);
    assert.equal(fromMs(DAY * 3, 'd'), 3);
    assert.throws(() => toMs(Number.NaN, 's'), TypeError);
    assert.throws(() => fromMs(Infinity, 's'), TypeError);
  });

  it('converts between arbitrary units', () => {
    assert.equal(convert(2, 'h', 'm'), 120);
    assert.equal(convert(90, 'minutes', 'hours'), 1.5);
    assert.equal(convert(1, 'w', 'd'), 7);
    assert.equal(convert(3, 'd', 'w'), 3 / 7);
    assert.equal(convert(1, 'y', 'd'), 365);
    assert.throws(() => convert('1', 'h', 'm'), TypeError);
  });

  it('names units in singular, plural and short form', () => {
    assert.equal(unitName('h', 1), 'hour');
    assert.equal(unitName('h', 2), 'hours');
    assert.equal(unitName('h', 0), 'hours');
    assert.equal(unitName('d', -1), 'day');
    assert.equal(unitName('minutes', 5, 'short'), 'm');
  });

  it('sorts units largest first and removes duplicates', () => {
    assert.deepEqual(sortUnits(['s', 'hours', 'ms', 'h', 'd']), ['d', 'h', 's', 'ms']);
    assert.deepEqual(sortUnits(['m']), ['m']);
    assert.deepEqual(sortUnits([]), []);
  });

  it('breaks a duration down into whole units', () => {
    const result = breakdown(DAY + 2 * HOUR + 3 * MINUTE + 4005);
    assert.deepEqual(result, {
      sign: 1,
      parts: [
        { unit: 'd', value: 1 },
        { unit: 'h', value: 2 },
        { unit: 'm', value: 3 },
        { unit: 's', value: 4 },
        { unit: 'ms', value: 5 },
      ],
      remainder: 0,
    });
  });

  it('breaks down negative durations and keeps the remainder', () => {
    const result = breakdown(-(2 * HOUR + 30 * MINUTE + 1500), ['m', 'h']);
    assert.equal(result.sign, -1);
    assert.deepEqual(result.parts, [
      { unit: 'h', value: 2 },
      { unit: 'm', value: 30 },
    ]);
    assert.equal(result.remainder, 1500);
    assert.throws(() => breakdown(1000, []), RangeError);
    assert.equal(breakdown(0).sign, 1);
    assert.equal(breakdown(0.5, ['ms']).sign, 1);
  });

  it('finds the largest fitting unit', () => {
    assert.equal(largestUnit(59999), 's');
    assert.equal(largestUnit(60000), 'm');
    assert.equal(largestUnit(-3 * DAY), 'd');
    assert.equal(largestUnit(8 * DAY, ['h', 'd']), 'd');
    assert.equal(largestUnit(500, ['h', 's']), 's');
    assert.equal(largestUnit(0), 'ms');
  });
});
