// The one walk of a repository's or snapshot's files. Names are taken in
// code-unit order (localeCompare follows the machine's locale, and synthesis
// picks files by position), links are listed but never followed, and folders
// that hold no project source are never entered.
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** Dependencies, build output and caches; every hidden folder (.git, .venv, .tox, .github) is skipped as well. */
export const SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules', '__pycache__', 'venv', 'dist', 'build', 'coverage']);

export interface WalkOptions {
  /** Further folders not to enter, by path relative to the root ('/' separated) or by name. */
  skip?: (rel: string, name: string) => boolean;
  /** Which entries other than folders to return; all of them (files, links, anything else) by default. */
  keep?: (rel: string, entry: Dirent) => boolean;
  /** Stop after this many paths. */
  maxFiles?: number;
  /** Enter folders at most this many levels below the root. */
  maxDepth?: number;
}

function skippedDir(name: string): boolean {
  return name.startsWith('.') || SKIP_DIRS.has(name);
}

/**
 * Paths relative to `root` ('/' separated), depth first. The root must be
 * readable; a folder below it that cannot be read holds nothing to return.
 */
export function walkFiles(root: string, opts: WalkOptions = {}): string[] {
  const { skip, keep, maxFiles = Infinity, maxDepth = Infinity } = opts;
  const out: string[] = [];
  const walk = (rel: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch (err) {
      if (rel === '') throw err;
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (out.length >= maxFiles) return;
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (depth < maxDepth && !skippedDir(e.name) && !skip?.(path, e.name)) walk(path, depth + 1);
      } else if (!keep || keep(path, e)) out.push(path);
    }
  };
  walk('', 0);
  return out;
}
