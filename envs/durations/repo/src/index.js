// Public entry point: functional API plus an immutable Duration wrapper.
import { format, formatClock, humanize } from './format.js';
import { formatISO } from './iso.js';
import { toMillis, multiply, divide, roundTo, compare, equals, elapsed } from './math.js';
import { fromMs } from './units.js';

export { DurationParseError } from './errors.js';
export * from './units.js';
export { parse, parseClock, tryParse } from './parse.js';
export { parseISO, formatISO, isISODuration } from './iso.js';
export { format, formatClock, humanize, fromNow } from './format.js';
export * from './math.js';

export class Duration {
  #ms;

  constructor(value = 0) {
    this.#ms = toMillis(value);
  }

  static from(value) {
    return value instanceof Duration ? value : new Duration(value);
  }

  static between(start, end) {
    return new Duration(elapsed(start, end));
  }

  toMilliseconds() {
    return this.#ms;
  }

  as(unit) {
    return fromMs(this.#ms, unit);
  }

  plus(other) {
    return new Duration(this.#ms + toMillis(other));
  }

  minus(other) {
    return new Duration(this.#ms - toMillis(other));
  }

  times(factor) {
    return new Duration(multiply(this.#ms, factor));
  }

  dividedBy(divisor) {
    return new Duration(divide(this.#ms, divisor));
  }

  negated() {
    return new Duration(this.#ms === 0 ? 0 : -this.#ms);
  }

  abs() {
    return this.#ms < 0 ? this.negated() : this;
  }

  round(unit, mode = 'round') {
    return new Duration(roundTo(this.#ms, unit, mode));
  }

  isNegative() {
    return this.#ms < 0;
  }

  isZero() {
    return this.#ms === 0;
  }

  compareTo(other) {
    return compare(this.#ms, other);
  }

  equals(other, tolerance = 0) {
    return equals(this.#ms, other, tolerance);
  }

  toString(options) {
    return format(this.#ms, options);
  }

  toISO(options) {
    return formatISO(this.#ms, options);
  }

  toClock(options) {
    return formatClock(this.#ms, options);
  }

  humanize(options) {
    return humanize(this.#ms, options);
  }

  toJSON() {
    return formatISO(this.#ms);
  }

  valueOf() {
    return this.#ms;
  }
}

export function duration(value) {
  return Duration.from(value);
}
