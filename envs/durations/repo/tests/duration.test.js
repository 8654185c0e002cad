import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Duration, duration, parse, format, DurationParseError, HOUR } from '../src/index.js';

describe('Duration', () => {
  it('builds from any supported input', () => {
    assert.equal(new Duration('1h 30m').toMilliseconds(), 5400000);
    assert.equal(new Duration({ minutes: 2 }).toMilliseconds(), 120000);
    assert.equal(new Duration().toMilliseconds(), 0);
    assert.equal(new Duration(new Duration(42)).toMilliseconds(), 42);
    const d = duration('5s');
    assert.equal(Duration.from(d), d);
    assert.equal(Duration.from(7).toMilliseconds(), 7);
  });

  it('converts to other units', () => {
    const d = new Duration('90m');
    assert.equal(d.as('h'), 1.5);
    assert.equal(d.as('seconds'), 5400);
    assert.equal(new Duration('P1W').as('d'), 7);
  });

  it('does immutable arithmetic', () => {
    const base = new Duration('1h');
    const later = base.plus('30m').minus(600000).times(2).dividedBy(4);
    assert.equal(later.toMilliseconds(), 2400000);
    assert.equal(base.toMilliseconds(), HOUR);
    assert.equal(base.negated().toMilliseconds(), -HOUR);
    assert.ok(Object.is(new Duration(0).negated().toMilliseconds(), 0));
    assert.equal(new Duration(-5).abs().toMilliseconds(), 5);
    assert.equal(new Duration(5).abs().toMilliseconds(), 5);
    assert.equal(new Duration(0.5).abs().toMilliseconds(), 0.5);
  });

  it('rounds, compares and inspects sign', () => {
    assert.equal(new Duration('1h 31m').round('h').toString(), '2h');
    assert.equal(new Duration('1h 59m').round('h', 'floor').toString(), '1h');
    assert.equal(new Duration('1h').compareTo('59m'), 1);
    assert.equal(new Duration('1h').compareTo('2h'), -1);
    assert.equal(new Duration('1h').equals('60m'), true);
    assert.equal(new Duration(1003).equals(1000, 2), false);
    assert.equal(new Duration(1001).equals(1000), false);
    assert.equal(new Duration(-1).isNegative(), true);
    assert.equal(new Duration(0).isNegative(), false);
    assert.equal(new Duration(0).isZero(), true);
    assert.equal(new Duration(1).isZero(), false);
  });

  it('formats in every supported notation', () => {
    const d = new Duration('PT1H30M');
    assert.equal(d.toString(), '1h 30m');
    assert.equal(d.toString({ style: 'long' }), '1 hour, 30 minutes');
    assert.equal(d.toISO(), 'PT1H30M');
    assert.equal(d.toClock(), '01:30:00');
    assert.equal(d.humanize(), 'about 2 hours');
    assert.equal(d.humanize({ relative: true }), 'in about 2 hours');
    assert.equal(JSON.stringify({ d }), '{"d":"PT1H30M"}');
    assert.equal(d + 0, 5400000);
    assert.equal(new Duration('14d').toISO({ weeks: true }), 'P2W');
  });

  it('measures the duration between two moments', () => {
    const d = Duration.between(Date.UTC(2024, 2, 1, 8, 0), Date.UTC(2024, 2, 1, 17, 45));
    assert.equal(d.toString(), '9h 45m');
    assert.equal(Duration.between(5000, 2000).toString(), '-3s');
  });

  it('re-exports the functional API', () => {
    assert.equal(format(parse('2 hours and 5 minutes'), { style: 'long' }), '2 hours, 5 minutes');
    assert.throws(() => new Duration('soon'), DurationParseError);
  });
});
