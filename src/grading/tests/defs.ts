// Where each test is defined in the project's own test files: node:test,
// Jest, Vitest, Mocha and tape style calls (`describe`/`it`/`test` with a
// literal name) in JavaScript and TypeScript, pytest functions, classes and
// unittest.TestCase methods in Python. Honeypots copy these definitions and
// held-back tests remove them, so a test whose name is computed at run time
// is simply not found (and never copied or removed).
import { languageOf, parse, type Node, type SyntaxLanguage } from '../../util/syntax.js';
import { decodeJsString } from './literals.js';

export interface TestDef {
  file: string;
  /** Suite names, then the test's own name (Python: classes, then the function). */
  path: string[];
  /** The whole definition statement, as offsets into the file's text (decorators included). */
  start: number;
  end: number;
  /** Whitespace before the statement on its line. */
  indent: string;
  /** The block holding the statement (offsets), and how many statements it holds: an emptied Python block needs `pass`. */
  block: { start: number; end: number; statements: number };
}

export interface TestFile {
  rel: string;
  lang: SyntaxLanguage;
  text: string;
  tests: TestDef[];
}

const TEST_CALLS = new Set(['it', 'test', 'specify']);
const SUITE_CALLS = new Set(['describe', 'suite', 'context']);
const MODIFIERS = new Set(['only', 'concurrent', 'serial', 'sequential']);

function blockOf(stmt: Node): TestDef['block'] {
  const parent = stmt.parent!;
  return { start: parent.startIndex, end: parent.endIndex, statements: parent.namedChildren.filter((c) => c && c.type !== 'comment').length };
}

function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** 'test' | 'suite' for a call that defines one, else null. `t.test(...)` (a node:test subtest) is a test. */
function callKind(call: Node): 'test' | 'suite' | null {
  const fn = call.childForFieldName('function');
  if (!fn) return null;
  if (fn.type === 'identifier') return TEST_CALLS.has(fn.text) ? 'test' : SUITE_CALLS.has(fn.text) ? 'suite' : null;
  if (fn.type !== 'member_expression') return null;
  const obj = fn.childForFieldName('object');
  const prop = fn.childForFieldName('property')?.text ?? '';
  if (obj?.type !== 'identifier') return null;
  if (MODIFIERS.has(prop)) return TEST_CALLS.has(obj.text) ? 'test' : SUITE_CALLS.has(obj.text) ? 'suite' : null;
  if (prop === 'test') return 'test';
  if (prop === 'describe' && obj.text === 'test') return 'suite';
  return null;
}

/** The literal name a definition call passes first; null when it is computed. */
function callName(call: Node): string | null {
  const first = call.childForFieldName('arguments')?.namedChildren[0];
  if (!first) return null;
  if (first.type === 'string' || first.type === 'template_string') return decodeJsString(first.text);
  return null;
}

function callbackBody(call: Node): Node | null {
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  const fn = [...args].reverse().find((a) => a && (a.type === 'arrow_function' || a.type === 'function_expression' || a.type === 'function'));
  return fn?.childForFieldName('body') ?? null;
}

/** The statement a definition call stands in: `it(...)`, `await t.test(...)`. */
function statementOf(call: Node): Node | null {
  let n: Node | null = call.parent;
  if (n?.type === 'await_expression') n = n.parent;
  return n?.type === 'expression_statement' ? n : null;
}

function jsTests(root: Node, file: string, text: string): TestDef[] {
  const out: TestDef[] = [];
  // Returns how many tests it found below `node`, so a test with subtests is known as a container.
  const visit = (node: Node, path: string[] | null): number => {
    let found = 0;
    for (const child of node.namedChildren) {
      if (!child) continue;
      const call = child.type === 'call_expression' ? child : null;
      const kind = call ? callKind(call) : null;
      if (!call || !kind) {
        found += visit(child, path);
        continue;
      }
      const name = callName(call);
      const body = callbackBody(call);
      const inner = name !== null && path ? [...path, name] : null;
      const nested = body ? visit(body, inner) : 0;
      found += nested + (kind === 'test' && nested === 0 ? 1 : 0);
      const stmt = statementOf(call);
      if (kind === 'test' && nested === 0 && inner && stmt) {
        out.push({ file, path: inner, start: stmt.startIndex, end: stmt.endIndex, indent: indentAt(text, stmt.startIndex), block: blockOf(stmt) });
      }
    }
    return found;
  };
  visit(root, []);
  return out;
}

/** A class pytest collects: named Test* or derived from a TestCase. */
function isTestClass(cls: Node): boolean {
  const name = cls.childForFieldName('name')?.text ?? '';
  const bases = cls.childForFieldName('superclasses')?.text ?? '';
  return name.startsWith('Test') || /TestCase\b/.test(bases);
}

