// Equality assertions in test sources, with the value under test ("actual")
// and the value it is compared with ("expected") told apart: node:assert,
// tape and ava calls (`assert.equal(actual, expected)`), Jest/Vitest/Chai
// `expect(actual).toBe(expected)`, pytest `assert actual == expected` and
// unittest `assertEqual(actual, expected)`. Honeypots change the expected
// literal (contradict.ts); generated checks vary the inputs and compute the
// expected value anew (variants.ts).
import type { Node } from '../../util/syntax.js';

export interface Equality {
  /** The whole assertion: the call, or Python's assert statement. */
  node: Node;
  actual: Node;
  expected: Node;
  /** Compares structure (deepEqual, toEqual): an object or array may stand as the expected value. */
  deep: boolean;
}

export const JS_ASSERT_EQ = new Set(['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'is', 'same', 'strictSame', 'equals', 'deepEquals', 'eq', 'eql']);
export const JS_EXPECT_EQ = new Set(['toBe', 'toEqual', 'toStrictEqual', 'equal', 'equals', 'eq', 'eql']);
const JS_DEEP = new Set(['deepEqual', 'deepStrictEqual', 'same', 'strictSame', 'deepEquals', 'eql', 'toEqual', 'toStrictEqual']);
export const PY_ASSERT_EQ = new Set([
  'assertEqual',
  'assertEquals',
  'assertListEqual',
  'assertTupleEqual',
  'assertDictEqual',
  'assertSetEqual',
  'assertSequenceEqual',
  'assertMultiLineEqual',
  'assertCountEqual',
  'assertAlmostEqual',
]);

const LITERALS = new Set(['number', 'integer', 'float', 'string', 'template_string', 'true', 'false', 'null', 'none', 'undefined']);
const CONTAINERS = new Set(['array', 'list', 'tuple', 'set', 'object', 'dictionary', 'parenthesized_expression', 'pair', 'unary_expression', 'unary_operator']);

/** Whether an expression is a literal, or a container (or approx call) holding one: the side that states an expected value. */
export function hasLiteral(node: Node, depth = 0): boolean {
  if (LITERALS.has(node.type)) return true;
  if (depth > 3) return false;
  if (CONTAINERS.has(node.type)) return node.namedChildren.some((c) => c !== null && hasLiteral(c, depth + 1));
  if (node.type === 'call' && /(^|\.)approx$/.test(node.childForFieldName('function')?.text ?? '')) {
    const first = node.childForFieldName('arguments')?.namedChildren[0];
    return first ? hasLiteral(first, depth + 1) : false;
  }
  return false;
}

const args = (call: Node): Node[] => (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => a !== null);

/**
 * The root `expect(actual)` of a chain like `expect(x).to.deep.equal`, and
 * whether the chain says deep; null for a chain with `not`, `resolves` or
 * `rejects` (the compared value is not the actual one).
 */
export function expectRoot(node: Node | null): { call: Node; deep: boolean } | null {
  let deep = false;
  for (let n = node; n; ) {
    if (n.type === 'member_expression') {
      const prop = n.childForFieldName('property')?.text ?? '';
      if (prop === 'not' || prop === 'resolves' || prop === 'rejects') return null;
      if (prop === 'deep') deep = true;
      n = n.childForFieldName('object');
    } else if (n.type === 'call_expression') {
      const fn = n.childForFieldName('function');
      if (fn?.type === 'identifier' && fn.text === 'expect') return { call: n, deep };
      n = fn;
    } else break;
  }
  return null;
}

/** A JavaScript or TypeScript equality assertion at this node, if it is one. */
export function jsEquality(node: Node): Equality | null {
  if (node.type !== 'call_expression') return null;
  const fn = node.childForFieldName('function');
  if (fn?.type !== 'member_expression') return null;
  const name = fn.childForFieldName('property')?.text ?? '';
  const a = args(node);
  const root = expectRoot(fn.childForFieldName('object'));
  if (root) {
    const actual = args(root.call)[0];
    if (!JS_EXPECT_EQ.has(name) || a.length !== 1 || !actual) return null;
    return { node, actual, expected: a[0]!, deep: root.deep || JS_DEEP.has(name) };
  }
  if (!JS_ASSERT_EQ.has(name) || a.length < 2) return null;
  return { node, actual: a[0]!, expected: a[1]!, deep: JS_DEEP.has(name) };
}

/** A Python equality assertion at this node (`assert a == b`, `self.assertEqual(a, b)`), if it is one. */
export function pyEquality(node: Node): Equality | null {
  if (node.type === 'assert_statement') {
    const expr = node.namedChildren[0];
    if (expr?.type !== 'comparison_operator' || expr.namedChildren.length !== 2) return null;
    const ops = expr.children.filter((c) => c && !c.isNamed).map((c) => c!.text);
    const [left, right] = expr.namedChildren;
    if (ops.length !== 1 || ops[0] !== '==' || !left || !right) return null;
    if (hasLiteral(right)) return { node, actual: left, expected: right, deep: true };
    return hasLiteral(left) ? { node, actual: right, expected: left, deep: true } : null;
  }
  if (node.type !== 'call') return null;
  const fn = node.childForFieldName('function');
  if (fn?.type !== 'attribute' || !PY_ASSERT_EQ.has(fn.childForFieldName('attribute')?.text ?? '')) return null;
  const a = args(node).filter((x) => x.type !== 'keyword_argument');
  if (a.length < 2) return null;
  if (hasLiteral(a[1]!)) return { node, actual: a[0]!, expected: a[1]!, deep: true };
  return hasLiteral(a[0]!) ? { node, actual: a[1]!, expected: a[0]!, deep: true } : null;
}
