import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import {
  expandTabs,
  indentOf,
  isBlank,
  isThematicBreak,
  parseAtxHeading,
  parseBlocks,
  parseFenceOpen,
  parseListMarker,
  setextLevel,
  startsBlock,
  walkBlocks,
} from '../src/block.js';

const para = (text) => ({ type: 'paragraph', text });
const item = (...children) => ({ children });

describe('block', () => {
  it('expandTabs advances to the next multiple of four', () => {
    assert.equal(expandTabs('a\tb'), 'a   b');
    assert.equal(expandTabs('\tx'), '    x');
    assert.equal(expandTabs('abcd\te'), 'abcd    e');
    assert.equal(expandTabs('ab\t\tc'), 'ab      c');
    assert.equal(expandTabs('no tabs'), 'no tabs');
  });

  it('indentOf and isBlank', () => {
    assert.equal(indentOf('   x'), 3);
    assert.equal(indentOf('x  '), 0);
    assert.equal(indentOf('    '), 4);
    assert.equal(isBlank(' \t '), true);
    assert.equal(isBlank(''), true);
    assert.equal(isBlank('  .'), false);
  });

  it('parseAtxHeading reads level, text and closing sequence', () => {
    assert.deepEqual(parseAtxHeading('## Title ##'), { type: 'heading', level: 2, text: 'Title', setext: false });
    assert.deepEqual(parseAtxHeading('   # ok'), { type: 'heading', level: 1, text: 'ok', setext: false });
    assert.equal(parseAtxHeading('###### six').level, 6);
    assert.equal(parseAtxHeading('# foo#').text, 'foo#');
    assert.equal(parseAtxHeading('### ###').text, '');
    assert.equal(parseAtxHeading('#').text, '');
  });

  it('parseAtxHeading rejects non-headings', () => {
    assert.equal(parseAtxHeading('####### seven'), null);
    assert.equal(parseAtxHeading('#hashtag'), null);
    assert.equal(parseAtxHeading('    # code'), null);
    assert.equal(parseAtxHeading('text'), null);
  });

  it('isThematicBreak accepts three or more of the same marker', () => {
    assert.equal(isThematicBreak('***'), true);
    assert.equal(isThematicBreak(' - - -'), true);
    assert.equal(isThematicBreak('_ _ _ _'), true);
    assert.equal(isThematicBreak('   ---'), true);
    assert.equal(isThematicBreak('--'), false);
    assert.equal(isThematicBreak('*-*'), false);
    assert.equal(isThematicBreak('+++'), false);
    assert.equal(isThematicBreak('    ***'), false);
    assert.equal(isThematicBreak('--a'), false);
  });

  it('setextLevel distinguishes = and - underlines', () => {
    assert.equal(setextLevel('==='), 1);
    assert.equal(setextLevel('=  '), 1);
    assert.equal(setextLevel('  --'), 2);
    assert.equal(setextLevel('=-'), 0);
    assert.equal(setextLevel('    ==='), 0);
    assert.equal(setextLevel('- -'), 0);
  });

  it('parseFenceOpen reads indent, marker, length and info string', () => {
    assert.deepEqual(parseFenceOpen('```js extra'), { indent: 0, char: '`', length: 3, info: 'js extra' });
    assert.deepEqual(parseFenceOpen('  ~~~~'), { indent: 2, char: '~', length: 4, info: '' });
    assert.deepEqual(parseFenceOpen('~~~ a`b'), { indent: 0, char: '~', length: 3, info: 'a`b' });
    assert.equal(parseFenceOpen('``'), null);
    assert.equal(parseFenceOpen('```a`b'), null);
    assert.equal(parseFenceOpen('    ```'), null);
  });

  it('parseListMarker measures the content indent', () => {
    assert.deepEqual(parseListMarker('- item'), {
      ordered: false, delimiter: '-', start: null, indent: 0, contentIndent: 2, firstLine: 'item',
    });
    assert.deepEqual(parseListMarker('12. x'), {
      ordered: true, delimiter: '.', start: 12, indent: 0, contentIndent: 4, firstLine: 'x',
    });
    const paren = parseListMarker(' 3)   y');
    assert.equal(paren.indent, 1);
    assert.equal(paren.delimiter, ')');
    assert.equal(paren.contentIndent, 6);
    assert.equal(paren.firstLine, 'y');
  });

  it('parseListMarker handles empty items, code starts and non-markers', () => {
    const code = parseListMarker('-      code');
    assert.equal(code.contentIndent, 2);
    assert.equal(code.firstLine, '     code');
    const empty = parseListMarker('*');
    assert.equal(empty.contentIndent, 2);
    assert.equal(empty.firstLine, '');
    assert.equal(parseListMarker('0. zero').start, 0);
    assert.equal(parseListMarker('-    four').contentIndent, 5);
    assert.equal(parseListMarker('-    four').firstLine, 'four');
    assert.equal(parseListMarker('-foo'), null);
    assert.equal(parseListMarker('1234567890. x'), null);
    assert.equal(parseListMarker('    - deep'), null);
  });

  it('startsBlock tells which lines interrupt a paragraph', () => {
    assert.equal(startsBlock('# h'), true);
    assert.equal(startsBlock('> q'), true);
    assert.equal(startsBlock('```'), true);
    assert.equal(startsBlock('- item'), true);
    assert.equal(startsBlock('1. item'), true);
    assert.equal(startsBlock('2. item'), false);
    assert.equal(startsBlock('-'), false);
    assert.equal(startsBlock('plain'), false);
  });

  it('parses headings, paragraphs and breaks', () => {
    assert.deepEqual(parseBlocks('# Title\nline one\nline two  \n\n***\nend'), [
      { type: 'heading', level: 1, text: 'Title', setext: false },
      para('line one\nline two'),
      { type: 'hr' },
      para('end'),
    ]);
  });

  it('parses setext headings and tells them from thematic breaks', () => {
    assert.deepEqual(parseBlocks('Foo\n  bar\n===\n\nBaz\n---\n\n---'), [
      { type: 'heading', level: 1, text: 'Foo\nbar', setext: true },
      { type: 'heading', level: 2, text: 'Baz', setext: true },
      { type: 'hr' },
    ]);
  });

  it('a setext underline only consumes its own line', () => {
    assert.deepEqual(parseBlocks('A\n---\nnext'), [
      { type: 'heading', level: 2, text: 'A', setext: true },
      para('next'),
    ]);
  });

  it('runs of blank lines separate blocks and trailing ones are ignored', () => {
    assert.deepEqual(parseBlocks('a\n\n\n\nb\n\n'), [para('a'), para('b')]);
    assert.deepEqual(parseBlocks(''), []);
    assert.deepEqual(parseBlocks('\n\n'), []);
  });

  it('parses fenced code with info strings and indentation', () => {
    assert.deepEqual(parseBlocks('````python  linenos\na\n```\nb\n````\nafter'), [
      { type: 'code', fenced: true, lang: 'python', info: 'python  linenos', text: 'a\n```\nb\n' },
      para('after'),
    ]);
    assert.deepEqual(parseBlocks('  ```\n    x\n y\n  ```'), [
      { type: 'code', fenced: true, lang: '', info: '', text: '  x\ny\n' },
    ]);
  });

  it('a closing fence may not be indented four spaces or be too short', () => {
    assert.deepEqual(parseBlocks('```\na\n    ```\n``\n```\nb'), [
      { type: 'code', fenced: true, lang: '', info: '', text: 'a\n    ```\n``\n' },
      para('b'),
    ]);
  });

  it('an unclosed fence runs to the end of the document', () => {
    assert.deepEqual(parseBlocks('~~~\none\n\ntwo\n'), [
      { type: 'code', fenced: true, lang: '', info: '', text: 'one\n\ntwo\n' },
    ]);
    assert.deepEqual(parseBlocks('```'), [{ type: 'code', fenced: true, lang: '', info: '', text: '' }]);
  });

  it('parses indented code and keeps inner blank lines', () => {
    assert.deepEqual(parseBlocks('    a\n\n      b\n\n\nc'), [
      { type: 'code', fenced: false, lang: '', info: '', text: 'a\n\n  b\n' },
      para('c'),
    ]);
    assert.deepEqual(parseBlocks('para\n    more'), [para('para\nmore')]);
  });

  it('parses block quotes with laziness and nesting', () => {
    assert.deepEqual(parseBlocks('> quote\ncontinued\n> > inner\n\nout'), [
      {
        type: 'blockquote',
        children: [
          para('quote\ncontinued'),
          { type: 'blockquote', children: [para('inner')] },
        ],
      },
      para('out'),
    ]);
    assert.deepEqual(parseBlocks('> text\n    indented lazy'), [
      { type: 'blockquote', children: [para('text\nindented lazy')] },
    ]);
    assert.deepEqual(parseBlocks('>     code\nafter'), [
      { type: 'blockquote', children: [{ type: 'code', fenced: false, lang: '', info: '', text: 'code\n' }] },
      para('after'),
    ]);
    assert.deepEqual(parseBlocks('> # head\nnot lazy'), [
      { type: 'blockquote', children: [{ type: 'heading', level: 1, text: 'head', setext: false }] },
      para('not lazy'),
    ]);
  });

  it('parses nested tight lists', () => {
    assert.deepEqual(parseBlocks('- a\n- b\n  - c\n- d'), [
      {
        type: 'list', ordered: false, start: null, delimiter: '-', tight: true,
        items: [
          item(para('a')),
          item(para('b'), {
            type: 'list', ordered: false, start: null, delimiter: '-', tight: true, items: [item(para('c'))],
          }),
          item(para('d')),
        ],
      },
    ]);
  });

  it('blank lines between items or blocks make a list loose', () => {
    const between = parseBlocks('1. one\n2. two\n\n3. three')[0];
    assert.equal(between.tight, false);
    assert.equal(between.items.length, 3);
    const inside = parseBlocks('- a\n\n  b\n- c')[0];
    assert.equal(inside.tight, false);
    assert.deepEqual(inside.items[0], item(para('a'), para('b')));
    assert.equal(parseBlocks('-\n  foo\n- bar')[0].tight, true);
    assert.equal(parseBlocks('-\n  foo\n  # h')[0].tight, true);
    assert.deepEqual(parseBlocks('-\n  foo\n  # h')[0].items[0].children.map((b) => b.type), ['paragraph', 'heading']);
    const trailing = parseBlocks('- a\n- b\n\nafter');
    assert.equal(trailing[0].tight, true);
    assert.deepEqual(trailing[1], para('after'));
  });

  it('list items take lazy lines and end at other list kinds', () => {
    assert.deepEqual(parseBlocks('- one\nlazy\n+ two'), [
      { type: 'list', ordered: false, start: null, delimiter: '-', tight: true, items: [item(para('one\nlazy'))] },
      { type: 'list', ordered: false, start: null, delimiter: '+', tight: true, items: [item(para('two'))] },
    ]);
    assert.deepEqual(parseBlocks('- a\n2. b').map((b) => [b.type, b.ordered, b.start]), [
      ['list', false, null],
      ['list', true, 2],
    ]);
    const ordered = parseBlocks('7) x\n8) y\n9. z');
    assert.equal(ordered.length, 2);
    assert.equal(ordered[0].start, 7);
    assert.equal(ordered[0].items.length, 2);
    assert.equal(ordered[1].start, 9);
  });

  it('ordered lists interrupt a paragraph only when they start at 1', () => {
    assert.deepEqual(parseBlocks('text\n2. no'), [para('text\n2. no')]);
    const blocks = parseBlocks('text\n1. yes');
    assert.equal(blocks.length, 2);
    assert.equal(blocks[1].type, 'list');
  });

  it('a thematic break ends a list', () => {
    const blocks = parseBlocks('- a\n* * *\n- b');
    assert.deepEqual(blocks.map((b) => b.type), ['list', 'hr', 'list']);
  });

  it('normalizes CRLF line endings and expands tabs', () => {
    assert.deepEqual(parseBlocks('# A\r\nb\rc'), [
      { type: 'heading', level: 1, text: 'A', setext: false },
      para('b\nc'),
    ]);
    assert.deepEqual(parseBlocks('\tcode'), [{ type: 'code', fenced: false, lang: '', info: '', text: 'code\n' }]);
  });

  it('walkBlocks visits nested blocks with their depth', () => {
    const seen = [];
    walkBlocks(parseBlocks('> - a\n>   > b\n\nc'), (block, depth) => seen.push(`${block.type}@${depth}`));
    assert.deepEqual(seen, ['blockquote@0', 'list@1', 'paragraph@2', 'blockquote@2', 'paragraph@3', 'paragraph@0']);
  });
});
