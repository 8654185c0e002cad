// Inline tokenizer: turns the text of a paragraph or heading into inline tokens.
//
// Token shapes:
//   { type: 'text', value }          { type: 'code', value }
//   { type: 'em', children }         { type: 'strong', children }
//   { type: 'link', href, title, autolink, children }
//   { type: 'image', src, title, alt }
//   { type: 'softbreak' }            { type: 'hardbreak' }

import {
  decodeEntities,
  decodeEntity,
  isAsciiPunctuation,
  isPunctuation,
  isWhitespace,
  unescapeMarkdown,
} from './escape.js';

const URI_AUTOLINK = /^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/;
const EMAIL_AUTOLINK =
  /^<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/;
const ENTITY = /^&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/;

function runLength(src, start, ch) {
  let end = start;
  while (end < src.length && src[end] === ch) end++;
  return end - start;
}

/** Finds the code span opening at start; returns { value, end } or null. */
export function scanCodeSpan(src, start) {
  const open = runLength(src, start, '`');
  let k = start + open;
  while (k < src.length) {
    if (src[k] !== '`') {
      k++;
      continue;
    }
    const run = runLength(src, k, '`');
    if (run === open) {
      let value = src.slice(start + open, k).replace(/\n/g, ' ');
      const padded = value.startsWith(' ') && value.endsWith(' ');
      if (padded && value.trim() !== '') value = value.slice(1, -1);
      return { value, end: k + run };
    }
    k += run;
  }
  return null;
}

function scanAutolink(src, start) {
  const rest = src.slice(start);
  let m = URI_AUTOLINK.exec(rest);
  if (m) {
    const token = { type: 'link', href: m[1], title: '', autolink: true, children: [{ type: 'text', value: m[1] }] };
    return { token, end: start + m[0].length };
  }
  m = EMAIL_AUTOLINK.exec(rest);
  if (m) {
    const token = {
      type: 'link',
      href: 'mailto:' + m[1],
      title: '',
      autolink: true,
      children: [{ type: 'text', value: m[1] }],
    };
    return { token, end: start + m[0].length };
  }
  return null;
}

