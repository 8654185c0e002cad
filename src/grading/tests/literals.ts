// Literal values in test sources: reading a JavaScript string literal (a
// test's name) and turning a literal into a different, specific value of the
// same kind (a honeypot's expectation). Changes stay small and look like the
// project's own values: a number moved by a few units, one letter of a string
// replaced by another letter, a boolean flipped.

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

const STEPS = [1, -1, 2, -2, 3, 5, 10];

/**
 * A different number in the same notation: integers move by a few units,
 * decimals by at least 1 and by their own size (so an approximate comparison
 * cannot take one for the other). Null for notations left alone (hex,
 * exponents, separators).
 */
export function otherNumber(text: string, random: Random): string | null {
  if (/^\d+n$/.test(text))
    return `${
      BigInt(text.slice(0, -1)) +
      BigInt(
        pick(
          STEPS.filter((s) => s > 0),
          random,
        ),
      )
    }n`;
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (!Number.isSafeInteger(n)) return null;
    const steps = STEPS.filter((s) => n + s >= 0);
    return String(n + pick(steps, random));
  }
  if (/^(\d+\.\d*|\.\d+)$/.test(text)) {
    const f = Number(text);
    const moved = f + Math.max(1, Math.abs(f)) * pick([1, 2, 3], random);
    const out = String(moved);
    return out.includes('.') || out.includes('e') ? out : `${out}.0`;
  }
  return null;
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';

/**
 * The same string literal (quotes and prefix kept) with one letter or digit
 * replaced by another of its kind, or one letter added to an empty string.
 * Null for literals holding escapes or interpolation, which are left alone.
 */
export function otherString(src: string, random: Random): string | null {
  const m = /^([A-Za-z]*)('''|"""|'|"|`)([\s\S]*)\2$/.exec(src);
  if (!m) return null;
  const [, prefix, quote, body] = m;
  if (/[fF]/.test(prefix) || body.includes('\\') || (quote === '`' && body.includes('${'))) return null;
  if (body === '') return `${prefix}${quote}${pick([...LOWER], random)}${quote}`;
  const spots = [...body].map((c, i) => ({ c, i })).filter(({ c }) => LOWER.includes(c) || UPPER.includes(c) || DIGITS.includes(c));
  if (spots.length === 0) return `${prefix}${quote}${body}${pick([...LOWER], random)}${quote}`;
  const { c, i } = pick(spots, random);
  const pool = LOWER.includes(c) ? LOWER : UPPER.includes(c) ? UPPER : DIGITS;
  const next = pick(
    [...pool].filter((x) => x !== c),
    random,
  );
  const chars = [...body];
  chars[i] = next;
  return `${prefix}${quote}${chars.join('')}${quote}`;
}
