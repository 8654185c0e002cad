// The probe run's test files and what it records. A probe file is a project
// test file with check drafts written after the tests they vary, each
// equality assertion replaced by a call that appends the actual value, as a
// literal of the file's language where it has one, to a file in the run's
// output folder. Python writes repr() where literal_eval gives the same value
// back; JavaScript writes JSON where parsing it gives a deeply, strictly equal
// value (and `undefined`, BigInt literals); anything else is recorded as
// having no literal, which drops the draft.
import type { TestFile } from './defs.js';
import { PROBE_FN, withDrafts, type CheckDraft } from './variants.js';

/** A literal longer than this makes an unreadable test: the draft is dropped. */
const MAX_LITERAL = 400;

/** The variable naming the file captures go to, as the sandbox sees it. */
export const PROBE_OUT_ENV = 'FROGNANO_PROBE_OUT';

function pythonHelper(): string {
  return `


def ${PROBE_FN}(key, value):
    import ast, json
    try:
        text = repr(value)
        same = ast.literal_eval(text)
        ok = len(text) <= ${MAX_LITERAL} and type(same) is type(value) and same == value
    except Exception:
        ok = False
    with open(__import__("os").environ["${PROBE_OUT_ENV}"], "a", encoding="utf-8") as f:
        f.write(json.dumps([key, text if ok else None, False]) + "\\n")
`;
}

function jsHelper(ts: boolean, modules: { fs: string; util: string }): string {
  const t = (annotation: string) => (ts ? annotation : '');
  return `
function ${PROBE_FN}(key${t(': string')}, value${t(': unknown')})${t(': unknown')} {
  let text${t(': string | null')} = null;
  try {
    if (value === undefined) text = 'undefined';
    else if (typeof value === 'bigint') text = \`\${value}n\`;
    else if (typeof value !== 'number' || (Number.isFinite(value) && !Object.is(value, -0))) {
      const s = JSON.stringify(value);
      if (typeof s === 'string' && s.length <= ${MAX_LITERAL} && ${modules.util}.isDeepStrictEqual(JSON.parse(s), value)) text = s;
    }
  } catch {
    text = null;
  }
  ${modules.fs}.appendFileSync(String(process.env.${PROBE_OUT_ENV}), JSON.stringify([key, text, typeof value === 'object' && value !== null]) + '\\n');
  ${PROBE_FN}.last = value;
  return value;
}
`;
}

/** Whether a JavaScript or TypeScript file is an ES module by its extension or its own import/export statements. */
function isModule(file: TestFile): boolean {
  return /\.(mjs|mts|ts|tsx)$/.test(file.rel) || /^\s*(import\s[^(]|export\s)/m.test(file.text);
}

/** The probe version of a test file: captures go to the file named by PROBE_OUT_ENV. */
export function probeFile(file: TestFile, drafts: readonly { draft: CheckDraft; tag: number }[]): string {
  const body = withDrafts(
    file,
    drafts.map((d) => ({ after: d.draft.after, text: d.draft.probe(d.tag) })),
  );
  if (file.lang === 'python') return body + pythonHelper();
  const ts = /\.(ts|tsx|mts|cts)$/.test(file.rel);
  if (!isModule(file)) return body + jsHelper(ts, { fs: "require('node:fs')", util: "require('node:util')" });
  const imports = "import * as __frognanoFs from 'node:fs';\nimport * as __frognanoUtil from 'node:util';\n";
  const shebang = /^#!.*\n/.exec(body)?.[0] ?? '';
  return shebang + imports + body.slice(shebang.length) + jsHelper(ts, { fs: '__frognanoFs', util: '__frognanoUtil' });
}

/** What one capture site recorded: every value it saw (null where it had no literal), and whether any was an object. */
export interface Capture {
  values: Set<string | null>;
  object: boolean;
}

/** The captures of a probe run, by "tag.site"; malformed lines are skipped. */
export function readCaptures(text: string): Map<string, Capture> {
  const out = new Map<string, Capture>();
  for (const line of text.split('\n')) {
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      continue;
    }
    if (!Array.isArray(row)) continue;
    const [key, value, object]: unknown[] = row;
    if (typeof key !== 'string' || !(typeof value === 'string' || value === null)) continue;
    const c = out.get(key) ?? { values: new Set<string | null>(), object: false };
    c.values.add(value);
    c.object ||= object === true;
    out.set(key, c);
  }
  return out;
}

/**
 * The expected literals of one draft from the captures, or null when it has
 * none to stand on: a site that saw two values or one with no literal, an
 * object compared by identity, or no site reached at all. A site never
 * reached keeps its own expectation.
 */
export function draftValues(draft: CheckDraft, tag: number, captures: ReadonlyMap<string, Capture>): (string | null)[] | null {
  const values: (string | null)[] = [];
  for (const [k, deep] of draft.deep.entries()) {
    const c = captures.get(`${tag}.${k}`);
    if (!c) {
      values.push(null);
      continue;
    }
    const [only] = [...c.values];
    if (c.values.size !== 1 || only === null || only === undefined || (c.object && !deep)) return null;
    values.push(only);
  }
  return values.some((v) => v !== null) ? values : null;
}
