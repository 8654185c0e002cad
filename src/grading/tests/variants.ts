// Drafts of generated checks: copies of a failing test with one or two input
// literals varied (an argument of the code under test, or a value the test
// assigns), each equality assertion's expected value left to be computed by
// running the reference fix. The probe text records the actual values
// (checks.ts runs it in the sandbox); the final text writes them in as
// literals, in the test's own assertion and style. A draft keeps the test's
// structure, its truth assertions and its setup; only its name, the varied
// inputs and the expected values differ.
import { shuffle } from '../../util/rng.js';
import { parse, type Node } from '../../util/syntax.js';
import { decodeJsString, withOtherChar } from './literals.js';
import { jsEquality, pyEquality, type Equality } from './equality.js';
import type { TestDef, TestFile } from './defs.js';

export interface CheckDraft {
  file: string;
  /** The failing test it varies: the draft is written right after it. */
  after: TestDef;
  /** The draft's own name (the last part of its id). */
  name: string;
  /** Its report id, derived from the varied test's id. */
  id: string;
  /** The definition with each equality assertion replaced by a capture of its actual value, keyed "tag.site". */
  probe: (tag: number) => string;
  /** The definition with captured values written in as the expected literals (null keeps a site's own). */
  final: (values: readonly (string | null)[]) => string;
  /** Whether each site compares structure (an object may stand as its expected value). */
  deep: boolean[];
}

/** The capture function a probe calls: defined once per probe file (checks.ts). */
export const PROBE_FN = '__frognano_probe__';

const SKIP_CALLEE =
  /^(require|import|describe|context|suite|it|test|specify|expect|print|setTimeout|setInterval|Symbol|RegExp|re\.\w+|console\.\w+|pytest\.[\w.]+|[\w.]*\.(plan|end|skip|todo|only|comment|timeout|mark\.[\w.]+))$|^(assert|t|self|this)\.(assert|ok|not|throws|rejects|equal|deepEqual|strictEqual|is|same|true|false|fail)/;
const PATH_LIKE = /[/\\]|\.(js|ts|py|json|txt|csv|md)$/;
const CONTEXT = new Set(['array', 'list', 'tuple', 'set', 'object', 'dictionary', 'parenthesized_expression', 'pair', 'expression_list']);

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `text` (which starts at file offset `base`) with non-overlapping edits applied. */
function rewrite(text: string, base: number, edits: Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start - base) + e.text + out.slice(e.end - base);
  return out;
}

const inside = (n: { startIndex: number; endIndex: number }, r: { startIndex: number; endIndex: number }) =>
  n.startIndex >= r.startIndex && n.endIndex <= r.endIndex;

function* walk(node: Node): Generator<Node> {
  yield node;
  for (const c of node.namedChildren) if (c) yield* walk(c);
}

/** Whether a literal is an input: an argument of a call to the code under test, or a value the test assigns. */
function isInput(lit: Node): boolean {
  let n: Node | null = lit.parent;
  while (n && CONTEXT.has(n.type)) n = n.parent;
  if (!n) return false;
  if (n.type === 'keyword_argument') n = n.parent;
  if (n?.type === 'arguments' || n?.type === 'argument_list') {
    const callee = n.parent?.childForFieldName('function')?.text ?? '';
    return callee !== '' && !SKIP_CALLEE.test(callee);
  }
  return n?.type === 'variable_declarator' || n?.type === 'assignment_expression' || n?.type === 'assignment';
}

type Random = () => number;
const pick = <T>(xs: readonly T[], r: Random): T => xs[Math.floor(r() * xs.length)]!;

