import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import * as api from '../src/index.js';
import { blockStats, markdown, summarize, tableOfContents } from '../src/index.js';

const DOC = [
  '# Guide',
  '',
  'Intro with *style* and a [link](https://example.com/x y).',
  '',
  '## Install',
  '',
  '```sh',
  'npm i md-tokens',
  '```',
  '',
  '## Use',
  '',
  '> Note: **careful**',
  '',
  '1. first',
  '2. second',
  '   - nested',
  '',
  '### Install',
].join('\n');

describe('index', () => {
  it('markdown converts a whole document', () => {
    assert.equal(
      markdown(DOC),
      [
        '<h1>Guide</h1>',
        '<p>Intro with <em>style</em> and a [link](https://example.com/x y).</p>',
        '<h2>Install</h2>',
        '<pre><code class="language-sh">npm i md-tokens',
        '</code></pre>',
        '<h2>Use</h2>',
        '<blockquote>',
        '<p>Note: <strong>careful</strong></p>',
        '</blockquote>',
        '<ol>',
        '<li>first</li>',
        '<li>second',
        '<ul>',
        '<li>nested</li>',
        '</ul>',
        '</li>',
        '</ol>',
        '<h3>Install</h3>',
        '',
      ].join('\n'),
    );
  });

  it('re-exports the building blocks', () => {
    assert.equal(api.parseBlocks('- x')[0].type, 'list');
    assert.equal(api.walkBlocks.length, 2);
    assert.equal(api.plainText(api.tokenizeInline('*a*')), 'a');
    assert.equal(api.renderInline([{ type: 'text', value: '<' }]), '&lt;');
    assert.equal(api.renderBlocks([{ type: 'hr' }]), '<hr>\n');
    assert.equal(api.slugify('A B'), 'a-b');
    assert.equal(new api.Slugger().slug('x'), 'x');
    assert.equal(api.escapeHtml('&'), '&amp;');
    assert.equal(api.escapeAttr("'"), '&#39;');
    assert.equal(api.encodeUrl(' '), '%20');
    assert.equal(api.isSafeUrl('javascript:x'), false);
  });

  it('markdown rejects non-string input', () => {
    assert.throws(() => markdown(42), TypeError);
    assert.equal(markdown(''), '');
  });

  it('tableOfContents lists headings with the same ids as the renderer', () => {
    assert.deepEqual(tableOfContents(DOC), [
      { level: 1, text: 'Guide', id: 'guide' },
      { level: 2, text: 'Install', id: 'install' },
      { level: 2, text: 'Use', id: 'use' },
      { level: 3, text: 'Install', id: 'install-1' },
    ]);
    assert.match(markdown(DOC, { headingIds: true }), /<h3 id="install-1">Install<\/h3>/);
  });

  it('tableOfContents filters levels but keeps ids stable', () => {
    assert.deepEqual(tableOfContents(DOC, 3, 3), [{ level: 3, text: 'Install', id: 'install-1' }]);
    assert.deepEqual(tableOfContents(DOC, 2, 2).map((e) => e.id), ['install', 'use']);
    assert.deepEqual(tableOfContents(DOC, 1, 1).length, 1);
    assert.throws(() => tableOfContents(DOC, 3, 2), RangeError);
    assert.deepEqual(tableOfContents('# A\n#### D\n### C').map((e) => e.text), ['A', 'C']);
    assert.deepEqual(tableOfContents('#### D\n## B', 2).map((e) => e.id), ['b']);
  });

  it('blockStats counts nested blocks and depth', () => {
    assert.deepEqual(blockStats(DOC), {
      counts: { heading: 4, paragraph: 5, code: 1, blockquote: 1, list: 2 },
      maxDepth: 2,
    });
    assert.deepEqual(blockStats('plain'), { counts: { paragraph: 1 }, maxDepth: 0 });
  });

  it('summarize returns short first paragraphs whole', () => {
    assert.equal(summarize(DOC), 'Intro with style and a [link](https://example.com/x y).');
    assert.equal(summarize('# Only a heading'), '');
    assert.equal(summarize('> quoted *first*\n\nsecond'), 'quoted first');
    assert.equal(summarize('exactly ten', 11), 'exactly ten');
  });

  it('summarize cuts long text at a word boundary', () => {
    assert.equal(summarize('The quick brown fox jumps over the lazy dog', 20), 'The quick brown fox\u2026');
    assert.equal(summarize('one two, three four', 10), 'one two\u2026');
    assert.equal(summarize('one two three', 8), 'one two\u2026');
    assert.equal(summarize('abcdefghij', 5), 'abcd\u2026');
    assert.equal(summarize('abcd efgh', 4), 'abc\u2026');
    const long = 'word '.repeat(30).trim();
    assert.equal(summarize(long), 'word '.repeat(16).trim() + '\u2026');
    assert.equal(summarize(long).length, 80);
    const shifted = 'x' + long;
    assert.equal(summarize(shifted), 'x' + 'word '.repeat(15).trim() + '\u2026');
    assert.equal(summarize(shifted).length, 76);
    assert.equal(summarize('a\nb   c d', 7), 'a b c d');
    assert.equal(summarize('a\nb   c d', 6), 'a b c\u2026');
  });
});
