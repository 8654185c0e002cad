import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  PointerError,
  append,
  compile,
  escapeToken,
  get,
  has,
  insert,
  isArrayIndex,
  isPrefixOf,
  lastToken,
  leaves,
  parent,
  parse,
  remove,
  resolveIndex,
  set,
  toFragment,
  unescapeToken,
} from '../src/pointer.ts';

const rfcDoc = {
  foo: ['bar', 'baz'],
  '': 0,
  'a/b': 1,
  'c%d': 2,
  'e^f': 3,
  'g|h': 4,
  'i\\j': 5,
  'k"l': 6,
  ' ': 7,
  'm~n': 8,
};

describe('pointer', () => {
  it('escapes and unescapes ~ and / in tokens', () => {
    assert.equal(escapeToken('a/b~c'), 'a~1b~0c');
    assert.equal(escapeToken('~1'), '~01');
    assert.equal(unescapeToken('a~1b~0c'), 'a/b~c');
    assert.equal(unescapeToken('~01'), '~1');
    assert.equal(unescapeToken('plain'), 'plain');
  });

  it('rejects invalid escape sequences', () => {
    assert.throws(() => unescapeToken('a~2'), { name: 'PointerError', message: 'Invalid escape sequence at offset 1 in token "a~2"' });
    assert.throws(() => unescapeToken('ends~'), /offset 4/);
    assert.throws(() => parse('/ok/bad~x'), (err: unknown) => err instanceof PointerError && err.pointer === '/ok/bad~x');
  });

  it('parses pointers into tokens', () => {
    assert.deepEqual(parse(''), []);
    assert.deepEqual(parse('/'), ['']);
    assert.deepEqual(parse('/foo/0'), ['foo', '0']);
    assert.deepEqual(parse('/a~1b/m~0n//x'), ['a/b', 'm~n', '', 'x']);
    assert.throws(() => parse('foo'), /must be empty or start with "\/"/);
  });

  it('parses URI fragment pointers', () => {
    assert.deepEqual(parse('#'), []);
    assert.deepEqual(parse('#/c%25d'), ['c%d']);
    assert.deepEqual(parse('#/a%20b/0'), ['a b', '0']);
    assert.throws(() => parse('#/%E0%A4%A'), /Malformed URI fragment/);
  });

  it('compiles tokens and round-trips through parse', () => {
    assert.equal(compile([]), '');
    assert.equal(compile(['a/b', 'm~n', 3]), '/a~1b/m~0n/3');
    const tokens = ['x', '', '~/', '0'];
    assert.deepEqual(parse(compile(tokens)), tokens);
  });

  it('renders fragments', () => {
    assert.equal(toFragment(''), '#');
    assert.equal(toFragment('/a b/c%d'), '#/a%20b/c%25d');
    assert.equal(toFragment('/m~0n'), '#/m~0n');
    assert.deepEqual(parse(toFragment('/a b/~1x')), ['a b', '/x']);
  });

  it('appends tokens, finds the parent and the last token', () => {
    assert.equal(append('/a', 'b/c', 0), '/a/b~1c/0');
    assert.equal(append('', 'x'), '/x');
    assert.equal(parent('/a/b/c'), '/a/b');
    assert.equal(parent('/a'), '');
    assert.throws(() => parent(''), /no parent/);
    assert.equal(lastToken('/a/b~1c'), 'b/c');
    assert.equal(lastToken(''), undefined);
  });

  it('tests prefixes, proper or not', () => {
    assert.equal(isPrefixOf('/a', '/a/b'), true);
    assert.equal(isPrefixOf('/a', '/a'), true);
    assert.equal(isPrefixOf('/a', '/a', true), false);
    assert.equal(isPrefixOf('/a', '/a/b', true), true);
    assert.equal(isPrefixOf('', '/x', true), true);
    assert.equal(isPrefixOf('/a/b', '/a'), false);
    assert.equal(isPrefixOf('/a', '/ab'), false);
    assert.equal(isPrefixOf('/a/c', '/a/b/c'), false);
  });

  it('recognises array index tokens', () => {
    assert.equal(isArrayIndex('0'), true);
    assert.equal(isArrayIndex('17'), true);
    assert.equal(isArrayIndex('01'), false);
    assert.equal(isArrayIndex('-1'), false);
    assert.equal(isArrayIndex('1e2'), false);
    assert.equal(isArrayIndex(''), false);
  });

  it('resolves array indexes with and without the end position', () => {
    assert.equal(resolveIndex('2', 3, false, '/2'), 2);
    assert.throws(() => resolveIndex('3', 3, false, '/3'), /out of bounds \(length 3\)/);
    assert.equal(resolveIndex('3', 3, true, '/3'), 3);
    assert.throws(() => resolveIndex('4', 3, true, '/4'), /out of bounds/);
    assert.equal(resolveIndex('-', 5, true, '/-'), 5);
    assert.throws(() => resolveIndex('-', 5, false, '/-'), /nonexistent/);
    assert.throws(() => resolveIndex('x', 5, true, '/x'), /Invalid array index "x"/);
    assert.throws(() => resolveIndex('0', 0, false, '/0'), /out of bounds/);
  });

  it('evaluates the RFC 6901 examples', () => {
    assert.deepEqual(get(rfcDoc, ''), rfcDoc);
    assert.deepEqual(get(rfcDoc, '/foo'), ['bar', 'baz']);
    assert.equal(get(rfcDoc, '/foo/0'), 'bar');
    assert.equal(get(rfcDoc, '/foo/1'), 'baz');
    assert.equal(get(rfcDoc, '/'), 0);
    assert.equal(get(rfcDoc, '/a~1b'), 1);
    assert.equal(get(rfcDoc, '/c%d'), 2);
    assert.equal(get(rfcDoc, '/ '), 7);
    assert.equal(get(rfcDoc, '/m~0n'), 8);
    assert.equal(get(rfcDoc, '#/c%25d'), 2);
    assert.equal(get(rfcDoc, ['foo', '1']), 'baz');
  });

  it('reports missing members and bad descents', () => {
    assert.throws(() => get({ a: 1 }, '/b'), /Missing member "b"/);
    assert.throws(() => get({ a: 1 }, '/a/b'), /in a number/);
    assert.throws(() => get({ a: null }, '/a/0'), /in a null/);
    assert.throws(() => get([1, 2], '/2'), /out of bounds/);
    assert.throws(() => get({ a: {} }, '/toString'), /Missing member/);
  });

  it('has reports presence without throwing', () => {
    const doc = { a: [0, { b: null }] };
    assert.equal(has(doc, '/a/1/b'), true);
    assert.equal(has(doc, '/a/2'), false);
    assert.equal(has(doc, '/a/-'), false);
    assert.equal(has(doc, 'bad'), false);
    assert.equal(has(doc, ''), true);
  });

  it('set overwrites members and array elements and appends at the end', () => {
    const doc: Record<string, unknown> = { a: { b: 1 }, list: [1, 2, 3] };
    assert.equal(set(doc, '/a/b', 2), doc);
    set(doc, '/a/c', 3);
    set(doc, '/list/1', 20);
    set(doc, '/list/-', 4);
    set(doc, '/list/4', 5);
    assert.deepEqual(doc, { a: { b: 2, c: 3 }, list: [1, 20, 3, 4, 5] });
    assert.deepEqual(set(doc, '', 'root'), 'root');
  });

  it('set fails on missing parents unless createMissing is given', () => {
    const doc: Record<string, unknown> = {};
    assert.throws(() => set(doc, '/x/y', 1), /Missing member "x"/);
    set(doc, '/x/y/0', 'first', { createMissing: true });
    set(doc, '/x/z/-', 'end', { createMissing: true });
    assert.deepEqual(doc, { x: { y: ['first'], z: ['end'] } });
    assert.throws(() => set([1], '/5', 1), /out of bounds/);
    assert.throws(() => set({ n: 1 }, '/n/x', 1), /not a container/);
  });

  it('refuses to write prototype-polluting members', () => {
    const doc: Record<string, unknown> = {};
    assert.throws(() => set(doc, '/__proto__', { polluted: true }), /unsafe member "__proto__"/);
    assert.throws(() => set(doc, '/constructor/prototype/x', 1, { createMissing: true }), /unsafe/);
    assert.throws(() => insert(doc, '/prototype', 1), /unsafe/);
    assert.deepEqual(doc, {});
  });

  it('insert shifts array elements right', () => {
    const doc = { list: ['a', 'c'] };
    insert(doc, '/list/1', 'b');
    insert(doc, '/list/0', 'start');
    insert(doc, '/list/-', 'end');
    insert(doc, '/list/5', 'last');
    assert.deepEqual(doc.list, ['start', 'a', 'b', 'c', 'end', 'last']);
    assert.throws(() => insert(doc, '/list/7', 'x'), /out of bounds/);
    assert.deepEqual(insert(doc, '', [1]), [1]);
  });

  it('remove deletes and returns the value', () => {
    const doc: Record<string, unknown> = { a: 1, b: { c: [10, 20, 30] } };
    assert.equal(remove(doc, '/b/c/1'), 20);
    assert.equal(remove(doc, '/a'), 1);
    assert.deepEqual(doc, { b: { c: [10, 30] } });
    assert.throws(() => remove(doc, '/a'), /Missing member "a"/);
    assert.throws(() => remove(doc, '/b/c/-'), /nonexistent/);
    assert.throws(() => remove(doc, '/b/c/2'), /out of bounds/);
    assert.throws(() => remove(doc, ''), /root/);
    assert.throws(() => remove(doc, '/missing/y'), /Missing member "missing"/);
    assert.throws(() => insert(doc, '/other/0', 1), /Missing member "other"/);
    assert.deepEqual(doc, { b: { c: [10, 30] } });
  });

  it('lists leaves depth first with escaped pointers', () => {
    const doc = { a: [1, { 'x/y': true }], e: {}, f: [], g: null };
    assert.deepEqual(leaves(doc), [
      ['/a/0', 1],
      ['/a/1/x~1y', true],
      ['/e', {}],
      ['/f', []],
      ['/g', null],
    ]);
    assert.deepEqual(leaves(5), [['', 5]]);
  });
});
