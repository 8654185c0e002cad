// Parsing of human-written durations: "1h 30m", "1.5 days", "01:30:00", ISO.
import { DurationParseError, assertFinite } from './errors.js';
import { parseISO } from './iso.js';
import { findUnit, unitMs, HOUR, MINUTE, SECOND } from './units.js';

const NUMBER = /^(?:\d+(?:\.\d+)?|\.\d+)/;
const WORD = /^[a-zµ]+/i;
const BARE = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)$/;
const CLOCK = /^(\d+):(\d{1,2})(?::(\d{1,2}))?(?:\.(\d{1,3}))?$/;

function isSpace(ch) {
  return ch === ' ' || ch === '\t' || ch === '\n';
}

// Parses "hh:mm:ss(.fff)", or a two-part clock read as "h:mm" (default)
// or as "m:ss" when options.twoPart is 'ms'.
export function parseClock(text, options = {}) {
  let body = text.trim();
  let sign = 1;
  if (body.startsWith('-')) {
    sign = -1;
    body = body.slice(1);
  }
  const match = CLOCK.exec(body);
  if (match === null) {
    throw new DurationParseError('Invalid clock duration', text);
  }
  const hasSeconds = match[3] !== undefined;
  const minutesFirst = !hasSeconds && options.twoPart === 'ms';
  let hours = 0;
  let minutes;
  let seconds = 0;
  if (hasSeconds) {
    hours = Number(match[1]);
    minutes = Number(match[2]);
    seconds = Number(match[3]);
  } else if (minutesFirst) {
    minutes = Number(match[1]);
    seconds = Number(match[2]);
  } else {
    hours = Number(match[1]);
    minutes = Number(match[2]);
  }
  if (!minutesFirst && minutes >= 60) {
    throw new DurationParseError('Minutes must be below 60', text);
  }
  if (seconds >= 60) {
    throw new DurationParseError('Seconds must be below 60', text);
  }
  let fraction = 0;
  if (match[4] !== undefined) {
    if (!hasSeconds && !minutesFirst) {
      throw new DurationParseError('Fraction requires a seconds field', text);
    }
    fraction = Number(match[4].padEnd(3, '0'));
  }
  return sign * (hours * HOUR + minutes * MINUTE + seconds * SECOND + fraction);
}

// Parses a list of "<number> <unit>" terms separated by spaces, commas or "and".
// With options.strict, units must appear from largest to smallest, once each.
function parseTerms(text, options) {
  let pos = 0;
  let total = 0;
  let terms = 0;
  let sign = 1;
  let lastSize = Infinity;
  const skipSpace = () => {
    while (pos < text.length && isSpace(text[pos])) {
      pos += 1;
    }
  };
  skipSpace();
  if (text[pos] === '-' || text[pos] === '+') {
    sign = text[pos] === '-' ? -1 : 1;
    pos += 1;
  }
  for (;;) {
    skipSpace();
    if (pos >= text.length) {
      break;
    }
    if (terms > 0) {
      if (text[pos] === ',') {
        pos += 1;
        skipSpace();
      }
      if (/^and\b/i.test(text.slice(pos))) {
        pos += 3;
        skipSpace();
      }
    }
    let value;
    const article = /^an?\s+/i.exec(text.slice(pos));
    const numberMatch = NUMBER.exec(text.slice(pos));
    if (numberMatch !== null) {
      value = Number(numberMatch[0]);
      pos += numberMatch[0].length;
    } else if (article !== null) {
      value = 1;
      pos += article[0].length;
    } else {
      throw new DurationParseError('Expected a number', text, pos);
    }
    skipSpace();
    const word = WORD.exec(text.slice(pos));
    if (word === null) {
      throw new DurationParseError('Missing unit', text, pos);
    }
    const unit = findUnit(word[0]);
    if (unit === null) {
      throw new DurationParseError(`Unknown unit "${word[0]}"`, text, pos);
    }
    if (options.strict && unit.ms >= lastSize) {
      throw new DurationParseError(`Unit "${word[0]}" is out of order`, text, pos);
    }
    lastSize = unit.ms;
    pos += word[0].length;
    total += value * unit.ms;
    terms += 1;
  }
  if (terms === 0) {
    throw new DurationParseError('No duration terms found', text, pos);
  }
  return sign * total;
}

// Parses any supported duration notation and returns milliseconds.
// Bare numbers are read in options.defaultUnit (milliseconds by default).
export function parse(input, options = {}) {
  const defaultUnit = options.defaultUnit ?? 'ms';
  if (typeof input === 'number') {
    assertFinite(input);
    return input * unitMs(defaultUnit);
  }
  if (typeof input !== 'string') {
    throw new TypeError(`Cannot parse a duration from ${typeof input}`);
  }
  const text = input.trim();
  if (text === '') {
    throw new DurationParseError('Empty duration', input, 0);
  }
  if (/^[+-]?P/i.test(text)) {
    return parseISO(text);
  }
  if (text.includes(':')) {
    return parseClock(text, options);
  }
  if (BARE.test(text)) {
    return Number(text) * unitMs(defaultUnit);
  }
  return parseTerms(text, options);
}

// Like parse, but returns `fallback` (null by default) for unparseable input.
export function tryParse(input, options = {}, fallback = null) {
  try {
    return parse(input, options);
  } catch (err) {
    if (err instanceof DurationParseError || err instanceof TypeError) {
      return fallback;
    }
    throw err;
  }
}
