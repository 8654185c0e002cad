// Unified diffs in git's format, computed in process (files here are small:
// a longest-common-subsequence table over lines is fast enough).

const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

function lineOps(a: string[], b: string[]): Op[] {
  // Trim the common prefix and suffix first: most edits are local.
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const A = a.slice(pre, a.length - suf);
  const B = b.slice(pre, b.length - suf);
  const n = A.length;
  const m = B.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = A[i] === B[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = a.slice(0, pre).map((line) => ({ kind: ' ', line }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && A[i] === B[j]) {
      ops.push({ kind: ' ', line: A[i]! });
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i]![j + 1]! > lcs[i + 1]![j]!)) {
      ops.push({ kind: '+', line: B[j++]! });
    } else {
      ops.push({ kind: '-', line: A[i++]! });
    }
  }
  for (const line of a.slice(a.length - suf)) ops.push({ kind: ' ', line });
  return ops;
}

// A last line without a final newline carries this mark, so that adding or
// removing the newline is a change, and the diff can say so.
const NO_EOL = '\u0000no-eol';

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  else lines[lines.length - 1] += NO_EOL;
  return lines;
}

/** A git-style unified diff of one file; empty when the texts are equal. */
export function fileDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const ops = lineOps(splitLines(before), splitLines(after));
  const changed = ops.map((o, k) => (o.kind !== ' ' ? k : -1)).filter((k) => k >= 0);
  // Group changes into hunks with CONTEXT lines around each.
  const hunks: [number, number][] = [];
  for (const k of changed) {
    const last = hunks[hunks.length - 1];
    if (last && k - last[1] <= 2 * CONTEXT + 1) last[1] = k;
    else hunks.push([k, k]);
  }
  let out = `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n`;
  for (const [first, lastChange] of hunks) {
    const start = Math.max(0, first - CONTEXT);
    const end = Math.min(ops.length, lastChange + CONTEXT + 1);
    // Line numbers where the hunk starts in each file.
    let aLine = 1;
    let bLine = 1;
    for (let k = 0; k < start; k++) {
      if (ops[k]!.kind !== '+') aLine++;
      if (ops[k]!.kind !== '-') bLine++;
    }
    const body = ops.slice(start, end);
    const aCount = body.filter((o) => o.kind !== '+').length;
    const bCount = body.filter((o) => o.kind !== '-').length;
    out += `@@ -${aCount ? aLine : aLine - 1},${aCount} +${bCount ? bLine : bLine - 1},${bCount} @@\n`;
    for (const o of body) {
      out += o.line.endsWith(NO_EOL) ? `${o.kind}${o.line.slice(0, -NO_EOL.length)}\n\\ No newline at end of file\n` : `${o.kind}${o.line}\n`;
    }
  }
  return out;
}

/** The files a patch touches (the b/ side). */
export function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)].map((m) => m[2]!);
}

/** Lines a patch adds, without the leading '+'. */
export function addedLines(patch: string): string[] {
  return patch
    .split('\n')
    .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
    .map((l) => l.slice(1));
}

/** The line numbers each file has after a patch for the lines the patch adds (new files: every line), by the b/ path. */
export function addedLineNumbers(patch: string): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  let file: number[] | null = null;
  let line = 0;
  for (const l of patch.split('\n')) {
    const header = /^diff --git a\/.+? b\/(.+)$/.exec(l);
    if (header) {
      file = out[header[1]!] ??= [];
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (hunk) line = Number(hunk[1]);
    else if (!file || l.startsWith('+++') || l.startsWith('---')) continue;
    else if (l.startsWith('+')) file.push(line++);
    else if (l.startsWith(' ')) line++;
  }
  return out;
}