/** Another value of the same kind and range: an integer moved by a few units keeping its sign, a decimal doubled or moved by one, one digit or letter of a string replaced. */
export function varyLiteral(text: string, r: Random): string | null {
  if (/^-?\d+$/.test(text)) {
    const n = Number(text);
    if (!Number.isSafeInteger(n)) return null;
    const next = [1, 2, 3, -1, -2, -3].map((d) => n + d).filter((v) => (n >= 0 ? v >= 0 : v < 0));
    return String(pick(next, r));
  }
  if (/^-?\d+\.\d+$/.test(text)) {
    const places = text.length - text.indexOf('.') - 1;
    const f = Number(text);
    const next = pick([f * 2, f + 1, f + 0.5], r);
    return next === f ? null : next.toFixed(places);
  }
  const m = /^([bBrRuU]*)('''|"""|'|"|`)([\s\S]*)\2$/.exec(text);
  if (!m || m[3]!.includes('\\') || (m[2] === '`' && m[3]!.includes('${'))) return null;
  const chars = [...m[3]!];
  const digits = chars.flatMap((c, i) => (/\d/.test(c) ? [i] : []));
  const letters = chars.flatMap((c, i) => (/[a-zA-Z]/.test(c) ? [i] : []));
  const spots = digits.length && (r() < 0.7 || !letters.length) ? digits : letters;
  if (!spots.length) return null;
  return `${m[1]}${m[2]}${withOtherChar(chars, pick(spots, r), r)}${m[2]}`;
}

/** The literal nodes a draft may vary, in the test but outside its name, expectations and assertion messages. */
function inputLiterals(def: Node, equalities: Equality[], title: Node | null): Node[] {
  const out: Node[] = [];
  for (const n of walk(def)) {
    const lit =
      ['number', 'integer', 'float'].includes(n.type) &&
      n.parent &&
      ['unary_expression', 'unary_operator'].includes(n.parent.type) &&
      n.parent.text.startsWith('-')
        ? n.parent
        : n;
    const literal = ['number', 'integer', 'float', 'string', 'template_string'].includes(n.type) || lit !== n;
    if (!literal || (title && inside(lit, title)) || out.some((o) => o.id === lit.id)) continue;
    if (n.type === 'string' && n.namedChildren.some((c) => c?.type === 'interpolation' || c?.type === 'template_substitution')) continue;
    if (PATH_LIKE.test(lit.text) || equalities.some((e) => inside(lit, e.expected) || (inside(lit, e.node) && !inside(lit, e.actual)))) continue;
    if (isInput(lit)) out.push(lit);
  }
  return out;
}

/** The definition's own name node: a Python function's name, or a JavaScript test call's title literal. */
function nameNode(stmt: Node, python: boolean): Node | null {
  if (python) {
    const fn = stmt.type === 'decorated_definition' ? stmt.childForFieldName('definition') : stmt;
    return fn?.childForFieldName('name') ?? null;
  }
  let call = stmt.namedChildren[0] ?? null;
  if (call?.type === 'await_expression') call = call.namedChildren[0] ?? null;
  const first = call?.type === 'call_expression' ? call.childForFieldName('arguments')?.namedChildren[0] : null;
  return first && (first.type === 'string' || first.type === 'template_string') ? first : null;
}

/** A JavaScript string literal with this value, in the given quote. */
function quoteJs(value: string, quote: string): string {
  return `${quote}${value.replaceAll('\\', '\\\\').replaceAll(quote, `\\${quote}`)}${quote}`;
}

export interface DraftOptions {
  /** How many drafts to make of this test at most. */
  count: number;
  /** Names already used in the file (new names are added). */
  names: Set<string>;
  /** Words for new names in the project's style. */
  words: readonly string[];
  random: Random;
}

/** Drafts of checks varying one failing test (`id` as the report names it); none where it has no equality assertion or no input to vary. */
export async function draftChecks(file: TestFile, def: TestDef, id: string, opts: DraftOptions): Promise<CheckDraft[]> {
  const python = file.lang === 'python';
  const tree = await parse(file.text, file.lang);
  try {
    const stmt = tree.rootNode.descendantForIndex(def.start, def.end - 1);
    let node: Node | null = stmt;
    while (node && !(node.startIndex === def.start && node.endIndex === def.end)) node = node.parent;
    if (!node) return [];
    const found = [...walk(node)].map((n) => (python ? pyEquality(n) : jsEquality(n))).filter((e): e is Equality => e !== null);
    // An equality inside another's actual value (`x.equals(a, b)` under `assert.equal`) is part of what that one checks.
    const equalities = found.filter((q) => !found.some((o) => o !== q && inside(q.node, o.node)));
    const title = nameNode(node, python);
    const inputs = inputLiterals(node, equalities, title);
    if (!equalities.length || !inputs.length || !title) return [];
    const own = python ? title.text : decodeJsString(title.text);
    if (own === null || !id.endsWith(own)) return [];
    const drafts: CheckDraft[] = [];
    const seen = new Set<string>();
    for (let attempt = 0; attempt < opts.count * 4 && drafts.length < opts.count; attempt++) {
      const chosen = shuffle(inputs, opts.random).slice(0, opts.random() < 0.3 ? 2 : 1);
      const varied = chosen.map((n) => ({ n, text: varyLiteral(n.text, opts.random) }));
      if (varied.some((v) => v.text === null)) continue;
      const key = varied.map((v) => `${v.n.startIndex}:${v.text}`).join('|');
      if (seen.has(key)) continue;
      seen.add(key);
      const word = pick(opts.words.length ? opts.words : ['again', 'more', 'other', 'case'], opts.random);
      const name = python ? `${own}_${word}` : `${own} ${word}`;
      if (opts.names.has(name)) continue;
      opts.names.add(name);
      const inputEdits: Edit[] = varied.map((v) => ({ start: v.n.startIndex, end: v.n.endIndex, text: v.text! }));
      const nameEdit: Edit = { start: title.startIndex, end: title.endIndex, text: python ? name : quoteJs(name, title.text[0]!) };
      const outside = inputEdits.filter((e) => !equalities.some((q) => e.start >= q.node.startIndex && e.end <= q.node.endIndex));
      // Offsets and texts are taken now: the syntax tree is gone when the probe is written.
      const captures = equalities.map((q) => ({
        node: { start: q.node.startIndex, end: q.node.endIndex },
        actualAt: { start: q.actual.startIndex, end: q.actual.endIndex },
        expectedAt: { start: q.expected.startIndex, end: q.expected.endIndex },
        actual: rewrite(
          q.actual.text,
          q.actual.startIndex,
          inputEdits.filter((e) => e.start >= q.actual.startIndex && e.end <= q.actual.endIndex),
        ),
      }));
      // Python drops the assertion for the capture; JavaScript keeps it, comparing the value with itself, as tape and ava want an assertion in every test.
      const probeEdits = (tag: number): Edit[] =>
        captures.flatMap(({ node: at, actualAt, expectedAt, actual }, k) => {
          const capture = `${PROBE_FN}("${tag}.${k}", ${actual})`;
          if (python) return [{ ...at, text: capture }];
          return [
            { ...actualAt, text: capture },
            { ...expectedAt, text: `${PROBE_FN}.last` },
          ];
        });
      const text = node.text;
      const base = node.startIndex;
      const eqs = equalities.map((q) => ({ start: q.expected.startIndex, end: q.expected.endIndex, own: q.expected.text }));
      drafts.push({
        file: file.rel,
        after: def,
        name,
        id: id.slice(0, id.length - own.length) + name,
        probe: (tag) => rewrite(text, base, [nameEdit, ...outside, ...probeEdits(tag)]),
        final: (values) => rewrite(text, base, [nameEdit, ...inputEdits, ...eqs.map((e, k) => ({ start: e.start, end: e.end, text: values[k] ?? e.own }))]),
        deep: equalities.map((q) => q.deep),
      });
    }
    return drafts;
  } finally {
    tree.delete();
  }
}

/** A test file with drafts' texts written right after the tests they vary. */
export function withDrafts(file: TestFile, drafts: readonly { after: TestDef; text: string }[]): string {
  let out = file.text;
  // Python's own style: two blank lines between top-level definitions, one between methods.
  const sep = (d: TestDef) => (file.lang !== 'python' ? '\n' : d.indent === '' ? '\n\n\n' : '\n\n');
  for (const d of [...drafts].sort((a, b) => b.after.end - a.after.end))
    out = `${out.slice(0, d.after.end)}${sep(d.after)}${d.after.indent}${d.text}${out.slice(d.after.end)}`;
  return out;
}