function pyTests(block: Node, file: string, text: string, classes: string[], out: TestDef[]): void {
  for (const child of block.namedChildren) {
    if (!child) continue;
    const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (!def) continue;
    const name = def.childForFieldName('name')?.text ?? '';
    if (def.type === 'class_definition' && isTestClass(def)) {
      const body = def.childForFieldName('body');
      if (body) pyTests(body, file, text, [...classes, name], out);
    } else if (def.type === 'function_definition' && name.startsWith('test')) {
      out.push({
        file,
        path: [...classes, name],
        start: child.startIndex,
        end: child.endIndex,
        indent: indentAt(text, child.startIndex),
        block: blockOf(child),
      });
    }
  }
}

/** The tests defined in one file (empty for a language tree-sitter does not read). */
export async function readTestFile(rel: string, text: string): Promise<TestFile | null> {
  const lang = languageOf(rel);
  if (!lang) return null;
  const tree = await parse(text, lang);
  try {
    const tests: TestDef[] = [];
    if (lang === 'python') pyTests(tree.rootNode, rel, text, [], tests);
    else tests.push(...jsTests(tree.rootNode, rel, text));
    return { rel, lang, text, tests };
  } finally {
    tree.delete();
  }
}

export type IdStyle = 'pytest' | 'tap' | 'jest' | 'mocha';

/**
 * How a report names the tests of this environment: pytest node ids (JUnit
 * from Python), TAP suite paths, Jest's file and path, or mocha's file, suite
 * title and test (JUnit from JavaScript).
 */
export function idStyle(format: 'tap' | 'junit' | 'jest-json', language: string = 'python'): IdStyle {
  if (format === 'junit') return language === 'python' ? 'pytest' : 'mocha';
  return format === 'tap' ? 'tap' : 'jest';
}

/** The report id of a definition (pytest: without parameters). */
export function testIdOf(def: TestDef, style: IdStyle): string {
  if (style === 'pytest') return [def.file, ...def.path].join('::');
  if (style === 'tap') return def.path.join(' > ');
  // mocha's xunit reporter names a test's suites as one title, words joined by spaces.
  if (style === 'mocha') return [def.file, ...(def.path.length > 1 ? [def.path.slice(0, -1).join(' ')] : []), def.path.at(-1)!].join(' > ');
  return [def.file, ...def.path].join(' > ');
}

/** A pytest id without its parameters: `f.py::test_x[1-2]` is defined by `f.py::test_x`. */
export function baseTestId(id: string, style: IdStyle): string {
  return style === 'pytest' ? id.replace(/\[[^\]]*\]$/s, '') : id;
}

/**
 * The definition of each id, by the report's naming. JavaScript runners name
 * tests with or without their file (tape and node:test print suite paths,
 * node-tap, Jest and Vitest the file too), so every JavaScript form is indexed.
 * A path defined twice (two files, or twice in one file) belongs to no
 * definition: copying or removing one of them could be the wrong one.
 */
export function indexDefs(files: TestFile[], style: IdStyle): Map<string, TestDef> {
  const forms: IdStyle[] = style === 'pytest' ? ['pytest'] : ['tap', 'jest', 'mocha'];
  const seen = new Map<string, TestDef | null>();
  for (const form of forms) {
    const mine = new Map<string, TestDef | null>();
    for (const f of files) {
      for (const def of f.tests) {
        const id = testIdOf(def, form);
        mine.set(id, mine.has(id) ? null : def);
      }
    }
    for (const [id, def] of mine) seen.set(id, seen.has(id) && seen.get(id) !== def ? null : def);
  }
  if (style !== 'pytest') {
    const ava = new Map<string, TestDef | null>();
    for (const f of files) for (const def of f.tests) for (const id of avaIds(def)) ava.set(id, ava.has(id) ? null : def);
    for (const [id, def] of ava) if (!seen.has(id)) seen.set(id, def);
  }
  const out = new Map<string, TestDef>();
  for (const [id, def] of seen) if (def) out.set(id, def);
  return out;
}

/**
 * ava's names: the file's path below the run's common folder, `__tests__`
 * left out, its base name without `.test`/`.spec`, `test-` and extension,
 * then the title, joined by " › ". The common folder depends on the files
 * run, so every tail of the path is a candidate.
 */
function avaIds(def: TestDef): string[] {
  if (def.path.length !== 1) return [];
  const parts = def.file.split('/').filter((p) => p !== '__tests__');
  const base = avaStem(parts.pop()!);
  const out: string[] = [];
  for (let k = 0; k <= parts.length; k++) out.push([...parts.slice(parts.length - k), base, def.path[0]!].join(AVA_SEP));
  return out;
}

/** The separator of ava's test names. */
export const AVA_SEP = ' \u203a ';

/** ava's name for a file: its base name without `.test`/`.spec`, `test-` and extension (ava's own rule). */
export function avaStem(path: string): string {
  return (path.split('/').pop() ?? path)
    .replace(/\.spec\./, '.')
    .replace(/\.test\./, '.')
    .replace(/test-/, '')
    .replace(/\.[cm]?[jt]sx?$/, '');
}
