// Formatting of durations: "1h 30m", "1 hour, 30 minutes", "01:30:00",
// and approximate phrases such as "about 2 hours".
import { assertFinite } from './errors.js';
import { breakdown, sortUnits, unitMs, unitName, SECOND, MINUTE, HOUR, DAY, MONTH, YEAR } from './units.js';

const DEFAULT_UNITS = ['d', 'h', 'm', 's', 'ms'];

function joinPieces(pieces, separator, conjunction) {
  if (conjunction === undefined || pieces.length < 2) {
    return pieces.join(separator);
  }
  const head = pieces.slice(0, -1).join(separator);
  return `${head}${conjunction}${pieces[pieces.length - 1]}`;
}

function firstFitting(abs, units) {
  for (let i = 0; i < units.length; i += 1) {
    if (abs >= unitMs(units[i])) {
      return i;
    }
  }
  return units.length - 1;
}

// Formats milliseconds with the given units. At most `maxUnits` units are
// shown, starting with the largest that fits; the last one shown is rounded.
export function format(ms, options = {}) {
  assertFinite(ms);
  const style = options.style ?? 'short';
  if (style !== 'short' && style !== 'long') {
    throw new RangeError(`Unknown style: ${style}`);
  }
  const units = sortUnits(options.units ?? DEFAULT_UNITS);
  const maxUnits = options.maxUnits ?? units.length;
  if (!Number.isInteger(maxUnits) || maxUnits < 1) {
    throw new RangeError('maxUnits must be a positive integer');
  }
  const separator = options.separator ?? (style === 'long' ? ', ' : ' ');
  const abs = Math.abs(ms);
  let first = firstFitting(abs, units);
  let shown = units.slice(first, first + maxUnits);
  const step = unitMs(shown[shown.length - 1]);
  const rounded = Math.round(abs / step) * step;
  // Rounding may carry into the next larger unit (59.7s -> 1m); the rounded
  // value is then exactly one of that unit.
  if (first > 0 && rounded >= unitMs(units[first - 1])) {
    first -= 1;
    shown = units.slice(first, first + maxUnits);
  }
  const { parts } = breakdown(rounded, shown);
  const pieces = [];
  for (const part of parts) {
    if (part.value === 0) {
      continue;
    }
    const label = style === 'long' ? ` ${unitName(part.unit, part.value)}` : part.unit;
    pieces.push(`${part.value}${label}`);
  }
  if (pieces.length === 0) {
    const smallest = units[units.length - 1];
    pieces.push(style === 'long' ? `0 ${unitName(smallest, 0)}` : `0${smallest}`);
  }
  const text = joinPieces(pieces, separator, options.conjunction);
  return ms < 0 && rounded > 0 ? `-${text}` : text;
}

function pad(value, width) {
  return String(value).padStart(width, '0');
}

// Formats as a clock: "hh:mm:ss", hours may exceed 24.
export function formatClock(ms, options = {}) {
  assertFinite(ms);
  const showMs = options.showMs ?? false;
  const abs = Math.abs(ms);
  const total = showMs ? Math.round(abs) : Math.round(abs / SECOND) * SECOND;
  const hours = Math.floor(total / HOUR);
  const minutes = Math.floor((total % HOUR) / MINUTE);
  const seconds = Math.floor((total % MINUTE) / SECOND);
  const millis = total % SECOND;
  let text =
    options.hideZeroHours && hours === 0
      ? `${pad(minutes, 2)}:${pad(seconds, 2)}`
      : `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}`;
  if (showMs) {
    text += `.${pad(millis, 3)}`;
  }
  return ms < 0 && total > 0 ? `-${text}` : text;
}

const HUMANIZE_STEPS = [
  { below: 45 * SECOND, phrase: () => 'a few seconds' },
  { below: 90 * SECOND, phrase: () => 'a minute' },
  { below: 45 * MINUTE, phrase: (ms) => `${Math.round(ms / MINUTE)} minutes` },
  { below: 90 * MINUTE, phrase: () => 'an hour' },
  { below: 22 * HOUR, phrase: (ms) => `about ${Math.round(ms / HOUR)} hours` },
  { below: 36 * HOUR, phrase: () => 'a day' },
  { below: 26 * DAY, phrase: (ms) => `${Math.round(ms / DAY)} days` },
  { below: 45 * DAY, phrase: () => 'about a month' },
  { below: 320 * DAY, phrase: (ms) => `${Math.round(ms / MONTH)} months` },
  { below: 548 * DAY, phrase: () => 'about a year' },
];

// Approximate phrase for a duration; with options.relative, adds
// "in ..." for positive and "... ago" for negative durations.
export function humanize(ms, options = {}) {
  assertFinite(ms);
  const abs = Math.abs(ms);
  let phrase = null;
  for (const step of HUMANIZE_STEPS) {
    if (abs < step.below) {
      phrase = step.phrase(abs);
      break;
    }
  }
  if (phrase === null) {
    phrase = `${Math.round(abs / YEAR)} years`;
  }
  if (!options.relative) {
    return phrase;
  }
  return ms < 0 ? `${phrase} ago` : `in ${phrase}`;
}

// Phrase for a moment relative to `now` (both in epoch milliseconds).
export function fromNow(timestamp, now) {
  assertFinite(timestamp, 'Timestamp');
  assertFinite(now, 'Now');
  return humanize(timestamp - now, { relative: true });
}
