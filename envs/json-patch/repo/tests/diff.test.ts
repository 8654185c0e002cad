import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diff, editScript, summarize } from '../src/diff.ts';
import { applyPatch } from '../src/patch.ts';

function roundTrip(source: unknown, target: unknown, options = {}): void {
  const patch = diff(source, target, options);
  assert.deepEqual(applyPatch(source, patch), target);
}

describe('diff', () => {
  it('returns an empty patch for equal documents', () => {
    assert.deepEqual(diff({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), []);
    assert.deepEqual(diff(3, 3), []);
  });

  it('replaces the root when kinds differ', () => {
    assert.deepEqual(diff({ a: 1 }, [1]), [{ op: 'replace', path: '', value: [1] }]);
    assert.deepEqual(diff('x', null), [{ op: 'replace', path: '', value: null }]);
  });

  it('diffs object members: removals first, then changes and additions', () => {
    const patch = diff({ a: 1, b: 2, c: { d: 3 } }, { c: { d: 4 }, b: 2, e: 5 });
    assert.deepEqual(patch, [
      { op: 'remove', path: '/a' },
      { op: 'replace', path: '/c/d', value: 4 },
      { op: 'add', path: '/e', value: 5 },
    ]);
  });

  it('escapes member names in paths', () => {
    assert.deepEqual(diff({ 'a/b': 1 }, { 'a/b': 2, 'm~n': 3 }), [
      { op: 'replace', path: '/a~1b', value: 2 },
      { op: 'add', path: '/m~0n', value: 3 },
    ]);
  });

  it('appends and truncates arrays', () => {
    assert.deepEqual(diff([1, 2], [1, 2, 3, 4]), [
      { op: 'add', path: '/2', value: 3 },
      { op: 'add', path: '/3', value: 4 },
    ]);
    assert.deepEqual(diff([1, 2, 3, 4], [1, 2]), [
      { op: 'remove', path: '/2' },
      { op: 'remove', path: '/2' },
    ]);
  });

  it('inserts and removes in the middle of arrays', () => {
    assert.deepEqual(diff([1, 2, 3], [1, 9, 2, 3]), [{ op: 'add', path: '/1', value: 9 }]);
    assert.deepEqual(diff([1, 2, 3], [2, 3]), [{ op: 'remove', path: '/0' }]);
    assert.deepEqual(diff([1, 1], [1]), [{ op: 'remove', path: '/1' }]);
    assert.deepEqual(diff([1], [1, 1]), [{ op: 'add', path: '/1', value: 1 }]);
    assert.deepEqual(diff(['x', 1, 'y', 1], [1]), [
      { op: 'remove', path: '/0' },
      { op: 'remove', path: '/0' },
      { op: 'remove', path: '/0' },
    ]);
    assert.deepEqual(diff(['a', 'x', 'b'], ['y', 'a', 'b']), [
      { op: 'add', path: '/0', value: 'y' },
      { op: 'remove', path: '/2' },
    ]);
  });

  it('changes array elements in place when nothing is kept', () => {
    assert.deepEqual(diff([1, 2], [3, 4]), [
      { op: 'replace', path: '/0', value: 3 },
      { op: 'replace', path: '/1', value: 4 },
    ]);
    assert.deepEqual(diff([0, { a: 1, b: 1 }, 9], [0, { a: 2, b: 1 }, 9]), [
      { op: 'replace', path: '/1/a', value: 2 },
    ]);
  });

  it('produces patches that apply back to the target', () => {
    roundTrip([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]);
    roundTrip(['a', 'b', 'c', 'd', 'e', 'f'], ['b', 'x', 'd', 'e', 'y', 'f', 'z']);
    roundTrip({ list: [{ id: 1 }, { id: 2 }, { id: 3 }] }, { list: [{ id: 2 }, { id: 3, v: 1 }, { id: 4 }] });
    roundTrip({ a: { b: { c: [1, [2, 3]] } } }, { a: { b: { c: [1, [3, 2], 4] }, d: null } });
    roundTrip([], [[], {}, '']);
    roundTrip([[], {}, ''], []);
  });

  it('emits tests of old values when invertible', () => {
    assert.deepEqual(diff({ a: 1, b: [1, 2] }, { b: [2] }, { invertible: true }), [
      { op: 'test', path: '/a', value: 1 },
      { op: 'remove', path: '/a' },
      { op: 'test', path: '/b/0', value: 1 },
      { op: 'remove', path: '/b/0' },
    ]);
    assert.deepEqual(diff({ a: 1 }, { a: 2, n: 0 }, { invertible: true }), [
      { op: 'test', path: '/a', value: 1 },
      { op: 'replace', path: '/a', value: 2 },
      { op: 'add', path: '/n', value: 0 },
    ]);
    roundTrip([1, 2, 3, 4], [4, 3, 9], { invertible: true });
  });

  it('falls back to position-by-position diffs for large arrays', () => {
    const patch = diff([1, 2, 3, 4], [0, 1, 2, 3], { maxLcsCells: 10 });
    assert.deepEqual(patch, [
      { op: 'replace', path: '/0', value: 0 },
      { op: 'replace', path: '/1', value: 1 },
      { op: 'replace', path: '/2', value: 2 },
      { op: 'replace', path: '/3', value: 3 },
    ]);
    assert.deepEqual(diff([1, 2, 3, 4], [0, 1, 2, 3]), [
      { op: 'add', path: '/0', value: 0 },
      { op: 'remove', path: '/4' },
    ]);
    roundTrip([1, 2, 3, 4, 5, 6], [9, 2, 8], { maxLcsCells: 4 });
    roundTrip([7, 8], [1, 7, 8, 9, 10], { maxLcsCells: 2 });
  });

  it('builds edit scripts', () => {
    assert.deepEqual(editScript([1, 2, 3], [1, 3]), [{ kind: 'keep' }, { kind: 'remove', from: 2 }, { kind: 'keep' }]);
    assert.deepEqual(editScript([1], [2, 1]), [{ kind: 'add', to: 2 }, { kind: 'keep' }]);
    assert.deepEqual(editScript(['a'], ['b']), [{ kind: 'change', from: 'a', to: 'b' }]);
    assert.deepEqual(editScript([2, 1], [1]), [{ kind: 'remove', from: 2 }, { kind: 'keep' }]);
    assert.deepEqual(editScript([1, 2], [2, 1], 9), [{ kind: 'remove', from: 1 }, { kind: 'keep' }, { kind: 'add', to: 1 }]);
    assert.deepEqual(editScript([1, 2], [2, 1], 8), [
      { kind: 'change', from: 1, to: 2 },
      { kind: 'change', from: 2, to: 1 },
    ]);
    assert.deepEqual(editScript([5, 1, 2], [1, 2, 6]), [
      { kind: 'remove', from: 5 },
      { kind: 'keep' },
      { kind: 'keep' },
      { kind: 'add', to: 6 },
    ]);
    assert.deepEqual(editScript([1, 2], [1, 2, 3], 4), [{ kind: 'keep' }, { kind: 'keep' }, { kind: 'add', to: 3 }]);
    assert.deepEqual(editScript([5, 6, 7], [6], 2), [
      { kind: 'change', from: 5, to: 6 },
      { kind: 'remove', from: 6 },
      { kind: 'remove', from: 7 },
    ]);
  });

  it('does not share values with the target', () => {
    const target = { a: { deep: [1] } };
    const patch = diff({}, target);
    (patch[0] as { value: { deep: number[] } }).value.deep.push(2);
    assert.deepEqual(target, { a: { deep: [1] } });
  });

  it('summarizes patches', () => {
    const patch = diff({ a: 1, b: 2, list: [1] }, { a: 3, c: 4, list: [] }, { invertible: true });
    assert.deepEqual(summarize(patch), { add: 1, remove: 2, replace: 1, move: 0, copy: 0, test: 3 });
    assert.deepEqual(summarize([]), { add: 0, remove: 0, replace: 0, move: 0, copy: 0, test: 0 });
  });
});
