import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { parseBlocks } from '../src/block.js';
import { DEFAULT_OPTIONS, renderBlocks, renderInline, slugify, Slugger } from '../src/render.js';

const html = (src, options) => renderBlocks(parseBlocks(src), options);

describe('render', () => {
  it('slugify lowercases, drops punctuation and joins words with dashes', () => {
    assert.equal(slugify('Hello, World!'), 'hello-world');
    assert.equal(slugify('  Multiple   spaces -- here '), 'multiple-spaces-here');
    assert.equal(slugify('Ünïcode 2'), 'ünïcode-2');
    assert.equal(slugify('snake_case'), 'snake_case');
    assert.equal(slugify('-edge-'), 'edge');
    assert.equal(slugify('!!!'), '');
  });

  it('Slugger makes repeated slugs unique', () => {
    const s = new Slugger();
    assert.deepEqual(
      ['Intro', 'Intro', 'intro-1', 'Intro', '???', '!'].map((x) => s.slug(x)),
      ['intro', 'intro-1', 'intro-1-1', 'intro-2', 'section', 'section-1'],
    );
    const t = new Slugger();
    assert.deepEqual(['A-1', 'A', 'A', 'A-2', 'A'].map((x) => t.slug(x)), ['a-1', 'a', 'a-2', 'a-2-1', 'a-3']);
  });

  it('renderInline escapes text and renders every inline token', () => {
    const tokens = [
      { type: 'text', value: 'a<b ' },
      { type: 'code', value: 'x&y' },
      { type: 'em', children: [{ type: 'text', value: 'e' }] },
      { type: 'strong', children: [{ type: 'text', value: 's' }] },
      { type: 'softbreak' },
      { type: 'hardbreak' },
    ];
    assert.equal(renderInline(tokens), 'a&lt;b <code>x&amp;y</code><em>e</em><strong>s</strong>\n<br>\n');
    assert.throws(() => renderInline([{ type: 'bogus' }]), /unknown inline token: bogus/);
  });

  it('renders links and images with encoded, escaped URLs and titles', () => {
    const tokens = [
      { type: 'link', href: '/a b?x="1"&y', title: 'T "q"', children: [{ type: 'text', value: 'go' }] },
      { type: 'image', src: '/i.png', title: '', alt: 'an "alt"' },
    ];
    assert.equal(
      renderInline(tokens, DEFAULT_OPTIONS),
      '<a href="/a%20b?x=%221%22&amp;y" title="T &quot;q&quot;">go</a><img src="/i.png" alt="an &quot;alt&quot;">',
    );
  });

  it('neutralizes unsafe URLs unless safeLinks is off', () => {
    assert.equal(html('[x](javascript:alert(1))'), '<p><a href="#">x</a></p>\n');
    assert.equal(
      html('[x](javascript:alert(1))', { safeLinks: false }),
      '<p><a href="javascript:alert(1)">x</a></p>\n',
    );
    assert.equal(html('![p](data:image/png;base64,AA)'), '<p><img src="data:image/png;base64,AA" alt="p"></p>\n');
    assert.equal(html('[p](data:image/png;base64,AA)'), '<p><a href="#">p</a></p>\n');
  });

  it('xhtml and softbreak options change void tags and line joins', () => {
    assert.equal(html('a  \nb\nc\n\n---\n\n![i](/i)', { xhtml: true, softbreak: ' ' }),
      '<p>a<br />\nb c</p>\n<hr />\n<p><img src="/i" alt="i" /></p>\n');
  });

  it('renders headings with ids and a clamped level offset', () => {
    assert.equal(html('# Intro\n## Intro\n### *Deep* dive', { headingIds: true }),
      '<h1 id="intro">Intro</h1>\n<h2 id="intro-1">Intro</h2>\n<h3 id="deep-dive"><em>Deep</em> dive</h3>\n');
    assert.equal(html('# a\n###### b', { headingOffset: 1 }), '<h2>a</h2>\n<h6>b</h6>\n');
    assert.equal(html('# a\n### b', { headingOffset: -1 }), '<h1>a</h1>\n<h2>b</h2>\n');
  });

  it('renders code blocks with escaped text and a language class', () => {
    assert.equal(html('```js\nif (a < b) {}\n```'), '<pre><code class="language-js">if (a &lt; b) {}\n</code></pre>\n');
    assert.equal(html('~~~ py\nx\n~~~', { langPrefix: 'lang-' }), '<pre><code class="lang-py">x\n</code></pre>\n');
    assert.equal(html('    <tag>'), '<pre><code>&lt;tag&gt;\n</code></pre>\n');
  });

  it('renders tight and loose lists the CommonMark way', () => {
    assert.equal(html('- a\n- b\n  - c'), '<ul>\n<li>a</li>\n<li>b\n<ul>\n<li>c</li>\n</ul>\n</li>\n</ul>\n');
    assert.equal(html('3. x\n\n4. y'), '<ol start="3">\n<li>\n<p>x</p>\n</li>\n<li>\n<p>y</p>\n</li>\n</ol>\n');
    assert.equal(html('1. x\n-\n- > q'),
      '<ol>\n<li>x</li>\n</ol>\n<ul>\n<li></li>\n<li>\n<blockquote>\n<p>q</p>\n</blockquote>\n</li>\n</ul>\n');
  });

  it('renders block quotes and rejects unknown blocks', () => {
    assert.equal(html('> a\n>\n> b'), '<blockquote>\n<p>a</p>\n<p>b</p>\n</blockquote>\n');
    assert.throws(() => renderBlocks([{ type: 'table' }]), /unknown block token: table/);
  });
});
