import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  decodeEntities,
  decodeEntity,
  encodeUrl,
  escapeAttr,
  escapeHtml,
  isAsciiPunctuation,
  isPunctuation,
  isSafeUrl,
  isWhitespace,
  unescapeMarkdown,
} from '../src/escape.js';

describe('escape', () => {
  it('escapeHtml escapes the four special characters and keeps apostrophes', () => {
    assert.equal(escapeHtml(`a<b>&"c'`), `a&lt;b&gt;&amp;&quot;c'`);
    assert.equal(escapeHtml('x&'), 'x&amp;');
    assert.equal(escapeHtml('<'), '&lt;');
  });

  it('escapeHtml returns plain text unchanged', () => {
    assert.equal(escapeHtml('plain text'), 'plain text');
    assert.equal(escapeHtml(''), '');
    assert.equal(escapeHtml('a > b and c'), 'a &gt; b and c');
  });

  it('escapeAttr also escapes single quotes', () => {
    assert.equal(escapeAttr(`it's "x" & y`), 'it&#39;s &quot;x&quot; &amp; y');
  });

  it('classifies punctuation and whitespace', () => {
    assert.equal(isAsciiPunctuation('!'), true);
    assert.equal(isAsciiPunctuation('~'), true);
    assert.equal(isAsciiPunctuation('a'), false);
    assert.equal(isAsciiPunctuation('«'), false);
    assert.equal(isAsciiPunctuation('!!'), false);
    assert.equal(isPunctuation('«'), true);
    assert.equal(isPunctuation('€'), true);
    assert.equal(isPunctuation('*'), true);
    assert.equal(isPunctuation('z'), false);
    assert.equal(isPunctuation(''), false);
    assert.equal(isWhitespace(undefined), true);
    assert.equal(isWhitespace(''), true);
    assert.equal(isWhitespace('\n'), true);
    assert.equal(isWhitespace('x'), false);
  });

  it('decodeEntity handles numeric, hex and named entities', () => {
    assert.equal(decodeEntity('#65'), 'A');
    assert.equal(decodeEntity('#x41'), 'A');
    assert.equal(decodeEntity('#X4a'), 'J');
    assert.equal(decodeEntity('copy'), '\u00a9');
    assert.equal(decodeEntity('nbsp'), '\u00a0');
    assert.equal(decodeEntity('nope'), null);
    assert.equal(decodeEntity('toString'), null);
    assert.equal(decodeEntity('#xZZ'), null);
    assert.equal(decodeEntity('#12345678'), null);
    assert.equal(decodeEntity('#x1234567'), null);
  });

  it('decodeEntity replaces invalid code points', () => {
    assert.equal(decodeEntity('#0'), '\ufffd');
    assert.equal(decodeEntity('#xD800'), '\ufffd');
    assert.equal(decodeEntity('#xDFFF'), '\ufffd');
    assert.equal(decodeEntity('#xD7FF'), '\ud7ff');
    assert.equal(decodeEntity('#xE000'), '\ue000');
    assert.equal(decodeEntity('#x110000'), '\ufffd');
    assert.equal(decodeEntity('#x10FFFF'), String.fromCodePoint(0x10ffff));
    assert.equal(decodeEntity('#1'), '\u0001');
  });

  it('decodeEntities leaves unknown entities as written', () => {
    assert.equal(decodeEntities('a &lt; b &unknown; &#x263A; &amp;amp;'), 'a < b &unknown; \u263a &amp;');
  });

  it('unescapeMarkdown removes backslashes before punctuation only', () => {
    assert.equal(unescapeMarkdown('\\*a\\* \\q \\\\'), '*a* \\q \\');
    assert.equal(unescapeMarkdown('end\\'), 'end\\');
    assert.equal(unescapeMarkdown('\\[x\\]'), '[x]');
  });

  it('encodeUrl percent-encodes unsafe characters as UTF-8', () => {
    assert.equal(encodeUrl('a b'), 'a%20b');
    assert.equal(encodeUrl('ä'), '%C3%A4');
    assert.equal(encodeUrl('x?q=1&y=[2]#frag'), 'x?q=1&y=[2]#frag');
    assert.equal(encodeUrl('\u{1F600}'), '%F0%9F%98%80');
    assert.equal(encodeUrl('"<>'), '%22%3C%3E');
    assert.equal(encodeUrl('a\nb\tc'), 'a%0Ab%09c');
  });

  it('encodeUrl keeps valid percent escapes and encodes stray percent signs', () => {
    assert.equal(encodeUrl('a%20b'), 'a%20b');
    assert.equal(encodeUrl('%zz'), '%25zz');
    assert.equal(encodeUrl('100%'), '100%25');
    assert.equal(encodeUrl('%4'), '%254');
    assert.equal(encodeUrl('%af%'), '%af%25');
  });

  it('isSafeUrl rejects script protocols and most data URLs', () => {
    assert.equal(isSafeUrl('http://example.com'), true);
    assert.equal(isSafeUrl('mailto:a@b.c'), true);
    assert.equal(isSafeUrl('javascript:alert(1)'), false);
    assert.equal(isSafeUrl('  JavaScript:alert(1)'), false);
    assert.equal(isSafeUrl('vbscript:x'), false);
    assert.equal(isSafeUrl('file:///etc/passwd'), false);
    assert.equal(isSafeUrl('data:image/png;base64,AA'), false);
    assert.equal(isSafeUrl('data:image/png;base64,AA', true), true);
    assert.equal(isSafeUrl('data:image/webp;base64,AA', true), true);
    assert.equal(isSafeUrl('data:text/html,<b>', true), false);
    assert.equal(isSafeUrl('javascript:x', true), false);
  });
});
