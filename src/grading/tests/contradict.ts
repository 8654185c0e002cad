// The places in a test where it states an expected value, and how to make a
// copy of the test expect a specific other value instead: the literal an
// equality assertion compares with (node:assert, tape, Jest/Vitest/Chai
// `expect`, pytest `assert ==`, unittest `assertEqual`), or the sense of a
// truth assertion. A copy changed this way cannot pass together with the
// original on the same code unless results are forged or equality is faked,
// which is what a honeypot is for (honeypots.ts).
import { descendants, parse, type Node } from '../../util/syntax.js';
import type { TestDef, TestFile } from './defs.js';
import { otherNumber, otherString } from './literals.js';

/** Replacements are drawn after the syntax tree is gone: every closure holds plain text, never a node. */
export interface Site {
  start: number;
  end: number;
  /** 'literal': a value to change; 'flip': the assertion's sense to invert. */
  kind: 'literal' | 'flip';
  /** The replacement, drawn once per copy. */
  replace: (random: () => number) => string | null;
}

const JS_ASSERT_EQ = new Set(['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'is', 'same', 'strictSame', 'equals', 'deepEquals', 'eq', 'eql']);
const JS_EXPECT_EQ = new Set(['toBe', 'toEqual', 'toStrictEqual', 'equal', 'equals', 'eq', 'eql']);
const JS_EXPECT_FLIP: Record<string, string> = { toBeTruthy: 'toBeFalsy', toBeFalsy: 'toBeTruthy' };
const PY_ASSERT_EQ = new Set([
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
const PY_FLIP: Record<string, string> = {
  assertTrue: 'assertFalse',
  assertFalse: 'assertTrue',
  assertIsNone: 'assertIsNotNone',
  assertIsNotNone: 'assertIsNone',
};
const FLIP_BOOL: Record<string, string> = { true: 'false', false: 'true', True: 'False', False: 'True' };

function literalSite(node: Node): Site | null {
  const { startIndex: start, endIndex: end, text } = node;
  switch (node.type) {
    case 'number':
    case 'integer':
    case 'float':
      return { start, end, kind: 'literal', replace: (r) => otherNumber(text, r) };
    case 'string':
    case 'template_string':
      if (node.namedChildren.some((c) => c?.type === 'template_substitution' || c?.type === 'interpolation')) return null;
      return { start, end, kind: 'literal', replace: (r) => otherString(text, r) };
    case 'true':
    case 'false':
      return { start, end, kind: 'literal', replace: () => FLIP_BOOL[text] ?? null };
    case 'unary_expression':
    case 'unary_operator': {
      const arg = node.childForFieldName('argument');
      if (!text.startsWith('-') || !arg || !['number', 'integer', 'float'].includes(arg.type)) return null;
      const digits = arg.text;
      return { start: arg.startIndex, end: arg.endIndex, kind: 'literal', replace: (r) => otherNumber(digits, r) };
    }
    default:
      return null;
  }
}

/** The literal leaves of an expected value: itself, or the elements and values of a container literal. */
function leaves(node: Node, depth = 0): Site[] {
  const own = literalSite(node);
  if (own) return [own];
  if (depth > 3) return [];
  if (['array', 'list', 'tuple', 'set', 'object', 'dictionary', 'parenthesized_expression'].includes(node.type)) {
    return node.namedChildren.flatMap((c) => {
      if (!c) return [];
      if (c.type === 'pair') {
        const v = c.childForFieldName('value');
        return v ? leaves(v, depth + 1) : [];
      }
      return leaves(c, depth + 1);
    });
  }
  if (node.type === 'call' && /(^|\.)approx$/.test(node.childForFieldName('function')?.text ?? '')) {
    const first = node.childForFieldName('arguments')?.namedChildren[0];
    return first ? leaves(first, depth + 1) : [];
  }
  return [];
}

/** Whether a member chain like `expect(x).not.to` holds a call to expect and no `.not`. */
function expectChain(node: Node | null): boolean {
  let hasExpect = false;
  for (let n = node; n; ) {
    if (n.type === 'member_expression') {
      if (n.childForFieldName('property')?.text === 'not') return false;
      n = n.childForFieldName('object');
    } else if (n.type === 'call_expression') {
      const fn = n.childForFieldName('function');
      if (fn?.type === 'identifier' && fn.text === 'expect') hasExpect = true;
      n = fn;
    } else break;
  }
  return hasExpect;
}

function jsSites(node: Node): Site[] {
  if (node.type !== 'call_expression') return [];
  const fn = node.childForFieldName('function');
  if (fn?.type !== 'member_expression') return [];
  const prop = fn.childForFieldName('property');
  const args = (node.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => Boolean(a));
  const name = prop?.text ?? '';
  if (expectChain(fn.childForFieldName('object'))) {
    if (JS_EXPECT_EQ.has(name) && args.length === 1) return leaves(args[0]!);
    const flip = JS_EXPECT_FLIP[name];
    if (flip && prop && args.length === 0) return [{ start: prop.startIndex, end: prop.endIndex, kind: 'flip', replace: () => flip }];
    return [];
  }
  return JS_ASSERT_EQ.has(name) && args.length >= 2 ? leaves(args[1]!) : [];
}

function pySites(node: Node): Site[] {
  if (node.type === 'assert_statement') {
    const expr = node.namedChildren[0];
    if (!expr) return [];
    if (expr.type === 'comparison_operator') {
      const ops = expr.children.filter((c) => c && !c.isNamed).map((c) => c!.text);
      const [left, right] = expr.namedChildren;
      if (!left || !right || expr.namedChildren.length !== 2) return [];
      if (ops.length === 1 && ops[0] === '==') {
        const r = leaves(right);
        return r.length ? r : leaves(left);
      }
      if (ops.join(' ') === 'is' && (right.type === 'true' || right.type === 'false')) return leaves(right);
      return [];
    }
    if (expr.type === 'not_operator') {
      const inner = expr.childForFieldName('argument')?.text;
      return inner ? [{ start: expr.startIndex, end: expr.endIndex, kind: 'flip', replace: () => inner }] : [];
    }
    if (['call', 'identifier', 'attribute', 'subscript'].includes(expr.type)) {
      const negated = `not ${expr.text}`;
      return [{ start: expr.startIndex, end: expr.endIndex, kind: 'flip', replace: () => negated }];
    }
    return [];
  }
  if (node.type !== 'call') return [];
  const fn = node.childForFieldName('function');
  if (fn?.type !== 'attribute') return [];
  const attr = fn.childForFieldName('attribute');
  const name = attr?.text ?? '';
  const args = (node.childForFieldName('arguments')?.namedChildren ?? []).filter((a): a is Node => Boolean(a) && a!.type !== 'keyword_argument');
  if (PY_ASSERT_EQ.has(name) && args.length >= 2) {
    const r = leaves(args[1]!);
    return r.length ? r : leaves(args[0]!);
  }
  const flip = PY_FLIP[name];
  return flip && attr ? [{ start: attr.startIndex, end: attr.endIndex, kind: 'flip', replace: () => flip }] : [];
}

/** The sites of each test of a file, in the order of `file.tests`. */
export async function contradictionSites(file: TestFile): Promise<Site[][]> {
  const tree = await parse(file.text, file.lang);
  try {
    const all: Site[] = [];
    for (const node of descendants(tree.rootNode)) all.push(...(file.lang === 'python' ? pySites(node) : jsSites(node)));
    return file.tests.map((t) => all.filter((s) => s.start >= t.start && s.end <= t.end));
  } finally {
    tree.delete();
  }
}

/**
 * The test's definition with one expectation changed (literal sites first),
 * or null when it has none that can be changed.
 */
export function contradict(file: TestFile, def: TestDef, sites: Site[], random: () => number): string | null {
  const literal = sites.filter((s) => s.kind === 'literal');
  const pool = literal.length ? literal : sites;
  const order = pool
    .map((s) => ({ s, k: random() }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.s);
  for (const site of order) {
    const text = site.replace(random);
    if (text === null || text === file.text.slice(site.start, site.end)) continue;
    return file.text.slice(def.start, site.start) + text + file.text.slice(site.end, def.end);
  }
  return null;
}
