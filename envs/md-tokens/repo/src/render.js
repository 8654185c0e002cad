// HTML renderer for block and inline tokens.

import { encodeUrl, escapeAttr, escapeHtml, isSafeUrl } from './escape.js';
import { plainText, tokenizeInline } from './inline.js';

export const DEFAULT_OPTIONS = Object.freeze({
  headingIds: false,
  softbreak: '\n',
  safeLinks: true,
  xhtml: false,
  langPrefix: 'language-',
  headingOffset: 0,
});

/** Lowercase, dash-separated identifier for a heading's text. */
export function slugify(text) {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Hands out unique slugs: 'intro', then 'intro-1', 'intro-2', ... */
export class Slugger {
  constructor() {
    this.seen = new Map();
  }

  slug(text) {
    const base = slugify(text) || 'section';
    let n = this.seen.get(base) ?? 0;
    let candidate = n === 0 ? base : `${base}-${n}`;
    while (n > 0 && this.seen.has(candidate)) {
      n += 1;
      candidate = `${base}-${n}`;
    }
    this.seen.set(base, n + 1);
    if (candidate !== base) this.seen.set(candidate, 1);
    return candidate;
  }
}

function urlAttr(url, opts, isImage) {
  if (opts.safeLinks && !isSafeUrl(url, isImage)) return '#';
  return escapeAttr(encodeUrl(url));
}

function titleAttr(title) {
  return title ? ` title="${escapeAttr(title)}"` : '';
}

export function renderInline(tokens, opts = DEFAULT_OPTIONS) {
  let out = '';
  for (const t of tokens) {
    switch (t.type) {
      case 'text':
        out += escapeHtml(t.value);
        break;
      case 'code':
        out += `<code>${escapeHtml(t.value)}</code>`;
        break;
      case 'em':
        out += `<em>${renderInline(t.children, opts)}</em>`;
        break;
      case 'strong':
        out += `<strong>${renderInline(t.children, opts)}</strong>`;
        break;
      case 'softbreak':
        out += opts.softbreak;
        break;
      case 'hardbreak':
        out += opts.xhtml ? '<br />\n' : '<br>\n';
        break;
      case 'link':
        out += `<a href="${urlAttr(t.href, opts, false)}"${titleAttr(t.title)}>${renderInline(t.children, opts)}</a>`;
        break;
      case 'image': {
        const close = opts.xhtml ? ' />' : '>';
        out += `<img src="${urlAttr(t.src, opts, true)}" alt="${escapeAttr(t.alt)}"${titleAttr(t.title)}${close}`;
        break;
      }
      default:
        throw new Error(`unknown inline token: ${t.type}`);
    }
  }
  return out;
}

function renderHeading(block, opts, slugger) {
  const level = Math.min(6, Math.max(1, block.level + opts.headingOffset));
  const inline = tokenizeInline(block.text);
  const id = opts.headingIds ? ` id="${escapeAttr(slugger.slug(plainText(inline)))}"` : '';
  return `<h${level}${id}>${renderInline(inline, opts)}</h${level}>\n`;
}

function renderCode(block, opts) {
  const cls = block.lang ? ` class="${escapeAttr(opts.langPrefix + block.lang)}"` : '';
  return `<pre><code${cls}>${escapeHtml(block.text)}</code></pre>\n`;
}

function renderItem(item, tight, opts, slugger) {
  let out = '';
  for (const child of item.children) {
    if (tight && child.type === 'paragraph') {
      out += renderInline(tokenizeInline(child.text), opts);
    } else {
      if (!out.endsWith('\n')) out += '\n';
      out += renderBlock(child, opts, slugger);
    }
  }
  return out;
}

function renderList(list, opts, slugger) {
  const tag = list.ordered ? 'ol' : 'ul';
  const startAttr = list.ordered && list.start !== 1 ? ` start="${list.start}"` : '';
  let out = `<${tag}${startAttr}>\n`;
  for (const item of list.items) {
    out += `<li>${renderItem(item, list.tight, opts, slugger)}</li>\n`;
  }
  return out + `</${tag}>\n`;
}

export function renderBlock(block, opts, slugger) {
  switch (block.type) {
    case 'paragraph':
      return `<p>${renderInline(tokenizeInline(block.text), opts)}</p>\n`;
    case 'heading':
      return renderHeading(block, opts, slugger);
    case 'code':
      return renderCode(block, opts);
    case 'hr':
      return opts.xhtml ? '<hr />\n' : '<hr>\n';
    case 'blockquote':
      return `<blockquote>\n${renderBlocks(block.children, opts, slugger)}</blockquote>\n`;
    case 'list':
      return renderList(block, opts, slugger);
    default:
      throw new Error(`unknown block token: ${block.type}`);
  }
}

export function renderBlocks(blocks, options = {}, slugger = new Slugger()) {
  const opts = { ...DEFAULT_OPTIONS, ...options };
  let out = '';
  for (const block of blocks) {
    out += renderBlock(block, opts, slugger);
  }
  return out;
}
