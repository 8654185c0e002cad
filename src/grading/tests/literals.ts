// Literal values in test sources: reading a JavaScript string literal (a
// test's name) and the series of values a test and its honeypot twins
// expect: the literal among specific others of its kind (numbers evenly
// spaced around it, strings one same character apart, a boolean and its
// negation), arranged so that nothing but the value says which is real.

const JS_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };

/** The value of a JavaScript string or template literal's source; null when it has substitutions. */
export function decodeJsString(src: string): string | null {
  const quote = src[0];
  if (!quote || !`'"\``.includes(quote) || src.at(-1) !== quote || src.length < 2) return null;
  const body = src.slice(1, -1);
  if (quote === '`' && body.includes('${')) return null;
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r?\n|.)/g, (_, e: string) => {
    if (e.startsWith('u{')) return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    if (e.length > 1 && (e[0] === 'u' || e[0] === 'x')) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (e === '\n' || e === '\r\n') return '';
    return JS_ESCAPES[e] ?? e;
  });
}

type Random = () => number;

function pick<T>(items: readonly T[], random: Random): T {
  return items[Math.floor(random() * items.length)]!;
}

/**
 * A literal and the other values of its kind that honeypot twins expect:
 * `values` in the order of the copies, the literal's own place `real` drawn
 * uniformly. The arrangement's shape never depends on which one is real:
 * numbers are evenly spaced around it with the literal at any rank, strings
 * differ from each other in the same one character, so no rank, spacing,
 * length pattern or majority singles the literal out.
 */
export interface Series {
  values: string[];
  real: number;
}

/** Places `real` at a uniformly drawn index among `others` (kept in their drawn order). */
export function placed(real: string, others: string[], random: Random): Series {
  const at = Math.floor(random() * (others.length + 1));
  return { values: [...others.slice(0, at), real, ...others.slice(at)], real: at };
}

const STEPS = [1, 2, 3, 5, 10];

/** Evenly spaced integers (scaled by 10^decimals) with `n` at a uniformly drawn rank. */
function spaced(n: bigint, step: bigint, count: number, random: Random): { values: bigint[]; real: number } {
  const real = Math.floor(random() * count);
  return { values: Array.from({ length: count }, (_, k) => n + BigInt(k - real) * step), real };
}

/**
 * `count` numbers in the literal's own notation (integers, BigInt literals,
 * decimals with the same number of places; a leading minus for negatives),
 * the literal at a uniform rank, spaced by a few units (decimals by at least 1
 * and by their own size, so an approximate comparison cannot take one for
 * another). Null for notations left alone (hex, exponents, separators).
 */
export function numberSeries(text: string, count: number, random: Random): Series | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?(n?)$/.exec(text);
  if (!m) return null;
  const [, sign, whole, frac, big] = m;
  if (big && frac !== undefined) return null;
  const places = frac?.length ?? 0;
  const scale = 10n ** BigInt(places);
  const n = BigInt(`${sign}${whole}${frac ?? ''}`);
  if (!big && places === 0 && !Number.isSafeInteger(Number(n))) return null;
  const abs = n < 0n ? -n : n;
  const step = places === 0 ? BigInt(pick(STEPS, random)) : (abs > scale ? abs : scale) * BigInt(pick([1, 2, 3], random));
  const { values, real } = spaced(n, step, count, random);
  const show = (v: bigint) => {
    const neg = v < 0n;
    const digits = (neg ? -v : v).toString().padStart(places + 1, '0');
    const body = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
    return `${neg ? '-' : ''}${body}${big}`;
  };
  return { values: values.map(show), real };
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';

/**
 * `count` versions of a string literal (quotes and prefix kept) that differ
 * only in one letter or digit, replaced by others of its kind. Null for
 * literals holding escapes or interpolation, and for those with no letter or
 * digit (an empty string has no same-length other).
 */
export function stringSeries(src: string, count: number, random: Random): Series | null {
  const m = /^([A-Za-z]*)('''|"""|'|"|`)([\s\S]*)\2$/.exec(src);
  if (!m) return null;
  const [, prefix, quote, body] = m;
  if (/[fF]/.test(prefix) || body.includes('\\') || (quote === '`' && body.includes('${'))) return null;
  const chars = [...body];
  const spots = chars.map((c, i) => ({ c, i })).filter(({ c }) => LOWER.includes(c) || UPPER.includes(c) || DIGITS.includes(c));
  if (spots.length === 0) return null;
  const { c, i } = pick(spots, random);
  const pool = [...charClass(c)].filter((x) => x !== c);
  if (pool.length < count - 1) return null;
  const others: string[] = [];
  for (const x of pool
    .map((x) => ({ x, k: random() }))
    .sort((a, b) => a.k - b.k)
    .slice(0, count - 1)) {
    const next = [...chars];
    next[i] = x.x;
    others.push(`${prefix}${quote}${next.join('')}${quote}`);
  }
  return placed(src, others, random);
}

/** Two values: the literal and its one other (a boolean's negation, an assertion's opposite sense). */
export function pairSeries(text: string, other: string, count: number, random: Random): Series | null {
  return count === 2 ? placed(text, [other], random) : null;
}

/** The letters or digits of `c`'s own kind (lower case, upper case, digits). */
export function charClass(c: string): string {
  return DIGITS.includes(c) ? DIGITS : LOWER.includes(c) ? LOWER : UPPER;
}

/** `chars` with the one at `i` replaced by another of its kind. */
export function withOtherChar(chars: readonly string[], i: number, random: Random): string {
  const out = [...chars];
  out[i] = pick(
    [...charClass(out[i]!)].filter((x) => x !== out[i]),
    random,
  );
  return out.join('');
}
