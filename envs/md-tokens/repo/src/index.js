// Public entry points: Markdown to HTML, table of contents and plain-text summaries.

import { parseBlocks, walkBlocks } from './block.js';
import { plainText, tokenizeInline } from './inline.js';
import { renderBlocks, Slugger } from './render.js';

export { parseBlocks, walkBlocks } from './block.js';
export { tokenizeInline, plainText } from './inline.js';
export { renderBlocks, renderInline, slugify, Slugger } from './render.js';
export { escapeHtml, escapeAttr, encodeUrl, isSafeUrl } from './escape.js';

/** Converts Markdown source to HTML. */
export function markdown(src, options = {}) {
  if (typeof src !== 'string') {
    throw new TypeError('markdown() expects a string');
  }
  return renderBlocks(parseBlocks(src), options);
}

/**
 * Lists the headings between minLevel and maxLevel (inclusive) with the ids
 * that markdown(src, { headingIds: true }) gives them.
 */
export function tableOfContents(src, minLevel = 1, maxLevel = 3) {
  if (minLevel > maxLevel) {
    throw new RangeError(`minLevel ${minLevel} is above maxLevel ${maxLevel}`);
  }
  const slugger = new Slugger();
  const entries = [];
  walkBlocks(parseBlocks(src), (block) => {
    if (block.type !== 'heading') return;
    const text = plainText(tokenizeInline(block.text));
    const id = slugger.slug(text);
    if (block.level >= minLevel && block.level <= maxLevel) {
      entries.push({ level: block.level, text, id });
    }
  });
  return entries;
}

/** Counts blocks by type, including nested ones. */
export function blockStats(src) {
  const counts = {};
  let maxDepth = 0;
  walkBlocks(parseBlocks(src), (block, depth) => {
    counts[block.type] = (counts[block.type] ?? 0) + 1;
    if (depth > maxDepth) maxDepth = depth;
  });
  return { counts, maxDepth };
}

/**
 * Plain text of the first paragraph, cut at a word boundary to at most
 * maxLength characters (an ellipsis is added when it was cut).
 */
export function summarize(src, maxLength = 80) {
  let first = null;
  walkBlocks(parseBlocks(src), (block) => {
    if (first === null && block.type === 'paragraph') first = block;
  });
  if (first === null) return '';
  const text = plainText(tokenizeInline(first.text)).replace(/\s+/g, ' ').trim();
  if (text.length <= maxLength) return text;
  let cut = text.lastIndexOf(' ', maxLength - 1);
  if (cut <= 0) cut = maxLength - 1;
  return text.slice(0, cut).replace(/[\s.,;:]+$/, '') + '\u2026';
}
