// Escaping helpers shared by the tokenizer and the renderer.

const HTML_ESCAPES = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

const NAMED_ENTITIES = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '\u00a9',
};

const ASCII_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

// Characters that may appear unencoded in a URL written into an attribute.
const URL_SAFE = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/;

const UNSAFE_PROTOCOLS = ['javascript:', 'vbscript:', 'file:', 'data:'];
const SAFE_DATA_IMAGES = ['data:image/png', 'data:image/gif', 'data:image/jpeg', 'data:image/webp'];

/** Escapes text for use in HTML element content. */
export function escapeHtml(text) {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const rep = HTML_ESCAPES[text[i]];
    if (rep === undefined) continue;
    out += text.slice(last, i) + rep;
    last = i + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Escapes text for use inside a double-quoted attribute value. */
export function escapeAttr(text) {
  return escapeHtml(text).replace(/'/g, '&#39;');
}

export function isAsciiPunctuation(ch) {
  return ch.length === 1 && ASCII_PUNCTUATION.includes(ch);
}

/** True for Unicode punctuation and symbols, as used by emphasis flanking rules. */
export function isPunctuation(ch) {
  if (isAsciiPunctuation(ch)) return true;
  return /^[\p{P}\p{S}]$/u.test(ch);
}

export function isWhitespace(ch) {
  return ch === undefined || ch === '' || /\s/.test(ch);
}

/** Decodes a single entity body (without '&' and ';'), or returns null. */
export function decodeEntity(body) {
  if (body.startsWith('#x') || body.startsWith('#X')) {
    const hex = body.slice(2);
    if (!/^[0-9a-fA-F]{1,6}$/.test(hex)) return null;
    return codePointOrReplacement(parseInt(hex, 16));
  }
  if (body.startsWith('#')) {
    const dec = body.slice(1);
    if (!/^[0-9]{1,7}$/.test(dec)) return null;
    return codePointOrReplacement(parseInt(dec, 10));
  }
  return Object.prototype.hasOwnProperty.call(NAMED_ENTITIES, body) ? NAMED_ENTITIES[body] : null;
}

function codePointOrReplacement(cp) {
  if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
    return '\ufffd';
  }
  return String.fromCodePoint(cp);
}

/** Replaces the entities that decodeEntity knows; unknown ones are left as written. */
export function decodeEntities(text) {
  return text.replace(/&(#[xX]?[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, body) => {
    const decoded = decodeEntity(body);
    return decoded === null ? whole : decoded;
  });
}

/** Removes backslash escapes in front of ASCII punctuation. */
export function unescapeMarkdown(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length && isAsciiPunctuation(text[i + 1])) {
      out += text[i + 1];
      i += 1;
    } else {
      out += ch;
    }
  }
  return out;
}

/** Percent-encodes characters that are not allowed raw in a URL. */
export function encodeUrl(url) {
  let out = '';
  const chars = Array.from(url);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === '%') {
      const hex = chars.slice(i + 1, i + 3).join('');
      out += /^[0-9a-fA-F]{2}$/.test(hex) ? ch : '%25';
    } else if (URL_SAFE.test(ch)) {
      out += ch;
    } else {
      for (const byte of new TextEncoder().encode(ch)) {
        out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
      }
    }
  }
  return out;
}

/** Rejects script-bearing protocols; data: URLs are allowed for common image types only. */
export function isSafeUrl(url, allowDataImages = false) {
  const lower = url.trim().toLowerCase();
  for (const proto of UNSAFE_PROTOCOLS) {
    if (!lower.startsWith(proto)) continue;
    if (allowDataImages && proto === 'data:') {
      return SAFE_DATA_IMAGES.some((prefix) => lower.startsWith(prefix));
    }
    return false;
  }
  return true;
}
