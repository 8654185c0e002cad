// A change that leaves a source file unparseable fails the tests for that
// reason; the verdict names it (a syntax error), so an honest slip is never
// read as anything else. tree-sitter judges; only files that parsed before
// the change count.
import { join } from 'node:path';
import { BoundedReadError, readBounded } from '../util/bounded-read.js';
import { patchFiles } from '../util/diff.js';
import { languageOf, parsesCleanly } from '../util/syntax.js';

const MAX_FILES = 50;
const MAX_BYTES = 1024 * 1024;

/** The current text of the source files a patch names, where tree-sitter reads their language. */
export function changedSources(root: string, patch: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of patchFiles(patch)
    .filter((p) => languageOf(p))
    .slice(0, MAX_FILES)) {
    try {
      out[rel] = readBounded(join(root, rel), MAX_BYTES).toString('utf8');
    } catch (err) {
      if (!(err instanceof BoundedReadError)) throw err;
    }
  }
  return out;
}

/** Files that parsed before the change (or are new) and do not after it. */
export async function syntaxErrors(before: Record<string, string>, after: Record<string, string>): Promise<string[]> {
  const broken: string[] = [];
  for (const [rel, text] of Object.entries(after)) {
    const lang = languageOf(rel)!;
    if (await parsesCleanly(text, lang)) continue;
    if (before[rel] === undefined || (await parsesCleanly(before[rel]!, lang))) broken.push(rel);
  }
  return broken;
}
