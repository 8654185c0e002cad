// Arithmetic, comparison and rounding on durations. Every function accepts
// milliseconds, duration strings, {hours: 1, minutes: 30} objects, or any
// object with a toMilliseconds() method.
import { assertFinite } from './errors.js';
import { parse } from './parse.js';
import { unitInfo, unitMs } from './units.js';

export function toMillis(value) {
  if (typeof value === 'number') {
    return assertFinite(value);
  }
  if (typeof value === 'string') {
    return parse(value);
  }
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`Cannot convert ${String(value)} to a duration`);
  }
  if (typeof value.toMilliseconds === 'function') {
    return value.toMilliseconds();
  }
  let total = 0;
  for (const [key, amount] of Object.entries(value)) {
    const unit = unitInfo(key);
    assertFinite(amount, `Field "${key}"`);
    total += amount * unit.ms;
  }
  return total;
}

function noNegativeZero(ms) {
  return ms === 0 ? 0 : ms;
}

export function add(...values) {
  let total = 0;
  for (const value of values) {
    total += toMillis(value);
  }
  return total;
}

export function subtract(a, b) {
  return toMillis(a) - toMillis(b);
}

export function multiply(value, factor) {
  assertFinite(factor, 'Factor');
  return noNegativeZero(toMillis(value) * factor);
}

export function divide(value, divisor) {
  assertFinite(divisor, 'Divisor');
  if (divisor === 0) {
    throw new RangeError('Cannot divide a duration by zero');
  }
  return noNegativeZero(toMillis(value) / divisor);
}

// How many times `b` fits into `a` (a plain number).
export function ratio(a, b) {
  const whole = toMillis(b);
  if (whole === 0) {
    throw new RangeError('Cannot take a ratio to a zero duration');
  }
  return toMillis(a) / whole;
}

export function negate(value) {
  return noNegativeZero(-toMillis(value));
}

export function abs(value) {
  return Math.abs(toMillis(value));
}

export function compare(a, b) {
  const x = toMillis(a);
  const y = toMillis(b);
  if (x < y) {
    return -1;
  }
  if (x > y) {
    return 1;
  }
  return 0;
}

export function equals(a, b, tolerance = 0) {
  assertFinite(tolerance, 'Tolerance');
  return Math.abs(toMillis(a) - toMillis(b)) <= tolerance;
}

export function min(...values) {
  if (values.length === 0) {
    throw new RangeError('min() needs at least one duration');
  }
  let best = toMillis(values[0]);
  for (let i = 1; i < values.length; i += 1) {
    const ms = toMillis(values[i]);
    if (ms < best) {
      best = ms;
    }
  }
  return best;
}

export function max(...values) {
  if (values.length === 0) {
    throw new RangeError('max() needs at least one duration');
  }
  let best = toMillis(values[0]);
  for (let i = 1; i < values.length; i += 1) {
    const ms = toMillis(values[i]);
    if (ms > best) {
      best = ms;
    }
  }
  return best;
}

export function clamp(value, lower, upper) {
  const lo = toMillis(lower);
  const hi = toMillis(upper);
  if (lo > hi) {
    throw new RangeError('clamp() lower bound is above upper bound');
  }
  const ms = toMillis(value);
  return ms < lo ? lo : ms > hi ? hi : ms;
}

export function isBetween(value, lower, upper, inclusive = true) {
  const ms = toMillis(value);
  const lo = toMillis(lower);
  const hi = toMillis(upper);
  return inclusive ? ms >= lo && ms <= hi : ms > lo && ms < hi;
}

export function sum(values) {
  let total = 0;
  for (const value of values) {
    total += toMillis(value);
  }
  return total;
}

export function average(values) {
  if (!Array.isArray(values) || values.length === 0) {
    throw new RangeError('average() needs a non-empty array');
  }
  return sum(values) / values.length;
}

// Rounds to a multiple of `unit` (a unit name or a step in milliseconds).
// Modes: 'round' (half away from zero), 'floor', 'ceil', 'trunc'.
export function roundTo(value, unit, mode = 'round') {
  const ms = toMillis(value);
  const step = typeof unit === 'number' ? unit : unitMs(unit);
  if (!(step > 0)) {
    throw new RangeError('Rounding step must be positive');
  }
  const negative = ms < 0;
  const quotient = Math.abs(ms) / step;
  let count;
  switch (mode) {
    case 'round':
      count = Math.round(quotient);
      break;
    case 'floor':
      count = negative ? Math.ceil(quotient) : Math.floor(quotient);
      break;
    case 'ceil':
      count = negative ? Math.floor(quotient) : Math.ceil(quotient);
      break;
    case 'trunc':
      count = Math.floor(quotient);
      break;
    default:
      throw new RangeError(`Unknown rounding mode: ${mode}`);
  }
  return noNegativeZero((negative ? -count : count) * step);
}

// Milliseconds between two moments given as epoch milliseconds or Dates.
export function elapsed(start, end) {
  const a = start instanceof Date ? start.getTime() : start;
  const b = end instanceof Date ? end.getTime() : end;
  assertFinite(a, 'Start');
  assertFinite(b, 'End');
  return b - a;
}
