// ISO 8601 durations: PnYnMnWnDTnHnMnS.
import { DurationParseError, assertFinite } from './errors.js';
import { breakdown, unitMs } from './units.js';

const NUM = '(\\d+(?:[.,]\\d+)?)';
const ISO_PATTERN = new RegExp(
  `^([+-])?P(?:${NUM}Y)?(?:${NUM}M)?(?:${NUM}W)?(?:${NUM}D)?(?:T(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`,
  'i',
);
const FIELDS = [
  ['y', 2],
  ['mo', 3],
  ['w', 4],
  ['d', 5],
  ['h', 6],
  ['m', 7],
  ['s', 8],
];

export function isISODuration(text) {
  try {
    parseISO(text);
    return true;
  } catch (err) {
    if (err instanceof DurationParseError || err instanceof TypeError) {
      return false;
    }
    throw err;
  }
}

export function parseISO(text) {
  if (typeof text !== 'string') {
    throw new TypeError('ISO duration must be a string');
  }
  const source = text.trim();
  const match = ISO_PATTERN.exec(source);
  if (match === null) {
    throw new DurationParseError('Invalid ISO 8601 duration', text);
  }
  if (/T$/i.test(source)) {
    throw new DurationParseError('Missing time components after "T"', text, source.length - 1);
  }
  let total = 0;
  let seen = 0;
  let fractional = false;
  for (const [unit, group] of FIELDS) {
    const raw = match[group];
    if (raw === undefined) {
      continue;
    }
    if (fractional) {
      throw new DurationParseError('Only the smallest component may have a fraction', text);
    }
    const value = Number(raw.replace(',', '.'));
    fractional = !Number.isInteger(value);
    total += value * unitMs(unit);
    seen += 1;
  }
  if (seen < 1) {
    throw new DurationParseError('ISO duration has no components', text);
  }
  return match[1] === '-' ? -total : total;
}

function formatSeconds(seconds, millis) {
  if (millis === 0) {
    return String(seconds);
  }
  const fraction = String(millis).padStart(3, '0').replace(/0+$/, '');
  return `${seconds}.${fraction}`;
}

// Formats milliseconds as an ISO duration using days and time fields only
// (months and years have no fixed length).
export function formatISO(ms, options = {}) {
  assertFinite(ms);
  const { sign, parts } = breakdown(Math.round(ms), ['d', 'h', 'm', 's', 'ms']);
  const [days, hours, minutes, seconds, millis] = parts.map((part) => part.value);
  const timeTotal = hours + minutes + seconds + millis;
  if (days === 0 && timeTotal === 0) {
    return 'PT0S';
  }
  let out = sign < 0 ? '-P' : 'P';
  if (days > 0) {
    if (options.weeks && days % 7 === 0 && timeTotal === 0) {
      return `${out}${days / 7}W`;
    }
    out += `${days}D`;
  }
  let time = '';
  if (hours > 0) {
    time += `${hours}H`;
  }
  if (minutes > 0) {
    time += `${minutes}M`;
  }
  if (seconds > 0 || millis > 0) {
    time += `${formatSeconds(seconds, millis)}S`;
  }
  if (time !== '') {
    out += `T${time}`;
  }
  return out;
}
