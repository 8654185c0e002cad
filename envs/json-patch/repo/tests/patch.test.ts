import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  PatchError,
  applyOperation,
  applyPatch,
  applyPatchInPlace,
  passes,
  validate,
  validateOperation,
} from '../src/patch.ts';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof PatchError) {
      return `${err.code}@${err.index}`;
    }
    throw err;
  }
  return 'no error';
}

describe('patch', () => {
  it('adds object members and array elements', () => {
    const doc = { foo: ['bar', 'baz'], n: 1 };
    const result = applyPatch(doc, [
      { op: 'add', path: '/foo/1', value: 'qux' },
      { op: 'add', path: '/foo/-', value: 'end' },
      { op: 'add', path: '/child', value: { grand: 'x' } },
      { op: 'add', path: '/n', value: 2 },
    ]);
    assert.deepEqual(result, { foo: ['bar', 'qux', 'baz', 'end'], n: 2, child: { grand: 'x' } });
  });

  it('adds a whole new root', () => {
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: 'add', path: '', value: [1, 2] }]), [1, 2]);
  });

  it('adding with a missing parent fails', () => {
    assert.equal(codeOf(() => applyPatch({ q: { bar: 2 } }, [{ op: 'add', path: '/a/b', value: 1 }])), 'PATH_UNRESOLVABLE@0');
    assert.equal(codeOf(() => applyPatch([1, 2], [{ op: 'add', path: '/3', value: 1 }])), 'PATH_UNRESOLVABLE@0');
    assert.equal(codeOf(() => applyPatch([1], [{ op: 'add', path: '/01', value: 1 }])), 'PATH_UNRESOLVABLE@0');
  });

  it('removes members and elements', () => {
    const result = applyPatch({ a: 1, b: [1, 2, 3] }, [
      { op: 'remove', path: '/a' },
      { op: 'remove', path: '/b/0' },
    ]);
    assert.deepEqual(result, { b: [2, 3] });
    assert.equal(codeOf(() => applyPatch({}, [{ op: 'remove', path: '/x' }])), 'PATH_UNRESOLVABLE@0');
    assert.equal(codeOf(() => applyPatch({}, [{ op: 'remove', path: '' }])), 'ROOT_REMOVE@0');
  });

  it('replaces existing values only', () => {
    const result = applyPatch({ a: 1, b: [1, 2] }, [
      { op: 'replace', path: '/a', value: { x: true } },
      { op: 'replace', path: '/b/1', value: 9 },
    ]);
    assert.deepEqual(result, { a: { x: true }, b: [1, 9] });
    assert.equal(codeOf(() => applyPatch({ a: 1 }, [{ op: 'replace', path: '/b', value: 1 }])), 'PATH_UNRESOLVABLE@0');
    assert.equal(codeOf(() => applyPatch([1], [{ op: 'replace', path: '/-', value: 1 }])), 'PATH_UNRESOLVABLE@0');
    assert.equal(codeOf(() => applyPatch([1], [{ op: 'replace', path: '/1', value: 1 }])), 'PATH_UNRESOLVABLE@0');
    assert.equal(applyPatch({ a: 1 }, [{ op: 'replace', path: '', value: 'root' }]), 'root');
  });

  it('moves values, re-evaluating the target after removal', () => {
    const moved = applyPatch({ foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } }, [
      { op: 'move', from: '/foo/waldo', path: '/qux/thud' },
    ]);
    assert.deepEqual(moved, { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } });
    const reordered = applyPatch({ list: ['a', 'b', 'c', 'd'] }, [{ op: 'move', from: '/list/1', path: '/list/3' }]);
    assert.deepEqual(reordered, { list: ['a', 'c', 'd', 'b'] });
    const toFront = applyPatch(['a', 'b', 'c'], [{ op: 'move', from: '/2', path: '/0' }]);
    assert.deepEqual(toFront, ['c', 'a', 'b']);
  });

  it('move to the same place is a no-op but the source must exist', () => {
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: 'move', from: '/a', path: '/a' }]), { a: 1 });
    assert.equal(codeOf(() => applyPatch({ a: 1 }, [{ op: 'move', from: '/b', path: '/b' }])), 'FROM_UNRESOLVABLE@0');
    assert.equal(codeOf(() => applyPatch({ a: 1 }, [{ op: 'move', from: '/b', path: '/c' }])), 'FROM_UNRESOLVABLE@0');
    assert.equal(codeOf(() => applyPatch({ a: 1 }, [{ op: 'move', from: '/a', path: '/x/y' }])), 'PATH_UNRESOLVABLE@0');
  });

  it('copies values deeply', () => {
    const result = applyPatch({ a: { b: [1] }, list: [0] }, [
      { op: 'copy', from: '/a', path: '/c' },
      { op: 'copy', from: '/a/b/0', path: '/list/0' },
      { op: 'add', path: '/c/b/-', value: 2 },
    ]) as Record<string, unknown>;
    assert.deepEqual(result, { a: { b: [1] }, list: [1, 0], c: { b: [1, 2] } });
    assert.equal(codeOf(() => applyPatch({}, [{ op: 'copy', from: '/nope', path: '/x' }])), 'FROM_UNRESOLVABLE@0');
  });

  it('test compares values deeply', () => {
    const doc = { baz: 'qux', foo: ['a', 2, 'c'], obj: { x: 1, y: [null] } };
    assert.deepEqual(applyPatch(doc, [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
      { op: 'test', path: '/obj', value: { y: [null], x: 1 } },
    ]), doc);
    assert.equal(codeOf(() => applyPatch(doc, [{ op: 'test', path: '/foo/1', value: '2' }])), 'TEST_FAILED@0');
    assert.equal(codeOf(() => applyPatch(doc, [{ op: 'test', path: '/missing', value: 1 }])), 'PATH_UNRESOLVABLE@0');
  });

  it('validates the shape of operations', () => {
    assert.equal(codeOf(() => validateOperation('add', 3)), 'INVALID_OPERATION@3');
    assert.equal(codeOf(() => validateOperation({ op: 'merge', path: '' })), 'INVALID_OP@0');
    assert.equal(codeOf(() => validateOperation({ path: '/a' })), 'INVALID_OP@0');
    assert.equal(codeOf(() => validateOperation({ op: 'remove' })), 'INVALID_PATH@0');
    assert.equal(codeOf(() => validateOperation({ op: 'remove', path: 'a' })), 'INVALID_PATH@0');
    assert.equal(codeOf(() => validateOperation({ op: 'copy', path: '/a' })), 'INVALID_FROM@0');
    assert.equal(codeOf(() => validateOperation({ op: 'move', path: '/a', from: '/b~' })), 'INVALID_FROM@0');
    assert.equal(codeOf(() => validateOperation({ op: 'add', path: '/a' })), 'MISSING_VALUE@0');
    assert.equal(codeOf(() => validateOperation({ op: 'test', path: '/a', value: undefined })), 'MISSING_VALUE@0');
    assert.equal(codeOf(() => validateOperation({ op: 'replace', path: '/a', value: { n: Number.NaN } })), 'INVALID_VALUE@0');
    assert.equal(codeOf(() => validateOperation({ op: 'move', path: '/a/b', from: '/a' })), 'MOVE_INTO_CHILD@0');
    assert.equal(codeOf(() => validateOperation({ op: 'copy', path: '/a/b', from: '/a' })), 'no error');
    assert.equal(codeOf(() => validateOperation({ op: 'remove', path: '/a' })), 'no error');
    assert.equal(codeOf(() => validateOperation({ op: 'add', path: '/a', value: null })), 'no error');
  });

  it('error messages carry the operation index', () => {
    const patch = [
      { op: 'test', path: '/a', value: 1 },
      { op: 'replace', path: '/a', value: 2 },
      { op: 'test', path: '/a', value: 1 },
    ];
    const err = validate(patch, { a: 1 });
    assert.ok(err instanceof PatchError);
    assert.equal(err.code, 'TEST_FAILED');
    assert.equal(err.index, 2);
    assert.deepEqual(err.operation, patch[2]);
    assert.equal(err.message, 'Operation 2: test failed at "/a"');
    assert.equal(validate([{ op: 'add', path: '/a', value: { n: [undefined] } }])?.message,
      'Operation 0: "value" is not JSON at "/n/0"');
    assert.equal(validate(null)?.message, 'a patch must be an array of operations');
    assert.equal(validate([{ op: 'copy', path: '/a', from: 'b' }])?.message,
      'Operation 0: "from" is not a valid JSON Pointer: A JSON Pointer must be empty or start with "/": "b"');
    assert.equal(validate([{ op: 'add', path: '/a', value: 1 }, { op: 'remove', path: 7 }])?.message,
      'Operation 1: "path" must be a string');
  });

  it('is atomic: a failing patch leaves the input untouched', () => {
    const doc = { a: [1, 2], b: { c: 'd' } };
    const snapshot = JSON.parse(JSON.stringify(doc));
    assert.throws(
      () => applyPatch(doc, [
        { op: 'remove', path: '/a/0' },
        { op: 'add', path: '/b/e', value: 1 },
        { op: 'replace', path: '/zzz', value: 0 },
      ]),
      PatchError,
    );
    assert.deepEqual(doc, snapshot);
  });

  it('never mutates the input nor shares values with the patch', () => {
    const doc = { list: [1] };
    const value = { deep: [1] };
    const result = applyPatch(doc, [{ op: 'add', path: '/v', value }]) as { v: { deep: number[] } };
    result.v.deep.push(2);
    assert.deepEqual(value, { deep: [1] });
    assert.deepEqual(doc, { list: [1] });
  });

  it('rejects patches that are not arrays', () => {
    assert.equal(codeOf(() => applyPatch({}, { op: 'add' })), 'INVALID_PATCH@-1');
    assert.equal(validate('nope')?.code, 'INVALID_PATCH');
    assert.equal(validate({}, { a: 1 })?.code, 'INVALID_PATCH');
  });

  it('validate checks shapes alone, or against a document', () => {
    const patch = [{ op: 'remove', path: '/a' }, { op: 'add', path: '/b' }];
    assert.equal(validate(patch)?.code, 'MISSING_VALUE');
    assert.equal(validate(patch)?.index, 1);
    assert.equal(validate([{ op: 'remove', path: '/a' }]), null);
    assert.equal(validate([{ op: 'remove', path: '/a' }], { b: 1 })?.code, 'PATH_UNRESOLVABLE');
    assert.equal(validate([{ op: 'remove', path: '/a' }], { a: 1 }), null);
  });

  it('passes reports whether a patch applies cleanly', () => {
    const doc = { v: 3 };
    assert.equal(passes(doc, [{ op: 'test', path: '/v', value: 3 }]), true);
    assert.equal(passes(doc, [{ op: 'test', path: '/v', value: 4 }]), false);
    assert.equal(passes(doc, [{ op: 'replace', path: '/v', value: 4 }, { op: 'test', path: '/v', value: 4 }]), true);
    assert.deepEqual(doc, { v: 3 });
  });

  it('applyOperation mutates and returns the root', () => {
    const doc = { a: [1] };
    const root = applyOperation(doc, { op: 'add', path: '/a/0', value: 0 });
    assert.equal(root, doc);
    assert.deepEqual(doc, { a: [0, 1] });
    assert.equal(applyOperation(doc, { op: 'replace', path: '', value: 5 }), 5);
    assert.equal(codeOf(() => applyOperation(doc, { op: 'remove', path: '/b' }, 7)), 'PATH_UNRESOLVABLE@7');
  });

  it('applies in place only on success', () => {
    const target: Record<string, unknown> = { keep: 1, drop: 2 };
    applyPatchInPlace(target, [
      { op: 'remove', path: '/drop' },
      { op: 'add', path: '/new', value: [1] },
    ]);
    assert.deepEqual(target, { keep: 1, new: [1] });
    assert.throws(() => applyPatchInPlace(target, [
      { op: 'remove', path: '/keep' },
      { op: 'test', path: '/new', value: [2] },
    ]), PatchError);
    assert.deepEqual(target, { keep: 1, new: [1] });
  });

  it('applies in place to arrays and refuses to change the root kind', () => {
    const list: unknown[] = [3, 1, 2];
    applyPatchInPlace(list, [{ op: 'move', from: '/0', path: '/-' }, { op: 'add', path: '/0', value: 0 }]);
    assert.deepEqual(list, [0, 1, 2, 3]);
    assert.equal(codeOf(() => applyPatchInPlace(list, [{ op: 'replace', path: '', value: {} }])), 'INVALID_PATCH@-1');
    assert.equal(codeOf(() => applyPatchInPlace({ a: 1 }, [{ op: 'replace', path: '', value: [] }])), 'INVALID_PATCH@-1');
    assert.deepEqual(list, [0, 1, 2, 3]);
  });
});
