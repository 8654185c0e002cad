// RFC 6902 JSON Patch: operation validation and atomic application.

import { deepClone, deepEqual, findNonJson, hasOwn, isPlainObject } from './equal.ts';
import * as pointer from './pointer.ts';

export interface AddOperation { op: 'add'; path: string; value: unknown }
export interface RemoveOperation { op: 'remove'; path: string }
export interface ReplaceOperation { op: 'replace'; path: string; value: unknown }
export interface MoveOperation { op: 'move'; from: string; path: string }
export interface CopyOperation { op: 'copy'; from: string; path: string }
export interface TestOperation { op: 'test'; path: string; value: unknown }

export type Operation =
  | AddOperation
  | RemoveOperation
  | ReplaceOperation
  | MoveOperation
  | CopyOperation
  | TestOperation;

export type PatchErrorCode =
  | 'INVALID_PATCH'
  | 'INVALID_OPERATION'
  | 'INVALID_OP'
  | 'INVALID_PATH'
  | 'INVALID_FROM'
  | 'MISSING_VALUE'
  | 'INVALID_VALUE'
  | 'MOVE_INTO_CHILD'
  | 'PATH_UNRESOLVABLE'
  | 'FROM_UNRESOLVABLE'
  | 'ROOT_REMOVE'
  | 'TEST_FAILED';

export class PatchError extends Error {
  readonly code: PatchErrorCode;
  readonly index: number;
  readonly operation: unknown;

  constructor(code: PatchErrorCode, message: string, index: number, operation: unknown) {
    super(index >= 0 ? `Operation ${index}: ${message}` : message);
    this.name = 'PatchError';
    this.code = code;
    this.index = index;
    this.operation = operation;
  }
}

const OPERATIONS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

function checkPointer(value: unknown, field: 'path' | 'from', index: number, operation: unknown): string {
  const code = field === 'path' ? 'INVALID_PATH' : 'INVALID_FROM';
  if (typeof value !== 'string') {
    throw new PatchError(code, `"${field}" must be a string`, index, operation);
  }
  try {
    pointer.parse(value);
  } catch (err) {
    if (err instanceof pointer.PointerError) {
      throw new PatchError(code, `"${field}" is not a valid JSON Pointer: ${err.message}`, index, operation);
    }
    throw err;
  }
  return value;
}

/** Checks the shape of one operation and returns it typed; throws PatchError otherwise. */
export function validateOperation(operation: unknown, index = 0): Operation {
  if (!isPlainObject(operation)) {
    throw new PatchError('INVALID_OPERATION', 'an operation must be an object', index, operation);
  }
  const op = operation.op;
  if (typeof op !== 'string' || !OPERATIONS.has(op)) {
    throw new PatchError('INVALID_OP', `unknown operation "${String(op)}"`, index, operation);
  }
  const path = checkPointer(operation.path, 'path', index, operation);
  if (op === 'move' || op === 'copy') {
    const from = checkPointer(operation.from, 'from', index, operation);
    if (op === 'move' && pointer.isPrefixOf(from, path, true)) {
      throw new PatchError('MOVE_INTO_CHILD', `cannot move "${from}" into its own child "${path}"`, index, operation);
    }
  } else if (op !== 'remove') {
    if (!hasOwn(operation, 'value') || operation.value === undefined) {
      throw new PatchError('MISSING_VALUE', `"${op}" requires a "value"`, index, operation);
    }
    const bad = findNonJson(operation.value);
    if (bad !== null) {
      throw new PatchError('INVALID_VALUE', `"value" is not JSON at "${bad}"`, index, operation);
    }
  }
  return operation as unknown as Operation;
}

function guard<T>(code: PatchErrorCode, index: number, operation: Operation, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof pointer.PointerError) {
      throw new PatchError(code, err.message, index, operation);
    }
    throw err;
  }
}

/**
 * Applies one (already validated) operation to `document`, mutating it where
 * possible, and returns the resulting root.
 */
