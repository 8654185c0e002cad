// Shared helpers for operators: picking, swapping texts, and removing whole
// statements without disturbing the rest of the file's formatting.
import type { Node } from '../../util/syntax.js';
import { descendants } from '../../util/syntax.js';
import type { Edit } from './types.js';

export function pick<T>(items: T[], rng: () => number): T | undefined {
  return items.length ? items[Math.floor(rng() * items.length)] : undefined;
}

export function nodesOfType(root: Node, types: string[]): Node[] {
  const set = new Set(types);
  return [...descendants(root)].filter((n) => set.has(n.type));
}

/** The anonymous operator token of a binary-like node. */
export function operatorToken(node: Node): Node | null {
  const byField = node.childForFieldName('operator');
  if (byField) return byField;
  return node.children.find((c) => c && !c.isNamed) ?? null;
}

/** Replaces two non-overlapping nodes' texts with each other's (a before b). */
export function swapEdit(source: string, a: Node, b: Node): Edit {
  return {
    start: a.startIndex,
    end: b.endIndex,
    text: source.slice(b.startIndex, b.endIndex) + source.slice(a.endIndex, b.startIndex) + source.slice(a.startIndex, a.endIndex),
  };
}

function lineStart(source: string, i: number): number {
  return source.lastIndexOf('\n', i - 1) + 1;
}

function lineEnd(source: string, i: number): number {
  const n = source.indexOf('\n', i);
  return n === -1 ? source.length : n + 1;
}

export function indentOf(source: string, node: Node): string {
  const start = lineStart(source, node.startIndex);
  return source.slice(start, node.startIndex).match(/^[ \t]*/)![0];
}

/** Statement siblings of a node that are named and not comments. */
function statementSiblings(node: Node): Node[] {
  return (node.parent?.namedChildren ?? []).filter((c): c is Node => Boolean(c) && c!.type !== 'comment');
}

/**
 * Deletes a statement. When it fills its lines, the lines go with it; when
 * the statement is the only one in a Python block, `pass` takes its place so
 * the file still parses.
 */
export function removeStatement(source: string, node: Node, python: boolean): Edit {
  const ls = lineStart(source, node.startIndex);
  const le = lineEnd(source, node.endIndex);
  const before = source.slice(ls, node.startIndex);
  const after = source.slice(node.endIndex, le);
  const ownLines = /^[ \t]*$/.test(before) && /^[ \t;]*\r?\n?$/.test(after);
  if (python && statementSiblings(node).length === 1) {
    return { start: node.startIndex, end: node.endIndex, text: 'pass' };
  }
  return ownLines ? { start: ls, end: le, text: '' } : { start: node.startIndex, end: node.endIndex, text: '' };
}

/**
 * The text of a block moved out `levels` of indentation: each line after the
 * first loses `from.length - to.length` leading characters (Python wrapper
 * removal needs the body one level to the left).
 */
export function dedent(text: string, drop: number): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? line : line.slice(Math.min(drop, line.match(/^[ \t]*/)![0].length))))
    .join('\n');
}

export function containsJump(node: Node): boolean {
  for (const n of descendants(node)) {
    if (['return_statement', 'throw_statement', 'raise_statement', 'break_statement', 'continue_statement'].includes(n.type)) return true;
  }
  return false;
}
