// The values twins expect, drawn to look like the project's own. A test's
// real expected value is one of the project's: a forger can count how often
// it appears in the test files it sees, and read its size, sign, roundness
// and length. A twin's value is drawn so that what a forger reads of it
// follows the real values' distribution: a place where the project expects
// a value is drawn (as a real test's changed place is drawn), and the twin
// takes a value of the same notation that the test files hold about as often
// as that place's value appears elsewhere in them (one bin of a log scale),
// or, where that is never, a value near it the files never hold. The
// distinguisher (verifier/distinguish.ts) measures what is left.
import { numberSeries, placed, stringSeries, withOtherChar, type Series } from './literals.js';

type Random = () => number;

export interface ValueContext {
  /** The test files as a forger sees them, without the test itself. */
  text: string;
  /** Each place the project's tests expect a value: the value, how often it appears elsewhere in the test files, and the chance that a test's drawn place is this one (1 / the test's places). */
  expected: readonly ExpectedValue[];
}

export interface ExpectedValue {
  value: string;
  elsewhere: number;
  weight: number;
}

/** A log scale of how often a value appears: 0, 1, 2-3, 4-7, ... */
const bin = (n: number) => (n <= 0 ? 0 : 1 + Math.floor(Math.log2(n)));

const occurrences = (text: string, v: string) => text.split(v).length - 1;

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
  return `${s[1]}${s[2]}${withOtherChar(chars, pick(spots, r), r)}${s[2]}`;
}

/** Decimals an approximate comparison could take for the real one are no twins. */
function farEnough(value: string, real: string): boolean {
  const a = Number(value.replace(/n$/, ''));
  const b = Number(real.replace(/n$/, ''));
  return !real.includes('.') || Math.abs(a - b) >= 1e-3 * Math.max(1, Math.abs(b));
}

/** One of the values, in proportion to its weight; null when there is none. */
function weighted(values: [string, { weight: number }][], r: Random): string | null {
  let at = r() * values.reduce((sum, [, x]) => sum + x.weight, 0);
  for (const [v, x] of values) if ((at -= x.weight) <= 0) return v;
  return values.at(-1)?.[0] ?? null;
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
  const same = new RegExp(`^(?:${re.source})$`);
  // The real value's own places stay in the draw of how often a twin's value shows: left out, a common real value would leave its twins rarer.
  const places = ctx.expected.filter((e) => same.test(e.value));
  if (!places.some((e) => e.value !== real)) return fallback();
  // Each value by how often the files show it (its bin) and how likely a real test's place holds it (its weight).
  const seen = new Map<string, { bin: number; weight: number }>();
  for (const e of places) {
    if (e.value === real) continue;
    const v = seen.get(e.value) ?? { bin: bin(occurrences(ctx.text, e.value)), weight: 0 };
    v.weight += e.weight;
    seen.set(e.value, v);
  }
  const total = places.reduce((sum, e) => sum + e.weight, 0);
  const used = new Set([real]);
  const others: string[] = [];
  for (let slot = 1; slot < count; slot++) {
    let value: string | null = null;
    // A place drawn as a real test's would be; the twin's value shows in the files as often as that place's value shows elsewhere.
    let at = random() * total;
    const place = places.find((e) => (at -= e.weight) <= 0) ?? places.at(-1)!;
    const want = bin(place.elsewhere);
    for (let tries = 0; want === 0 && value === null && tries < 40; tries++) {
      const v = nearby(place.value, random);
      if (v !== null && !used.has(v) && !ctx.text.includes(v) && farEnough(v, real)) value = v;
    }
    if (value === null) {
      // The values of the nearest bin that has any (short numbers are inside most files' text, so "never" often has none).
      const free = [...seen].filter(([v]) => !used.has(v) && farEnough(v, real));
      if (!free.length) return fallback();
      const nearest = Math.min(...free.map(([, x]) => Math.abs(x.bin - want)));
      value = weighted(
        free.filter(([, x]) => Math.abs(x.bin - want) === nearest),
        random,
      );
    }
    if (value === null) return fallback();
    used.add(value);
    others.push(value);
  }
  return placed(real, others, random);
}