export function applyOperation(document: unknown, operation: Operation, index = 0): unknown {
  switch (operation.op) {
    case 'add':
      return guard('PATH_UNRESOLVABLE', index, operation, () =>
        pointer.insert(document, operation.path, deepClone(operation.value)),
      );
    case 'remove':
      if (operation.path === '') {
        throw new PatchError('ROOT_REMOVE', 'cannot remove the document root', index, operation);
      }
      guard('PATH_UNRESOLVABLE', index, operation, () => pointer.remove(document, operation.path));
      return document;
    case 'replace':
      return guard('PATH_UNRESOLVABLE', index, operation, () => {
        pointer.get(document, operation.path);
        return pointer.set(document, operation.path, deepClone(operation.value));
      });
    case 'move': {
      if (operation.from === operation.path) {
        guard('FROM_UNRESOLVABLE', index, operation, () => pointer.get(document, operation.from));
        return document;
      }
      const value = guard('FROM_UNRESOLVABLE', index, operation, () => pointer.remove(document, operation.from));
      return guard('PATH_UNRESOLVABLE', index, operation, () => pointer.insert(document, operation.path, value));
    }
    case 'copy': {
      const value = guard('FROM_UNRESOLVABLE', index, operation, () => pointer.get(document, operation.from));
      return guard('PATH_UNRESOLVABLE', index, operation, () =>
        pointer.insert(document, operation.path, deepClone(value)),
      );
    }
    case 'test': {
      const actual = guard('PATH_UNRESOLVABLE', index, operation, () => pointer.get(document, operation.path));
      if (!deepEqual(actual, operation.value)) {
        throw new PatchError('TEST_FAILED', `test failed at "${operation.path}"`, index, operation);
      }
      return document;
    }
    default:
      throw new PatchError('INVALID_OP', 'unknown operation', index, operation);
  }
}

/**
 * Applies a whole patch atomically: the input document is never modified, and
 * the patched copy is returned only if every operation succeeded.
 */
export function applyPatch(document: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) {
    throw new PatchError('INVALID_PATCH', 'a patch must be an array of operations', -1, patch);
  }
  let result = deepClone(document);
  for (let i = 0; i < patch.length; i += 1) {
    const operation = validateOperation(patch[i], i);
    result = applyOperation(result, operation, i);
  }
  return result;
}

/**
 * Applies a patch to a container in place. The container changes only when
 * the whole patch succeeds and the root keeps its kind (array or object).
 */
export function applyPatchInPlace(target: Record<string, unknown> | unknown[], patch: unknown): void {
  const result = applyPatch(target, patch);
  if (Array.isArray(target)) {
    if (!Array.isArray(result)) {
      throw new PatchError('INVALID_PATCH', 'an in-place patch cannot change the root kind', -1, patch);
    }
    target.splice(0, target.length, ...result);
    return;
  }
  if (!isPlainObject(target) || !isPlainObject(result)) {
    throw new PatchError('INVALID_PATCH', 'an in-place patch cannot change the root kind', -1, patch);
  }
  for (const key of Object.keys(target)) {
    if (!hasOwn(result, key)) {
      delete target[key];
    }
  }
  for (const key of Object.keys(result)) {
    target[key] = result[key];
  }
}

/**
 * Returns the first problem of a patch as a PatchError, or null when it is
 * valid. With a document, the patch is also tried against it (without change).
 */
export function validate(patch: unknown, document?: unknown): PatchError | null {
  try {
    if (document !== undefined) {
      applyPatch(document, patch);
    } else if (!Array.isArray(patch)) {
      throw new PatchError('INVALID_PATCH', 'a patch must be an array of operations', -1, patch);
    } else {
      patch.forEach((operation, i) => validateOperation(operation, i));
    }
    return null;
  } catch (err) {
    if (err instanceof PatchError) {
      return err;
    }
    throw err;
  }
}

/** True when the whole patch (its "test" operations included) applies cleanly to `document`. */
export function passes(document: unknown, patch: unknown): boolean {
  const error = validate(patch, document);
  return error === null;
}
