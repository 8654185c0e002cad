// Block-level tokenizer: turns Markdown source into a tree of block tokens.
//
// Token shapes:
//   { type: 'heading', level, text, setext }
//   { type: 'paragraph', text }
//   { type: 'code', fenced, lang, info, text }
//   { type: 'hr' }
//   { type: 'blockquote', children }
//   { type: 'list', ordered, start, delimiter, tight, items: [{ children }] }

import { unescapeMarkdown } from './escape.js';

const TAB_STOP = 4;
const CODE_INDENT = 4;

export function expandTabs(line) {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) {
    if (ch === '\t') {
      out += ' '.repeat(TAB_STOP - (out.length % TAB_STOP));
    } else {
      out += ch;
    }
  }
  return out;
}

export function indentOf(line) {
  let n = 0;
  while (n < line.length && line[n] === ' ') n++;
  return n;
}

export function isBlank(line) {
  return /^[ \t]*$/.test(line);
}

function stripIndent(line, count) {
  let n = 0;
  while (n < count && n < line.length && line[n] === ' ') n++;
  return line.slice(n);
}

export function parseAtxHeading(line) {
  const indent = indentOf(line);
  if (indent >= CODE_INDENT) return null;
  let i = indent;
  let level = 0;
  while (i < line.length && line[i] === '#') {
    level += 1;
    i += 1;
  }
  if (level === 0 || level > 6) return null;
  if (i < line.length && line[i] !== ' ') return null;
  let text = line.slice(i).trim();
  const closing = /(^| )#+$/.exec(text);
  if (closing) text = text.slice(0, closing.index).trim();
  return { type: 'heading', level, text, setext: false };
}

export function isThematicBreak(line) {
  if (indentOf(line) >= CODE_INDENT) return false;
  const chars = line.replace(/[ \t]/g, '');
  if (chars.length < 3) return false;
  const marker = chars[0];
  if (marker !== '-' && marker !== '*' && marker !== '_') return false;
  for (const ch of chars) {
    if (ch !== marker) return false;
  }
  return true;
}

/** Returns 1 for an '=' underline, 2 for a '-' underline, 0 otherwise. */
export function setextLevel(line) {
  if (indentOf(line) >= CODE_INDENT) return 0;
  const t = line.trim();
  if (/^=+$/.test(t)) return 1;
  return /^-+$/.test(t) ? 2 : 0;
}

export function parseFenceOpen(line) {
  const m = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(line);
  if (!m) return null;
  const info = m[3].trim();
  if (m[2][0] === '`' && info.includes('`')) return null;
  return { indent: m[1].length, char: m[2][0], length: m[2].length, info: unescapeMarkdown(info) };
}

function isFenceClose(line, fence) {
  if (indentOf(line) >= CODE_INDENT) return false;
  const t = line.trim();
  if (t.length < fence.length) return false;
  for (const ch of t) {
    if (ch !== fence.char) return false;
  }
  return true;
}

export function parseListMarker(line) {
  const m = /^( {0,3})([-+*]|\d{1,9}[.)])(?:( +)(.*))?$/.exec(line);
  if (!m) return null;
  const marker = m[2];
  const ordered = marker[0] >= '0' && marker[0] <= '9';
  const spaces = m[3] ? m[3].length : 0;
  const rest = m[4] ?? '';
  let padding = spaces;
  if (rest === '' || spaces > CODE_INDENT) padding = 1;
  return {
    ordered,
    delimiter: ordered ? marker[marker.length - 1] : marker,
    start: ordered ? parseInt(marker.slice(0, -1), 10) : null,
    indent: m[1].length,
    contentIndent: m[1].length + marker.length + padding,
    firstLine: rest === '' ? '' : ' '.repeat(spaces - padding) + rest,
  };
}

function stripQuoteMarker(line) {
  const m = /^ {0,3}> ?(.*)$/.exec(line);
  return m ? m[1] : null;
}

function interruptsWithList(line) {
  const item = parseListMarker(line);
  if (!item || isBlank(item.firstLine)) return false;
  return !item.ordered || item.start === 1;
}

/** Whether a line can interrupt a paragraph. */
export function startsBlock(line) {
  return (
    parseAtxHeading(line) !== null ||
    isThematicBreak(line) ||
    parseFenceOpen(line) !== null ||
    stripQuoteMarker(line) !== null ||
    interruptsWithList(line)
  );
}

/** A line that can start a paragraph. */
function isParagraphLine(line) {
  return !isBlank(line) && indentOf(line) < CODE_INDENT && !startsBlock(line);
}

/** A line that can continue an open paragraph (indentation does not matter). */
function isLazyLine(line) {
  return !isBlank(line) && !startsBlock(line);
}

function readIndentedCode(lines, start) {
  const body = [];
  let i = start;
  while (i < lines.length && (isBlank(lines[i]) || indentOf(lines[i]) >= CODE_INDENT)) {
    body.push(stripIndent(lines[i], CODE_INDENT));
    i++;
  }
  while (body.length > 0 && isBlank(body[body.length - 1])) body.pop();
  return [{ type: 'code', fenced: false, lang: '', info: '', text: body.join('\n') + '\n' }, i];
}

