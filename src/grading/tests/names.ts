// New test file names in the project's own style: the folder, prefix or
// suffix and extension of one of its test files, with a stem made of words
// the project already uses. Graded runs put honeypot copies and moved test
// files under such names, so no name says which is which.
import { posix } from 'node:path';
import type { TestFile } from './defs.js';

/** Lowercase words from the project's test names and file names (3 to 12 letters). */
export function projectWords(files: readonly TestFile[]): string[] {
  const words = new Set<string>();
  const add = (s: string) => {
    for (const w of s
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z]+/)) {
      if (w.length >= 3 && w.length <= 12 && w !== 'test' && w !== 'tests' && w !== 'spec') words.add(w);
    }
  };
  for (const f of files) {
    add(posix.basename(f.rel).replace(/\.[^.]+$/, ''));
    for (const t of f.tests) add(t.path.at(-1) ?? '');
  }
  return [...words].sort();
}

/** The parts of a test file name around its stem: `test_` + stem + `.py`, stem + `.test.js`. */
function nameStyle(base: string): { prefix: string; suffix: string; sep: string } {
  const ext = /(\.(?:test|spec))?\.[cm]?[jt]sx?$|(_test)?\.py$/.exec(base)?.[0] ?? posix.extname(base);
  let stem = base.slice(0, base.length - ext.length);
  const prefix = /^test[_-]?/i.exec(stem)?.[0] ?? '';
  stem = stem.slice(prefix.length);
  const sep = stem.includes('_') ? '_' : stem.includes('-') ? '-' : base.endsWith('.py') ? '_' : '-';
  return { prefix, suffix: ext, sep };
}

/**
 * A free path beside `like`, named in its style from `words`. `taken` holds
 * paths in use; the new one is added. A Python file's base name must be free
 * in every folder (pytest imports test files by base name where a folder is
 * not a package).
 */
export function freshTestPath(like: string, words: readonly string[], taken: Set<string>, random: () => number): string {
  const dir = posix.dirname(like);
  const { prefix, suffix, sep } = nameStyle(posix.basename(like));
  const pool = words.length ? words : ['core', 'util', 'basic', 'more', 'extra'];
  const word = () => pool[Math.floor(random() * pool.length)]!;
  const bases = new Set([...taken].map((p) => posix.basename(p)));
  for (let i = 0; i < 200; i++) {
    const first = word();
    const second = word();
    const stem = random() < 0.5 || i > 100 || second === first ? first : `${first}${sep}${second}`;
    const path = posix.join(dir, `${prefix}${stem}${i > 150 ? i : ''}${suffix}`);
    if (!taken.has(path) && !(path.endsWith('.py') && bases.has(posix.basename(path)))) {
      taken.add(path);
      return path;
    }
  }
  throw new Error(`no free test file name beside ${like}`);
}
