import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalize,
  countNodes,
  deepClone,
  deepEqual,
  findNonJson,
  isContainer,
  isPlainObject,
  kindOf,
} from '../src/equal.ts';

describe('equal', () => {
  it('classifies JSON kinds', () => {
    assert.equal(kindOf(null), 'null');
    assert.equal(kindOf(true), 'boolean');
    assert.equal(kindOf(0), 'number');
    assert.equal(kindOf(''), 'string');
    assert.equal(kindOf([]), 'array');
    assert.equal(kindOf({}), 'object');
    assert.equal(kindOf(Number.NaN), 'invalid');
    assert.equal(kindOf(Infinity), 'invalid');
    assert.equal(kindOf(undefined), 'invalid');
    assert.equal(kindOf(new Date(0)), 'invalid');
    assert.equal(kindOf(() => 1), 'invalid');
  });

  it('recognises plain objects and containers', () => {
    assert.equal(isPlainObject({ a: 1 }), true);
    assert.equal(isPlainObject(Object.create(null)), true);
    assert.equal(isPlainObject([]), false);
    assert.equal(isPlainObject(null), false);
    assert.equal(isPlainObject(new Map()), false);
    assert.equal(isContainer([]), true);
    assert.equal(isContainer({}), true);
    assert.equal(isContainer('x'), false);
  });

  it('compares scalars strictly', () => {
    assert.equal(deepEqual(1, 1), true);
    assert.equal(deepEqual(1, '1'), false);
    assert.equal(deepEqual(null, 0), false);
    assert.equal(deepEqual(false, 0), false);
    assert.equal(deepEqual('a', 'a'), true);
  });

  it('compares arrays by order and length', () => {
    assert.equal(deepEqual([1, [2, 3]], [1, [2, 3]]), true);
    assert.equal(deepEqual([1, 2], [2, 1]), false);
    assert.equal(deepEqual([1, 2], [1, 2, 3]), false);
    assert.equal(deepEqual([1, 2, 3], [1, 2]), false);
    assert.equal(deepEqual([], {}), false);
    assert.equal(deepEqual({}, []), false);
    assert.equal(deepEqual([0], [null]), false);
  });

  it('compares objects regardless of key order', () => {
    assert.equal(deepEqual({ a: 1, b: { c: [1] } }, { b: { c: [1] }, a: 1 }), true);
    assert.equal(deepEqual({ a: 1 }, { a: 1, b: 2 }), false);
    assert.equal(deepEqual({ a: 1, b: 2 }, { a: 1 }), false);
    assert.equal(deepEqual({ a: 1, b: 2 }, { a: 1, c: 2 }), false);
    assert.equal(deepEqual({ a: undefined }, { b: undefined }), false);
    assert.equal(deepEqual({ a: { b: 1 } }, { a: { b: 2 } }), false);
  });

  it('clones deeply without sharing structure', () => {
    const original = { a: [1, { b: 'x' }], c: null, d: true };
    const copy = deepClone(original);
    assert.deepEqual(copy, original);
    assert.notEqual(copy, original);
    assert.notEqual(copy.a, original.a);
    assert.notEqual(copy.a[1], original.a[1]);
    (copy.a[1] as { b: string }).b = 'changed';
    assert.equal((original.a[1] as { b: string }).b, 'x');
    assert.equal(deepClone(7), 7);
    assert.equal(deepClone(null), null);
  });

  it('refuses to clone non-JSON objects', () => {
    assert.throws(() => deepClone({ when: new Date(0) }), /Cannot clone a non-JSON object \(\[object Date\]\)/);
    assert.throws(() => deepClone([new Map()]), TypeError);
  });

  it('finds the first non-JSON value', () => {
    assert.equal(findNonJson({ a: [1, 2], b: 'x' }), null);
    assert.equal(findNonJson({ a: [1, undefined] }), '/a/1');
    assert.equal(findNonJson({ 'x/y': { '~': Number.NaN } }), '/x~1y/~0');
    assert.equal(findNonJson(undefined), '');
    assert.equal(findNonJson([Infinity, 1]), '/0');
    assert.equal(findNonJson([{}, [], { f: () => 0 }]), '/2/f');
    assert.equal(findNonJson({ ok: 1 }, '/base'), null);
  });

  it('canonicalizes with sorted keys', () => {
    assert.equal(canonicalize({ b: 1, a: [true, null, 'x'] }), '{"a":[true,null,"x"],"b":1}');
    assert.equal(canonicalize({ z: { d: 1, c: 2 }, y: [] }), '{"y":[],"z":{"c":2,"d":1}}');
    assert.equal(canonicalize({}), '{}');
    assert.equal(canonicalize('q"'), '"q\\""');
    assert.equal(canonicalize({ B: 1, a: 2, A: 3 }), '{"A":3,"B":1,"a":2}');
    assert.throws(() => canonicalize({ a: undefined }), /non-JSON/);
  });

  it('counts nodes of a tree', () => {
    assert.equal(countNodes(1), 1);
    assert.equal(countNodes([]), 1);
    assert.equal(countNodes([1, 2]), 3);
    assert.equal(countNodes({ a: [1, { b: 2 }], c: null }), 6);
  });
});
