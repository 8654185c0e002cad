// Unit table and conversions between duration units.
// Months and years are calendar-free approximations: 30 and 365 days.
import { assertFinite } from './errors.js';

export const MILLISECOND = 1;
export const SECOND = 1000 * MILLISECOND;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;
export const MONTH = 30 * DAY;
export const YEAR = 365 * DAY;

const TABLE = [
  { key: 'y', ms: YEAR, singular: 'year', plural: 'years', aliases: ['yr', 'yrs'] },
  { key: 'mo', ms: MONTH, singular: 'month', plural: 'months', aliases: ['mon', 'mos'] },
  { key: 'w', ms: WEEK, singular: 'week', plural: 'weeks', aliases: ['wk', 'wks'] },
  { key: 'd', ms: DAY, singular: 'day', plural: 'days', aliases: [] },
  { key: 'h', ms: HOUR, singular: 'hour', plural: 'hours', aliases: ['hr', 'hrs'] },
  { key: 'm', ms: MINUTE, singular: 'minute', plural: 'minutes', aliases: ['min', 'mins'] },
  { key: 's', ms: SECOND, singular: 'second', plural: 'seconds', aliases: ['sec', 'secs'] },
  { key: 'ms', ms: MILLISECOND, singular: 'millisecond', plural: 'milliseconds', aliases: ['msec', 'msecs'] },
];

const ALIASES = new Map();
for (const unit of TABLE) {
  for (const name of [unit.key, unit.singular, unit.plural, ...unit.aliases]) {
    ALIASES.set(name, unit);
  }
}

export const UNIT_KEYS = TABLE.map((unit) => unit.key);

// Returns the unit record for a name or alias, or null when unknown.
export function findUnit(name) {
  if (typeof name !== 'string') {
    return null;
  }
  return ALIASES.get(name.trim().toLowerCase()) ?? null;
}

export function unitInfo(name) {
  const unit = findUnit(name);
  if (unit === null) {
    throw new RangeError(`Unknown duration unit: ${String(name)}`);
  }
  return unit;
}

export function isUnit(name) {
  return findUnit(name) !== null;
}

export function unitMs(name) {
  return unitInfo(name).ms;
}

export function canonicalUnit(name) {
  return unitInfo(name).key;
}

export function toMs(value, unit) {
  assertFinite(value, 'Value');
  return value * unitMs(unit);
}

export function fromMs(ms, unit) {
  assertFinite(ms);
  return ms / unitMs(unit);
}

export function convert(value, from, to) {
  assertFinite(value, 'Value');
  return (value * unitMs(from)) / unitMs(to);
}

// Name of a unit for display: the short key, or the singular/plural word.
export function unitName(name, count, style = 'long') {
  const unit = unitInfo(name);
  if (style === 'short') {
    return unit.key;
  }
  return Math.abs(count) === 1 ? unit.singular : unit.plural;
}

// Canonical keys without repeats, largest unit first.
export function sortUnits(names) {
  const keys = [];
  for (const name of names) {
    const key = canonicalUnit(name);
    if (!keys.includes(key)) {
      keys.push(key);
    }
  }
  return keys.sort((a, b) => unitMs(b) - unitMs(a));
}

// Splits a duration into whole counts of the given units, largest first.
// Whatever is smaller than the smallest unit is returned as `remainder`.
export function breakdown(ms, units = ['d', 'h', 'm', 's', 'ms']) {
  assertFinite(ms);
  const keys = sortUnits(units);
  if (keys.length === 0) {
    throw new RangeError('At least one unit is required');
  }
  const sign = ms < 0 ? -1 : 1;
  let rest = Math.abs(ms);
  const parts = [];
  for (const key of keys) {
    const size = unitMs(key);
    const count = Math.floor(rest / size);
    rest -= count * size;
    parts.push({ unit: key, value: count });
  }
  return { sign, parts, remainder: rest };
}

// The largest unit that fits at least once into the duration.
export function largestUnit(ms, units = UNIT_KEYS) {
  assertFinite(ms);
  const keys = sortUnits(units);
  const abs = Math.abs(ms);
  for (const key of keys) {
    if (abs >= unitMs(key)) {
      return key;
    }
  }
  return keys[keys.length - 1];
}
