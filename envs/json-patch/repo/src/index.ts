export {
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
} from './pointer.ts';
export type { SetOptions } from './pointer.ts';
export {
  PatchError,
  applyOperation,
  applyPatch,
  applyPatchInPlace,
  passes,
  validate,
  validateOperation,
} from './patch.ts';
export type { Operation, PatchErrorCode } from './patch.ts';
export { diff, editScript, summarize } from './diff.ts';
export type { DiffOptions } from './diff.ts';
export {
  canonicalize,
  countNodes,
  deepClone,
  deepEqual,
  findNonJson,
  isContainer,
  isPlainObject,
  kindOf,
} from './equal.ts';
export type { JsonKind, JsonValue } from './equal.ts';
