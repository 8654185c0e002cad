// Candidate repairs: every edit the procedural operators can make in a source file, used in reverse. Most operation and
// control bugs are undone by an edit of their own kind, so this set is the policy's action space. Removal bugs are not
// reachable this way; the curriculum learns them as a hard family.
import { createHash } from 'node:crypto';
import { OPERATORS } from '../taskpilot/procedural/index.js';
import { languageOf, parse } from '../util/syntax.js';

export interface Repair {
  file: string;
  start: number;
  end: number;
  text: string;
  /** 1-based line of the edit's start. */
  line: number;
  operator: string;
  family: string;
  /** The changed text, before and after, trimmed (e.g. "-" and "+"). */
  before: string;
  after: string;
}

/** Operators that can undo a bug of their own kind; those that only delete code are left out (no bug is undone by deleting more). */
const REPAIR_OPERATORS = new Set([
  'op_change',
  'op_flip',
  'op_swap',
  'op_change_const',
  'aug_assign_swap',
  'ternary_swap',
  'arg_swap',
  'ctrl_invert_if',
  'ctrl_shuffle',
]);
/** rng values that pick different alternatives at one site (operators pick with floor(r * n)). */
const DRAWS = [0.02, 0.18, 0.34, 0.5, 0.66, 0.82, 0.98];
const MAX_PER_FILE = 600;

const cache = new Map<string, Repair[]>();

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export async function repairsIn(file: string, text: string): Promise<Repair[]> {
  const lang = languageOf(file);
  if (!lang) return [];
  const key = createHash('sha1').update(file).update('\0').update(text).digest('hex');
  const hit = cache.get(key);
  if (hit) return hit;
  const tree = await parse(text, lang);
  const out: Repair[] = [];
  const seen = new Set<string>();
  try {
    for (const op of OPERATORS) {
      if (!op.languages.includes(lang) || !REPAIR_OPERATORS.has(op.name)) continue;
      for (const site of op.sites(tree.rootNode)) {
        for (const r of DRAWS) {
          let edit;
          try {
            edit = op.apply(site, text, () => r);
          } catch {
            edit = null;
          }
          if (!edit || text.slice(edit.start, edit.end) === edit.text) continue;
          const id = `${edit.start}:${edit.end}:${edit.text}`;
          if (seen.has(id) || out.length >= MAX_PER_FILE) continue;
          seen.add(id);
          out.push({
            file,
            ...edit,
            line: lineOf(text, edit.start),
            operator: op.name,
            family: op.family,
            before: text.slice(edit.start, edit.end).trim().slice(0, 40),
            after: edit.text.trim().slice(0, 40),
          });
        }
      }
    }
  } finally {
    tree.delete();
  }
  if (cache.size > 2000) cache.clear();
  cache.set(key, out);
  return out;
}

/** The file after a repair. */
export function applyRepair(text: string, r: Repair): string {
  return text.slice(0, r.start) + r.text + text.slice(r.end);
}

/**
 * The repair as an exact-match Edit: whole lines around the change, widened until the old text is unique in the file
 * and the new text unique in the repaired file, so the same edit reversed undoes it.
 */
export function asEdit(text: string, r: Repair): { old_string: string; new_string: string } {
  const after = applyRepair(text, r);
  const once = (hay: string, needle: string) => hay.indexOf(needle) === hay.lastIndexOf(needle);
  let s = text.lastIndexOf('\n', r.start - 1) + 1;
  let e = text.indexOf('\n', r.end);
  if (e === -1) e = text.length;
  for (;;) {
    const old = text.slice(s, e);
    const next = text.slice(s, r.start) + r.text + text.slice(r.end, e);
    if ((once(text, old) && once(after, next) && old.trim()) || (s === 0 && e === text.length)) {
      return { old_string: old, new_string: next };
    }
    if (s > 0) s = text.lastIndexOf('\n', s - 2) + 1;
    if (e < text.length) e = text.indexOf('\n', e + 1) === -1 ? text.length : text.indexOf('\n', e + 1);
  }
}
