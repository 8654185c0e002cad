// Text edits on test definitions: a definition replaced by other text (a
// test and its honeypot twins) or removed with its lines (a held-back test).
// A Python block left with no statement gets `pass`, so the file still runs.
import type { TestDef, TestFile } from './defs.js';

function lineStart(text: string, i: number): number {
  return text.lastIndexOf('\n', i - 1) + 1;
}

function lineEnd(text: string, i: number): number {
  const n = text.indexOf('\n', i);
  return n === -1 ? text.length : n + 1;
}

/** `edits`: each definition's new text, or null to remove it. */
export function editTests(file: TestFile, edits: Map<TestDef, string | null>): string {
  const removedPerBlock = new Map<number, TestDef[]>();
  for (const [def, text] of edits) {
    if (text !== null) continue;
    const list = removedPerBlock.get(def.block.start) ?? [];
    list.push(def);
    removedPerBlock.set(def.block.start, list);
  }
  // A Python block that would lose every statement keeps a `pass` where its last one was.
  const passFor = new Set<TestDef>();
  if (file.lang === 'python') {
    for (const defs of removedPerBlock.values()) {
      if (defs.length >= defs[0]!.block.statements) passFor.add(defs.reduce((a, b) => (a.start > b.start ? a : b)));
    }
  }
  let out = file.text;
  for (const [def, text] of [...edits].sort((a, b) => b[0].start - a[0].start)) {
    if (text !== null) {
      out = out.slice(0, def.start) + text + out.slice(def.end);
      continue;
    }
    if (passFor.has(def)) {
      out = out.slice(0, def.start) + 'pass' + out.slice(def.end);
      continue;
    }
    const ls = lineStart(out, def.start);
    const le = lineEnd(out, def.end);
    const ownLines = /^[ \t]*$/.test(out.slice(ls, def.start)) && /^[ \t;]*\r?\n?$/.test(out.slice(def.end, le));
    out = ownLines ? out.slice(0, ls) + out.slice(le) : out.slice(0, def.start) + out.slice(def.end);
  }
  return out;
}
