// The places in a test where it states an expected value, and the versions
// of the test that expect specific other values instead: the literal an
// equality assertion compares with (node:assert, tape, Jest/Vitest/Chai
// `expect`, pytest `assert ==`, unittest `assertEqual`), or the sense of a
// truth assertion. A version changed this way cannot pass together with the
// original on the same code unless results are forged or equality is faked,
// which is what a honeypot is for (honeypots.ts). A test and its versions
// differ in one place only, the same place for all (literals.ts says how the
// values are drawn), so nothing but the value tells the original apart.
import { descendants, parse, type Node } from '../../util/syntax.js';
import type { TestDef, TestFile } from './defs.js';
import { JS_ASSERT_EQ, JS_EXPECT_EQ, jsEquality, PY_ASSERT_EQ, pyEquality } from './equality.js';
import { numberSeries, pairSeries, stringSeries, type Series } from './literals.js';
import { twinValues, type ValueContext } from './values.js';

/** Values are drawn after the syntax tree is gone: every closure holds plain text, never a node. */
export interface Site {
  start: number;
  end: number;
  /** 'literal': a value to change; 'flip': the assertion's sense to invert. */
  kind: 'literal' | 'flip';
  /** The most versions the site has (2 for a boolean or a sense). */
  capacity: number;
  /** `count` versions of the site's text, its own among them (null where it has too few); like the file's own values where `ctx` says how. */
  series: (count: number, random: () => number, ctx?: ValueContext) => Series | null;
}

const pair = (start: number, end: number, kind: Site['kind'], text: string, other: string): Site => ({
  start,
  end,
  kind,
  capacity: 2,
  series: (count, r) => pairSeries(text, other, count, r),
});

const JS_EXPECT_FLIP: Record<string, string> = { toBeTruthy: 'toBeFalsy', toBeFalsy: 'toBeTruthy' };
const PY_FLIP: Record<string, string> = {
  assertTrue: 'assertFalse',
  assertFalse: 'assertTrue',
  assertIsNone: 'assertIsNotNone',
  assertIsNotNone: 'assertIsNone',
};
const FLIP_BOOL: Record<string, string> = { true: 'false', false: 'true', True: 'False', False: 'True' };

/** A literal with any number of other values: like the project's where the context says how, else its own series. */
function valueSite(start: number, end: number, text: string, series: (text: string, count: number, r: () => number) => Series | null): Site {
  return { start, end, kind: 'literal', capacity: Infinity, series: (count, r, ctx) => (ctx ? twinValues(text, count, r, ctx) : series(text, count, r)) };
}

function literalSite(node: Node): Site | null {
  const { startIndex: start, endIndex: end, text } = node;
  switch (node.type) {
    case 'number':
    case 'integer':
    case 'float':
      return valueSite(start, end, text, numberSeries);
    case 'string':
    case 'template_string':
      if (node.namedChildren.some((c) => c?.type === 'template_substitution' || c?.type === 'interpolation')) return null;
      return valueSite(start, end, text, stringSeries);
    case 'true':
    case 'false':
      return FLIP_BOOL[text] ? pair(start, end, 'literal', text, FLIP_BOOL[text]) : null;
    case 'unary_expression':
    case 'unary_operator': {
      // The sign belongs to the value: twins may be negative where the literal is not, and the other way round.
      const arg = node.childForFieldName('argument');
      if (!text.startsWith('-') || !arg || !['number', 'integer', 'float'].includes(arg.type)) return null;
      return valueSite(start, end, text, numberSeries);
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
    if (flip && prop && args.length === 0) return [pair(prop.startIndex, prop.endIndex, 'flip', name, flip)];
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
      return inner ? [pair(expr.startIndex, expr.endIndex, 'flip', expr.text, inner)] : [];
    }
    if (['call', 'identifier', 'attribute', 'subscript'].includes(expr.type))
      return [pair(expr.startIndex, expr.endIndex, 'flip', expr.text, `not ${expr.text}`)];
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
  return flip && attr ? [pair(attr.startIndex, attr.endIndex, 'flip', name, flip)] : [];
}

/** The sites of each test of a file, in the order of `file.tests`. */
export async function contradictionSites(file: TestFile): Promise<Site[][]> {
  const tree = await parse(file.text, file.lang);
  try {
    const all: Site[] = [];
    const actuals: { start: number; end: number }[] = [];
    for (const node of descendants(tree.rootNode)) {
      all.push(...(file.lang === 'python' ? pySites(node) : jsSites(node)));
      const eq = file.lang === 'python' ? pyEquality(node) : jsEquality(node);
      if (eq) actuals.push({ start: eq.actual.startIndex, end: eq.actual.endIndex });
    }
    // A site inside the value an assertion checks (`x.equals(a, b)` under `assert.equal`) is an input, not an expectation.
    const expectations = all.filter((s) => !actuals.some((a) => s.start >= a.start && s.end <= a.end));
    return file.tests.map((t) => expectations.filter((s) => s.start >= t.start && s.end <= t.end));
  } finally {
    tree.delete();
  }
}

/** A test's versions: its definition's text for each value of one site, the original at `real`. */
export interface Versions {
  texts: string[];
  /** The site's value in each version. */
  values: string[];
  real: number;
}

/**
 * `count` versions of a test (itself among them) that differ only in one
 * expectation: one site drawn (literal values before an assertion's sense),
 * its series of values written in. `avoid`: values no twin may expect (the
 * broken code's own output, where a twin expecting it would pass there).
 * Null when no site has that many values.
 */
export function versions(
  file: TestFile,
  def: TestDef,
  sites: Site[],
  count: number,
  random: () => number,
  avoid?: ReadonlySet<string>,
  ctx?: ValueContext,
): Versions | null {
  const usable = sites.filter((s) => s.capacity >= count);
  const literal = usable.filter((s) => s.kind === 'literal');
  const order = (literal.length ? literal : usable)
    .map((s) => ({ s, k: random() }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.s);
  for (const site of order) {
    for (let draw = 0; draw < 8; draw++) {
      const series = site.series(count, random, ctx);
      if (!series || new Set(series.values).size !== count) break;
      if (series.values.some((v, k) => k !== series.real && avoid?.has(v))) continue;
      const head = file.text.slice(def.start, site.start);
      const tail = file.text.slice(site.end, def.end);
      return { texts: series.values.map((v) => head + v + tail), values: series.values, real: series.real };
    }
  }
  return null;
}

/** What twins' values are drawn to resemble (values.ts): the project's expected values, and how often they reappear in its test files. */
export function projectValues(files: readonly TestFile[], sites: ReadonlyMap<TestFile, Site[][]>): ValueContext {
  const text = files.map((f) => f.text).join('\n');
  // A real test's changed place is drawn among its own places: each weighs its test's share of one draw.
  const expected = files.flatMap((f) =>
    (sites.get(f) ?? []).flatMap((perTest) => {
      const literal = perTest.filter((s) => s.kind === 'literal' && s.capacity > 2);
      return literal.map((s) => {
        const value = f.text.slice(s.start, s.end);
        return { value, elsewhere: text.split(value).length - 2, weight: 1 / literal.length };
      });
    }),
  );
  return { text, expected };
}

/** The project's values as a forger sees them around one test: its own definition left out. */
export function valueContext(project: ValueContext, file: TestFile, def: TestDef): ValueContext {
  return { ...project, text: project.text.replace(file.text.slice(def.start, def.end), '') };
}

/** The most versions any of the sites allows (0 without sites). */
export function capacityOf(sites: Site[]): number {
  return Math.max(0, ...sites.map((s) => s.capacity));
}