/** Index of the ']' that closes the '[' at start, or -1. */
function findLabelEnd(src, start) {
  let depth = 0;
  for (let i = start; i < src.length; i++) {
    const ch = src[i];
    if (ch === '\\') {
      i += 1;
    } else if (ch === '`') {
      const span = scanCodeSpan(src, i);
      i = span ? span.end - 1 : i + runLength(src, i, '`') - 1;
    } else if (ch === '[') {
      depth += 1;
    } else if (ch === ']') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function skipSpace(src, i) {
  let newlines = 0;
  while (i < src.length && (src[i] === ' ' || src[i] === '\t' || src[i] === '\n')) {
    if (src[i] === '\n') newlines += 1;
    if (newlines > 1) break;
    i++;
  }
  return i;
}

/** Parses '(destination "title")' starting at the '('; returns { dest, title, end } or null. */
export function parseLinkTarget(src, start) {
  if (src[start] !== '(') return null;
  let i = skipSpace(src, start + 1);
  let dest;
  if (src[i] === '<') {
    const close = src.indexOf('>', i);
    if (close < 0) return null;
    dest = src.slice(i + 1, close);
    if (dest.includes('\n') || dest.includes('<')) return null;
    i = close + 1;
  } else {
    const begin = i;
    let depth = 0;
    while (i < src.length) {
      const ch = src[i];
      if (ch === '\\' && isAsciiPunctuation(src[i + 1] ?? '')) {
        i += 2;
        continue;
      }
      if (ch === '(') {
        depth += 1;
      } else if (ch === ')') {
        if (depth === 0) break;
        depth -= 1;
      } else if (ch === ' ' || ch === '\t' || ch === '\n') {
        break;
      }
      i++;
    }
    if (depth !== 0) return null;
    dest = src.slice(begin, i);
  }
  const afterDest = i;
  i = skipSpace(src, i);
  let title = '';
  const q = src[i];
  if (i > afterDest && (q === '"' || q === "'" || q === '(')) {
    const closer = q === '(' ? ')' : q;
    let j = i + 1;
    while (j < src.length && src[j] !== closer) {
      j += src[j] === '\\' ? 2 : 1;
    }
    if (j >= src.length) return null;
    title = src.slice(i + 1, j);
    i = skipSpace(src, j + 1);
  }
  if (src[i] !== ')') return null;
  return {
    dest: unescapeMarkdown(decodeEntities(dest)),
    title: unescapeMarkdown(decodeEntities(title)),
    end: i + 1,
  };
}

function scanLink(src, start) {
  const close = findLabelEnd(src, start);
  if (close < 0 || src[close + 1] !== '(') return null;
  const target = parseLinkTarget(src, close + 1);
  if (target === null) return null;
  return { label: src.slice(start + 1, close), dest: target.dest, title: target.title, end: target.end };
}

/** Builds an emphasis delimiter token for the run src[start..end). */
export function makeDelimiter(src, start, end) {
  const char = src[start];
  const before = start > 0 ? src[start - 1] : '';
  const after = end < src.length ? src[end] : '';
  const beforeSpace = isWhitespace(before);
  const afterSpace = isWhitespace(after);
  const beforePunct = isPunctuation(before);
  const afterPunct = isPunctuation(after);
  const leftFlanking = !afterSpace && (!afterPunct || beforeSpace || beforePunct);
  const rightFlanking = !beforeSpace && (!beforePunct || afterSpace || afterPunct);
  const length = end - start;
  if (char === '*') {
    return { type: 'delim', char, length, count: length, canOpen: leftFlanking, canClose: rightFlanking };
  }
  return {
    type: 'delim',
    char,
    length,
    count: length,
    canOpen: leftFlanking && (!rightFlanking || beforePunct),
    canClose: rightFlanking && (!leftFlanking || afterPunct),
  };
}

function findOpener(tokens, closerIndex) {
  const closer = tokens[closerIndex];
  for (let j = closerIndex - 1; j >= 0; j--) {
    const t = tokens[j];
    if (t.type !== 'delim' || t.char !== closer.char || !t.canOpen) continue;
    const eitherBoth = t.canClose || closer.canOpen;
    const sum = t.length + closer.length;
    if (eitherBoth && sum % 3 === 0 && (t.length % 3 !== 0 || closer.length % 3 !== 0)) continue;
    return j;
  }
  return -1;
}

function delimToText(token) {
  return token.type === 'delim' ? { type: 'text', value: token.char.repeat(token.count) } : token;
}

function mergeText(tokens) {
  const out = [];
  for (const token of tokens) {
    const last = out[out.length - 1];
    if (token.type === 'text' && last !== undefined && last.type === 'text') {
      out[out.length - 1] = { type: 'text', value: last.value + token.value };
    } else {
      out.push(token);
    }
  }
  return out;
}

/** Matches emphasis delimiters in place, turning them into em/strong nodes. */
function processEmphasis(tokens) {
  let c = 0;
  while (c < tokens.length) {
    const closer = tokens[c];
    if (closer.type !== 'delim' || !closer.canClose) {
      c++;
      continue;
    }
    const o = findOpener(tokens, c);
    if (o < 0) {
      c++;
      continue;
    }
    const opener = tokens[o];
    const use = opener.count >= 2 && closer.count >= 2 ? 2 : 1;
    opener.count -= use;
    closer.count -= use;
    const inner = mergeText(tokens.slice(o + 1, c).map(delimToText));
    tokens.splice(o + 1, c - o - 1, { type: use === 2 ? 'strong' : 'em', children: inner });
    c = o + 2;
    if (opener.count === 0) {
      tokens.splice(o, 1);
      c -= 1;
    }
    if (closer.count === 0) tokens.splice(c, 1);
  }
  return mergeText(tokens.map(delimToText));
}

export function tokenizeInline(src, inLink = false) {
  const tokens = [];
  let text = '';
  const flush = () => {
    if (text !== '') tokens.push({ type: 'text', value: text });
    text = '';
  };
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (ch === '\\') {
      const next = src[i + 1];
      if (next === '\n') {
        flush();
        tokens.push({ type: 'hardbreak' });
        i += 2;
      } else if (next !== undefined && isAsciiPunctuation(next)) {
        text += next;
        i += 2;
      } else {
        text += ch;
        i += 1;
      }
      continue;
    }
    if (ch === '`') {
      const span = scanCodeSpan(src, i);
      if (span !== null) {
        flush();
        tokens.push({ type: 'code', value: span.value });
        i = span.end;
      } else {
        const run = runLength(src, i, '`');
        text += src.slice(i, i + run);
        i += run;
      }
      continue;
    }
    if (ch === '&') {
      const m = ENTITY.exec(src.slice(i));
      const decoded = m ? decodeEntity(m[1]) : null;
      text += decoded === null ? ch : decoded;
      i += decoded === null ? 1 : m[0].length;
      continue;
    }
    if (ch === '<') {
      const auto = inLink ? null : scanAutolink(src, i);
      if (auto !== null) {
        flush();
        tokens.push(auto.token);
        i = auto.end;
        continue;
      }
    }
    const isImage = ch === '!' && src[i + 1] === '[';
    if (isImage || (ch === '[' && !inLink)) {
      const link = scanLink(src, isImage ? i + 1 : i);
      if (link !== null) {
        flush();
        if (isImage) {
          const alt = plainText(tokenizeInline(link.label, inLink));
          tokens.push({ type: 'image', src: link.dest, title: link.title, alt });
        } else {
          tokens.push({ type: 'link', href: link.dest, title: link.title, autolink: false, children: tokenizeInline(link.label, true) });
        }
        i = link.end;
        continue;
      }
    }
    if (ch === '*' || ch === '_') {
      const run = runLength(src, i, ch);
      flush();
      tokens.push(makeDelimiter(src, i, i + run));
      i += run;
      continue;
    }
    if (ch === '\n') {
      const hard = text.endsWith('  ');
      text = text.replace(/ +$/, '');
      flush();
      tokens.push({ type: hard ? 'hardbreak' : 'softbreak' });
      i += 1 + runLength(src, i + 1, ' ');
      continue;
    }
    text += ch;
    i++;
  }
  flush();
  return processEmphasis(tokens);
}

/** Text content of inline tokens, as used for image alt text and heading ids. */
export function plainText(tokens) {
  let out = '';
  for (const t of tokens) {
    if (t.type === 'text' || t.type === 'code') {
      out += t.value;
    } else if (t.type === 'image') {
      out += t.alt;
    } else if (t.type === 'softbreak' || t.type === 'hardbreak') {
      out += '\n';
    } else if (t.children !== undefined) {
      out += plainText(t.children);
    }
  }
  return out;
}
