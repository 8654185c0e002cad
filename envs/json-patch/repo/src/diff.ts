// Computes a JSON Patch that turns one document into another. Objects are
// compared member by member; arrays use a longest-common-subsequence edit
// script after trimming their common prefix and suffix.

import { deepClone, deepEqual, hasOwn, isPlainObject } from './equal.ts';
import { compile } from './pointer.ts';
import type { Operation } from './patch.ts';

export interface DiffOptions {
  /** Precede every remove/replace with a "test" of the old value. */
  invertible?: boolean;
  /** Above this many LCS table cells, arrays are diffed position by position. */
  maxLcsCells?: number;
}

type Edit =
  | { kind: 'keep' }
  | { kind: 'remove'; from: unknown }
  | { kind: 'add'; to: unknown }
  | { kind: 'change'; from: unknown; to: unknown };

interface Context {
  ops: Operation[];
  invertible: boolean;
  maxLcsCells: number;
}

export function diff(source: unknown, target: unknown, options: DiffOptions = {}): Operation[] {
  const context: Context = {
    ops: [],
    invertible: options.invertible === true,
    maxLcsCells: options.maxLcsCells ?? 250000,
  };
  diffValue(source, target, [], context);
  return context.ops;
}

function pushTest(path: string, value: unknown, context: Context): void {
  if (context.invertible) {
    context.ops.push({ op: 'test', path, value: deepClone(value) });
  }
}

function diffValue(source: unknown, target: unknown, path: string[], context: Context): void {
  if (deepEqual(source, target)) {
    return;
  }
  if (Array.isArray(source) && Array.isArray(target)) {
    diffArray(source, target, path, context);
    return;
  }
  if (isPlainObject(source) && isPlainObject(target)) {
    diffObject(source, target, path, context);
    return;
  }
  const where = compile(path);
  pushTest(where, source, context);
  context.ops.push({ op: 'replace', path: where, value: deepClone(target) });
}

function diffObject(
  source: Record<string, unknown>,
  target: Record<string, unknown>,
  path: string[],
  context: Context,
): void {
  for (const key of Object.keys(source)) {
    if (!hasOwn(target, key)) {
      const where = compile([...path, key]);
      pushTest(where, source[key], context);
      context.ops.push({ op: 'remove', path: where });
    }
  }
  for (const key of Object.keys(target)) {
    if (hasOwn(source, key)) {
      diffValue(source[key], target[key], [...path, key], context);
    } else {
      context.ops.push({ op: 'add', path: compile([...path, key]), value: deepClone(target[key]) });
    }
  }
}

/** Length of the longest common subsequence of every pair of suffixes. */
function lcsTable(a: unknown[], b: unknown[]): number[][] {
  const table: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    table.push(new Array<number>(b.length + 1).fill(0));
  }
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      if (deepEqual(a[i], b[j])) {
        table[i][j] = table[i + 1][j + 1] + 1;
      } else {
        table[i][j] = Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
  }
  return table;
}

/** Edit script turning `a` into `b`, favouring in-place changes over remove+add. */
export function editScript(a: unknown[], b: unknown[], maxLcsCells = 250000): Edit[] {
  const edits: Edit[] = [];
  if ((a.length + 1) * (b.length + 1) > maxLcsCells) {
    const common = Math.min(a.length, b.length);
    for (let k = 0; k < common; k += 1) {
      edits.push(deepEqual(a[k], b[k]) ? { kind: 'keep' } : { kind: 'change', from: a[k], to: b[k] });
    }
    for (let k = common; k < a.length; k += 1) {
      edits.push({ kind: 'remove', from: a[k] });
    }
    for (let k = common; k < b.length; k += 1) {
      edits.push({ kind: 'add', to: b[k] });
    }
    return edits;
  }
  const table = lcsTable(a, b);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (deepEqual(a[i], b[j])) {
      edits.push({ kind: 'keep' });
      i += 1;
      j += 1;
    } else if (table[i + 1][j + 1] === table[i][j]) {
      edits.push({ kind: 'change', from: a[i], to: b[j] });
      i += 1;
      j += 1;
    } else if (table[i + 1][j] >= table[i][j + 1]) {
      edits.push({ kind: 'remove', from: a[i] });
      i += 1;
    } else {
      edits.push({ kind: 'add', to: b[j] });
      j += 1;
    }
  }
  for (; i < a.length; i += 1) {
    edits.push({ kind: 'remove', from: a[i] });
  }
  for (; j < b.length; j += 1) {
    edits.push({ kind: 'add', to: b[j] });
  }
  return edits;
}

function diffArray(source: unknown[], target: unknown[], path: string[], context: Context): void {
  let start = 0;
  while (start < source.length && start < target.length && deepEqual(source[start], target[start])) {
    start += 1;
  }
  let endSource = source.length;
  let endTarget = target.length;
  while (endSource > start && endTarget > start && deepEqual(source[endSource - 1], target[endTarget - 1])) {
    endSource -= 1;
    endTarget -= 1;
  }
  const edits = editScript(source.slice(start, endSource), target.slice(start, endTarget), context.maxLcsCells);
  let position = start;
  for (const edit of edits) {
    switch (edit.kind) {
      case 'keep':
        position += 1;
        break;
      case 'change':
        diffValue(edit.from, edit.to, [...path, String(position)], context);
        position += 1;
        break;
      case 'remove': {
        const where = compile([...path, String(position)]);
        pushTest(where, edit.from, context);
        context.ops.push({ op: 'remove', path: where });
        break;
      }
      case 'add':
        context.ops.push({ op: 'add', path: compile([...path, String(position)]), value: deepClone(edit.to) });
        position += 1;
        break;
    }
  }
}

/** Summarizes a patch as the number of operations of each kind. */
export function summarize(patch: readonly Operation[]): Record<Operation['op'], number> {
  const counts = { add: 0, remove: 0, replace: 0, move: 0, copy: 0, test: 0 };
  for (const operation of patch) {
    counts[operation.op] += 1;
  }
  return counts;
}
