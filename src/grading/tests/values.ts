// The values twins expect, drawn to look like the file's own. A test's real
// expected value is one of the project's values: it often reappears
// elsewhere in the file, and it has the file's usual size, sign and shape.
// A twin's value is therefore, as often as the file's expected values
// reappear in it (`reuse`), another value of the same notation taken from the
// file, and otherwise a value near one of them that the file never holds.
// Code that guesses the real one by whether a value appears elsewhere, by its
// size, sign, roundness or length, then guesses at chance (the distinguisher,
// verifier/distinguish.ts, measures it).
import { numberSeries, placed, stringSeries, type Series } from './literals.js';

type Random = () => number;

export interface ValueContext {
  /** The test files as a forger sees them, without the test itself. */
  text: string;
  /** The values the project's tests expect (each once per place it is expected). */
  expected: readonly string[];
  /** The share of those that reappear elsewhere in the test files. */
  reuse: number;
}

const pick = <T>(xs: readonly T[], r: Random): T => xs[Math.floor(r() * xs.length)]!;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Literals of the value's own notation (integer, decimal with as many places, BigInt, string in the same quotes), or null for others. */
function notation(value: string): RegExp | null {
  if (/^-?\d+$/.test(value)) return /(?<![\w.$])-?\d+(?![\w.])/g;
  if (/^-?\d+n$/.test(value)) return /(?<![\w.$])-?\d+n(?![\w.])/g;
  const dec = /^-?\d+\.(\d+)$/.exec(value);
  if (dec) return new RegExp(`(?<![\\w.$])-?\\d+\\.\\d{${dec[1]!.length}}(?![\\w.])`, 'g');
  const str = /^([A-Za-z]*)('|"|`)([^\\\n]*)\2$/.exec(value);
  if (str && !/[fF]/.test(str[1]!)) return new RegExp(`(?<![\\w])${escape(str[1]! + str[2]!)}[^${escape(str[2]!)}\\\\\\n]*${escape(str[2]!)}`, 'g');
  return null;
}

/** A value near `base` in its notation: a number moved by a few units (a non-negative one stays so), a string with one letter or digit replaced. */
function nearby(base: string, r: Random): string | null {
  const n = /^(-?\d+)(?:\.(\d+))?(n?)$/.exec(base);
  if (n) {
    const places = n[2]?.length ?? 0;
    const scaled = BigInt(`${n[1]}${n[2] ?? ''}`);
    const moved = scaled + BigInt(pick([1, -1, 2, -2, 3, -3], r)) * 10n ** BigInt(places);
    if (scaled >= 0n && moved < 0n) return null;
    const neg = moved < 0n;
    const digits = (neg ? -moved : moved).toString().padStart(places + 1, '0');
    return `${neg ? '-' : ''}${places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits}${n[3]}`;
  }
  const s = /^([A-Za-z]*)('|"|`)([\s\S]*)\2$/.exec(base);
  if (!s) return null;
  const chars = [...s[3]!];
  const spots = chars.flatMap((c, i) => (/[a-zA-Z0-9]/.test(c) ? [i] : []));
  if (!spots.length) return null;
  const i = pick(spots, r);
  const c = chars[i]!;
  const pool = /\d/.test(c) ? '0123456789' : /[a-z]/.test(c) ? 'abcdefghijklmnopqrstuvwxyz' : 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  chars[i] = pick(
    [...pool].filter((x) => x !== c),
    r,
  );
  return `${s[1]}${s[2]}${chars.join('')}${s[2]}`;
}

/** Decimals an approximate comparison could take for the real one are no twins. */
function farEnough(value: string, real: string): boolean {
  const a = Number(value.replace(/n$/, ''));
  const b = Number(real.replace(/n$/, ''));
  return !real.includes('.') || Math.abs(a - b) >= 1e-3 * Math.max(1, Math.abs(b));
}

/**
 * `count` values for a literal and its twins, like the file's own (see the
 * top of this file); the series of literals.ts where the file holds no other
 * value of the notation.
 */
export function twinValues(real: string, count: number, random: Random, ctx: ValueContext): Series | null {
  const fallback = () => (/^-?\d/.test(real) ? numberSeries(real, count, random) : stringSeries(real, count, random));
  const re = notation(real);
  if (!re) return fallback();
  // Drawn with their multiplicity: a value the project expects often is as likely a twin's as a real test's.
  const seen = ctx.expected.filter((v) => v !== real && new RegExp(`^(?:${re.source})$`).test(v));
  if (seen.length === 0) return fallback();
  const used = new Set([real]);
  const others: string[] = [];
  for (let slot = 1; slot < count; slot++) {
    let value: string | null = null;
    const fromFile = seen.filter((v) => !used.has(v) && farEnough(v, real));
    if (fromFile.length && random() < ctx.reuse) value = pick(fromFile, random);
    for (let tries = 0; value === null && tries < 40; tries++) {
      const v = nearby(pick(seen, random), random);
      if (v !== null && !used.has(v) && !ctx.text.includes(v) && farEnough(v, real)) value = v;
    }
    // Short numbers are inside most files' text: where no fresh one exists, one of the file's stands in.
    if (value === null && fromFile.length) value = pick(fromFile, random);
    if (value === null) return fallback();
    used.add(value);
    others.push(value);
  }
  return placed(real, others, random);
}