function readFencedCode(lines, start, fence) {
  const body = [];
  let i = start + 1;
  while (i < lines.length) {
    if (isFenceClose(lines[i], fence)) {
      i++;
      break;
    }
    body.push(stripIndent(lines[i], fence.indent));
    i++;
  }
  const lang = fence.info === '' ? '' : fence.info.split(/\s+/)[0];
  const text = body.length > 0 ? body.join('\n') + '\n' : '';
  return [{ type: 'code', fenced: true, lang, info: fence.info, text }, i];
}

function readBlockquote(lines, start) {
  const inner = [];
  let i = start;
  let lazyAllowed = false;
  while (i < lines.length) {
    const stripped = stripQuoteMarker(lines[i]);
    if (stripped !== null) {
      inner.push(stripped);
      lazyAllowed = isParagraphLine(stripped) || (lazyAllowed && isLazyLine(stripped));
      i++;
    } else if (lazyAllowed && isLazyLine(lines[i])) {
      inner.push(lines[i]);
      i++;
    } else {
      break;
    }
  }
  return [{ type: 'blockquote', children: parseLines(inner) }, i];
}

function sameListKind(a, b) {
  return a.ordered === b.ordered && a.delimiter === b.delimiter;
}

function readList(lines, start, first) {
  const list = {
    type: 'list',
    ordered: first.ordered,
    start: first.start,
    delimiter: first.delimiter,
    tight: true,
    items: [],
  };
  let i = start;
  let marker = first;
  while (marker !== null) {
    const itemLines = [marker.firstLine];
    i++;
    while (i < lines.length) {
      const line = lines[i];
      if (isBlank(line)) {
        itemLines.push('');
      } else if (indentOf(line) >= marker.contentIndent) {
        itemLines.push(stripIndent(line, marker.contentIndent));
      } else if (
        isParagraphLine(itemLines[itemLines.length - 1]) &&
        isLazyLine(line) &&
        parseListMarker(line) === null
      ) {
        itemLines.push(line);
      } else {
        break;
      }
      i++;
    }
    let trailingBlanks = 0;
    while (itemLines.length > 0 && itemLines[itemLines.length - 1] === '') {
      itemLines.pop();
      trailingBlanks += 1;
    }
    const { blocks, gap } = parseLinesWithGaps(itemLines);
    if (gap) list.tight = false;
    list.items.push({ children: blocks });
    const next = i < lines.length && !isThematicBreak(lines[i]) ? parseListMarker(lines[i]) : null;
    if (next !== null && sameListKind(next, marker)) {
      if (trailingBlanks > 0) list.tight = false;
      marker = next;
    } else {
      marker = null;
    }
  }
  return [list, i];
}

function readParagraph(lines, start) {
  const body = [lines[start].replace(/^ +/, '')];
  let i = start + 1;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) break;
    const level = setextLevel(line);
    if (level > 0) {
      return [{ type: 'heading', level, text: body.join('\n').trim(), setext: true }, i + 1];
    }
    if (startsBlock(line)) break;
    body.push(line.replace(/^ +/, ''));
    i++;
  }
  return [{ type: 'paragraph', text: body.join('\n').replace(/[ \t]+$/, '') }, i];
}

function readBlock(lines, i) {
  const line = lines[i];
  if (indentOf(line) >= CODE_INDENT) return readIndentedCode(lines, i);
  const fence = parseFenceOpen(line);
  if (fence !== null) return readFencedCode(lines, i, fence);
  const heading = parseAtxHeading(line);
  if (heading !== null) return [heading, i + 1];
  if (isThematicBreak(line)) return [{ type: 'hr' }, i + 1];
  if (stripQuoteMarker(line) !== null) return readBlockquote(lines, i);
  const item = parseListMarker(line);
  if (item !== null) return readList(lines, i, item);
  return readParagraph(lines, i);
}

/**
 * Parses lines into blocks and reports whether a blank line separated two of
 * them (which makes the list item holding them loose).
 */
function parseLinesWithGaps(lines) {
  const blocks = [];
  let sawBlank = false;
  let gap = false;
  let i = 0;
  while (i < lines.length) {
    if (isBlank(lines[i])) {
      sawBlank = true;
      i++;
      continue;
    }
    if (sawBlank && blocks.length > 0) gap = true;
    sawBlank = false;
    const [block, next] = readBlock(lines, i);
    blocks.push(block);
    i = next;
  }
  return { blocks, gap };
}

export function parseLines(lines) {
  return parseLinesWithGaps(lines).blocks;
}

export function parseBlocks(src) {
  const text = src.replace(/\r\n?/g, '\n');
  const lines = text.split('\n').map(expandTabs);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return parseLines(lines);
}

/** Calls visit(block, depth) for every block in document order. */
export function walkBlocks(blocks, visit, depth = 0) {
  for (const block of blocks) {
    visit(block, depth);
    if (block.type === 'blockquote') {
      walkBlocks(block.children, visit, depth + 1);
    } else if (block.type === 'list') {
      for (const item of block.items) walkBlocks(item.children, visit, depth + 1);
    }
  }
}
