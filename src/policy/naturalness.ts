// How ordinary a repair leaves the code, against the code the agent has read: a synthesized bug usually makes a common
// local pattern rare, so its undoing recreates a sequence found elsewhere. The measure holds in any code base, so a
// weight learned on one environment carries to another. See docs/decisions/2026-12-03-naturalness-feature.md.

/** Identifiers, numbers, strings, multi-character operators, then any other symbol. */
const TOKEN = /[A-Za-z_$][\w$]*|\d+(?:\.\d+)?|(['"`])(?:\\.|(?!\1).)*\1|===|!==|==|!=|<=|>=|&&|\|\||\?\?|\+\+|--|\+=|-=|\*=|\/=|=>|\*\*|\/\/|[^\s\w]/g;

export function tokens(code: string): string[] {
  return code.match(TOKEN) ?? [];
}

/** Every source line's tokens, joined so that a token sequence is a substring search (never across lines). */
export interface Corpus {
  joined: string;
  /** Counts already searched, by token sequence: a policy asks the same ones for every decision of an episode. */
  counts: Map<string, number>;
}

/** Corpora by the texts they were made of: the rollouts of a group read the same files (the counts are pure). */
const corpora = new Map<string, Corpus>();
const MAX_CORPORA = 64;

export function corpusOf(texts: Iterable<string>): Corpus {
  const all = [...texts];
  const key = all.join('\0');
  const hit = corpora.get(key);
  if (hit) {
    corpora.delete(key); // most recently used last
    corpora.set(key, hit);
    return hit;
  }
  const lines: string[] = [];
  for (const text of all)
    for (const line of text.split('\n')) {
      const t = tokens(line);
      if (t.length) lines.push(t.join(' '));
    }
  const corpus = { joined: `\n${lines.join('\n')}\n`, counts: new Map<string, number>() };
  if (corpora.size >= MAX_CORPORA) corpora.delete(corpora.keys().next().value!);
  corpora.set(key, corpus);
  return corpus;
}

function count(corpus: Corpus, seq: string[]): number {
  if (seq.length === 0) return 0;
  const needle = seq.join(' ');
  const known = corpus.counts.get(needle);
  if (known !== undefined) return known;
  let n = 0;
  // Token boundaries: a space or line break on both sides.
  for (let i = corpus.joined.indexOf(needle); i !== -1; i = corpus.joined.indexOf(needle, i + 1)) {
    const before = corpus.joined[i - 1],
      after = corpus.joined[i + needle.length];
    if ((before === ' ' || before === '\n') && (after === ' ' || after === '\n')) n++;
  }
  corpus.counts.set(needle, n);
  return n;
}

/**
 * How often the edited span with two tokens of context each side occurs in the corpus after the edit and before it
 * (`before` counts the candidate's own occurrence). Multi-line edits get zeros: no one-line context to compare.
 */
export function occurrences(text: string, start: number, end: number, replacement: string, corpus: Corpus): { before: number; after: number } {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  let lineEnd = text.indexOf('\n', end);
  if (lineEnd === -1) lineEnd = text.length;
  const old = text.slice(start, end);
  if (old.includes('\n') || replacement.includes('\n')) return { before: 0, after: 0 };
  const left = tokens(text.slice(lineStart, start)).slice(-2);
  const right = tokens(text.slice(end, lineEnd)).slice(0, 2);
  return { before: count(corpus, [...left, ...tokens(old), ...right]), after: count(corpus, [...left, ...tokens(replacement), ...right]) };
}
