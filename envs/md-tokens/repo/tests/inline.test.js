import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { makeDelimiter, parseLinkTarget, plainText, scanCodeSpan, tokenizeInline } from '../src/inline.js';

const t = (value) => ({ type: 'text', value });
const em = (...children) => ({ type: 'em', children });
const strong = (...children) => ({ type: 'strong', children });
const link = (href, children, title = '') => ({ type: 'link', href, title, autolink: false, children });

describe('inline', () => {
  it('plain text becomes a single text token', () => {
    assert.deepEqual(tokenizeInline('just words, nothing else'), [t('just words, nothing else')]);
    assert.deepEqual(tokenizeInline(''), []);
  });

  it('parses emphasis and strong emphasis', () => {
    assert.deepEqual(tokenizeInline('*a* and __b__'), [em(t('a')), t(' and '), strong(t('b'))]);
    assert.deepEqual(tokenizeInline('**strong *nested* end**'), [
      strong(t('strong '), em(t('nested')), t(' end')),
    ]);
    assert.deepEqual(tokenizeInline('***both***'), [em(strong(t('both')))]);
  });

  it('underscores do not emphasize inside words, stars do', () => {
    assert.deepEqual(tokenizeInline('snake_case_name'), [t('snake_case_name')]);
    assert.deepEqual(tokenizeInline('foo*bar*baz'), [t('foo'), em(t('bar')), t('baz')]);
    assert.deepEqual(tokenizeInline('(_quoted_)'), [t('('), em(t('quoted')), t(')')]);
    assert.deepEqual(tokenizeInline('a _ b_'), [t('a _ b_')]);
    assert.deepEqual(tokenizeInline('_a _'), [t('_a _')]);
    assert.deepEqual(tokenizeInline('*a _b*'), [em(t('a _b'))]);
  });

  it('unmatched delimiters stay literal', () => {
    assert.deepEqual(tokenizeInline('**a'), [t('**a')]);
    assert.deepEqual(tokenizeInline('a * b * c'), [t('a * b * c')]);
    assert.deepEqual(tokenizeInline('**a*'), [t('*'), em(t('a'))]);
    assert.deepEqual(tokenizeInline('*a**'), [em(t('a')), t('*')]);
    assert.deepEqual(tokenizeInline('*a *b*'), [t('*a '), em(t('b'))]);
  });

  it('applies the rule of three to runs that can open and close', () => {
    assert.deepEqual(tokenizeInline('*foo**bar**baz*'), [em(t('foo'), strong(t('bar')), t('baz'))]);
    assert.deepEqual(tokenizeInline('*foo**bar*'), [em(t('foo**bar'))]);
    assert.deepEqual(tokenizeInline('foo***bar***baz'), [t('foo'), em(strong(t('bar'))), t('baz')]);
  });

  it('makeDelimiter computes flanking for * and _', () => {
    const pick = (d) => [d.char, d.length, d.canOpen, d.canClose];
    assert.deepEqual(pick(makeDelimiter('*a', 0, 1)), ['*', 1, true, false]);
    assert.deepEqual(pick(makeDelimiter('a**', 1, 3)), ['*', 2, false, true]);
    assert.deepEqual(pick(makeDelimiter('a*b', 1, 2)), ['*', 1, true, true]);
    assert.deepEqual(pick(makeDelimiter('a * b', 2, 3)), ['*', 1, false, false]);
    assert.deepEqual(pick(makeDelimiter('._.', 1, 2)), ['_', 1, true, true]);
    assert.deepEqual(pick(makeDelimiter('"_a', 1, 2)), ['_', 1, true, false]);
    assert.deepEqual(pick(makeDelimiter('a_.', 1, 2)), ['_', 1, false, true]);
    assert.deepEqual(pick(makeDelimiter('._.', 1, 2)), ['_', 1, true, true]);
    assert.deepEqual(pick(makeDelimiter('._a', 1, 2)), ['_', 1, true, false]);
  });

  it('scanCodeSpan matches backtick runs of equal length', () => {
    assert.deepEqual(scanCodeSpan('`` a`b ``', 0), { value: 'a`b', end: 9 });
    assert.deepEqual(scanCodeSpan('`x` tail', 0), { value: 'x', end: 3 });
    assert.deepEqual(scanCodeSpan('` `', 0), { value: ' ', end: 3 });
    assert.deepEqual(scanCodeSpan('`  b`', 0), { value: '  b', end: 5 });
    assert.deepEqual(scanCodeSpan('`a\nb`', 0), { value: 'a b', end: 5 });
    assert.equal(scanCodeSpan('```a``', 0), null);
    assert.deepEqual(scanCodeSpan('``a```b``', 0), { value: 'a```b', end: 9 });
  });

  it('code spans win over emphasis and keep backslashes', () => {
    assert.deepEqual(tokenizeInline('*a `*` b*'), [em(t('a '), { type: 'code', value: '*' }, t(' b'))]);
    assert.deepEqual(tokenizeInline('`\\*`'), [{ type: 'code', value: '\\*' }]);
    assert.deepEqual(tokenizeInline('```a`` b'), [t('```a`` b')]);
  });

  it('backslash escapes and entities produce literal text', () => {
    assert.deepEqual(tokenizeInline('\\*not em\\* \\q'), [t('*not em* \\q')]);
    assert.deepEqual(tokenizeInline('&lt;b&gt; &#35; &nope; & x'), [t('<b> # &nope; & x')]);
    assert.deepEqual(tokenizeInline('trailing\\'), [t('trailing\\')]);
  });

  it('distinguishes soft and hard line breaks', () => {
    assert.deepEqual(tokenizeInline('a  \nb'), [t('a'), { type: 'hardbreak' }, t('b')]);
    assert.deepEqual(tokenizeInline('a\\\nb'), [t('a'), { type: 'hardbreak' }, t('b')]);
    assert.deepEqual(tokenizeInline('a \n   b'), [t('a'), { type: 'softbreak' }, t('b')]);
  });

  it('parseLinkTarget reads destinations and titles', () => {
    assert.deepEqual(parseLinkTarget('(</my url> "t")', 0), { dest: '/my url', title: 't', end: 15 });
    assert.deepEqual(parseLinkTarget('(a(b)c)', 0), { dest: 'a(b)c', title: '', end: 7 });
    assert.deepEqual(parseLinkTarget("(/u 'single')", 0), { dest: '/u', title: 'single', end: 13 });
    assert.deepEqual(parseLinkTarget('(/u (paren) )', 0), { dest: '/u', title: 'paren', end: 13 });
    assert.deepEqual(parseLinkTarget('(/u"t")', 0), { dest: '/u"t"', title: '', end: 7 });
    assert.deepEqual(parseLinkTarget('(/a\\)b &amp; c)', 0), null);
    assert.deepEqual(parseLinkTarget('(/a\\)b&amp;c)', 0), { dest: '/a)b&c', title: '', end: 13 });
    assert.deepEqual(parseLinkTarget('x(/u)', 1), { dest: '/u', title: '', end: 5 });
    assert.deepEqual(parseLinkTarget('(/u  )', 0), { dest: '/u', title: '', end: 6 });
    assert.deepEqual(parseLinkTarget('(/u "")', 0), { dest: '/u', title: '', end: 7 });
    assert.deepEqual(parseLinkTarget('(/u "a\\"")', 0), { dest: '/u', title: 'a"', end: 10 });
    assert.deepEqual(parseLinkTarget('(/a\\))', 0), { dest: '/a)', title: '', end: 6 });
    assert.deepEqual(parseLinkTarget('(\n/u\n"t"\n)', 0), { dest: '/u', title: 't', end: 10 });
  });

  it('parseLinkTarget rejects malformed targets', () => {
    assert.equal(parseLinkTarget('(a(b)', 0), null);
    assert.equal(parseLinkTarget('(a(b "t")', 0), null);
    assert.equal(parseLinkTarget('(</u>"t")', 0), null);
    assert.equal(parseLinkTarget('(\n\n/u)', 0), null);
    assert.equal(parseLinkTarget('(/u "unterminated)', 0), null);
    assert.equal(parseLinkTarget('(<a\nb>)', 0), null);
    assert.equal(parseLinkTarget('(<open', 0), null);
    assert.equal(parseLinkTarget('/u)', 0), null);
  });

  it('parses links with nested brackets and keeps links from nesting', () => {
    assert.deepEqual(tokenizeInline('see [the *docs*](/d "Docs")!'), [
      t('see '),
      link('/d', [t('the '), em(t('docs'))], 'Docs'),
      t('!'),
    ]);
    assert.deepEqual(tokenizeInline('[a [b] c](/u)'), [link('/u', [t('a [b] c')])]);
    assert.deepEqual(tokenizeInline('[a [b](/x) c](/y)'), [link('/y', [t('a [b](/x) c')])]);
    assert.deepEqual(tokenizeInline('[no target] and [x]( bad'), [t('[no target] and [x]( bad')]);
    assert.deepEqual(tokenizeInline('[a\\]b](/u)'), [link('/u', [t('a]b')])]);
    assert.deepEqual(tokenizeInline('[a\\]](/u)'), [link('/u', [t('a]')])]);
  });

  it('code spans inside a link label hide brackets', () => {
    assert.deepEqual(tokenizeInline('[a `]` b](/u)'), [link('/u', [t('a '), { type: 'code', value: ']' }, t(' b')])]);
    assert.deepEqual(tokenizeInline('[a `b](/u)'), [link('/u', [t('a `b')])]);
    assert.deepEqual(tokenizeInline('[`a`]`](/u)'), [t('['), { type: 'code', value: 'a' }, t(']`](/u)')]);
  });

  it('parses images with plain alt text', () => {
    assert.deepEqual(tokenizeInline('![*big* `cat`](/c.png "Cat")'), [
      { type: 'image', src: '/c.png', title: 'Cat', alt: 'big cat' },
    ]);
    assert.deepEqual(tokenizeInline('!not an image'), [t('!not an image')]);
  });

  it('parses URI and email autolinks', () => {
    assert.deepEqual(tokenizeInline('<https://x.org/a?b=1>'), [
      { type: 'link', href: 'https://x.org/a?b=1', title: '', autolink: true, children: [t('https://x.org/a?b=1')] },
    ]);
    assert.deepEqual(tokenizeInline('mail <me@ex.com>'), [
      t('mail '),
      { type: 'link', href: 'mailto:me@ex.com', title: '', autolink: true, children: [t('me@ex.com')] },
    ]);
    assert.deepEqual(tokenizeInline('<not a link> <a:b c>'), [t('<not a link> <a:b c>')]);
  });

  it('plainText flattens tokens', () => {
    const tokens = tokenizeInline('**Bold** `code` [link](/l) ![alt](/i)\nnext');
    assert.equal(plainText(tokens), 'Bold code link alt\nnext');
  });
});
