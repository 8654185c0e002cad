// The list `env scan` reads: one repository a line, `TARGET [COMMIT] [NAME]`,
// where TARGET is a git URL or a local path (a work tree or a bare git
// directory). Blank lines and `#` comments are skipped.
import { readFileSync } from 'node:fs';
import { basename, isAbsolute, resolve, dirname } from 'node:path';
import { UserError } from '../util/errors.js';

export interface ScanItem {
  /** Where to clone from: a URL, or an absolute local path. */
  target: string;
  /** The commit to pin; absent: the target's HEAD, recorded when cloned. */
  commit?: string;
  /** The environment's name: given, or made from the target. */
  name: string;
  line: number;
}

const COMMIT = /^[0-9a-f]{7,40}$/;
const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** A name from a URL or path: its last meaningful part, lower-cased ("owner+repo/repo.git" → "repo"). */
export function nameFromTarget(target: string): string {
  const parts = target
    .replace(/\/+$/, '')
    .split(/[/:]/)
    .filter((p) => p && !/^(repo|\.git)$/.test(p));
  const last = (parts[parts.length - 1] ?? 'repo').replace(/\.git$/, '').replace(/^.*\+/, '');
  return (
    last
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'repo'
  );
}

export function parseScanList(text: string, baseDir: string, where = 'the list'): ScanItem[] {
  const items: ScanItem[] = [];
  const taken = new Set<string>();
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) continue;
    const [target, ...rest] = line.split(/\s+/);
    let commit: string | undefined;
    let name: string | undefined;
    for (const word of rest) {
      if (!commit && !name && COMMIT.test(word)) commit = word;
      else if (!name && NAME.test(word)) name = word;
      else
        throw new UserError(
          `${where} line ${i + 1}: "${word}" is neither a commit (7-40 hex digits) nor a name (lower-case letters, digits, -)`,
          'write each line as TARGET [COMMIT] [NAME]',
        );
    }
    const isUrl = /^(https?|git|ssh|file):\/\//.test(target!) || /^[\w.-]+@[\w.-]+:/.test(target!);
    const resolved = isUrl || isAbsolute(target!) ? target! : resolve(baseDir, target!);
    let unique = name ?? nameFromTarget(resolved);
    if (name && taken.has(name)) throw new UserError(`${where} line ${i + 1}: the name "${name}" is used twice`);
    for (let k = 2; taken.has(unique); k++) unique = `${name ?? nameFromTarget(resolved)}-${k}`;
    taken.add(unique);
    items.push({ target: resolved, ...(commit ? { commit } : {}), name: unique, line: i + 1 });
  }
  return items;
}

export function readScanList(path: string): ScanItem[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError(`cannot read the list ${path}`, 'pass a file with one repository a line: URL-or-path [commit] [name]');
  }
  const items = parseScanList(text, dirname(resolve(path)), basename(path));
  if (items.length === 0) throw new UserError(`the list ${path} names no repository`, 'write one repository a line: URL-or-path [commit] [name]');
  return items;
}
