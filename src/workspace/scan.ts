// What the host checks in a work tree before its own git reads it. Sandboxed
// code writes that tree, and git on the host would follow what it finds: a
// nested repository (a `.git` directory or a `.git` file naming any other
// directory) is read as a submodule, outside the workspace or from a FIFO
// that blocks forever; FIFOs, sockets and devices have no place in a change.
// Such a tree is refused as the agent's failure, with a named reason.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const REFUSAL_CODES = ['nested-repository', 'special-file', 'too-many-files', 'too-large', 'binary', 'diff-timeout'] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** The agent's change cannot be graded: its own failure (reward 0), never an infrastructure one. */
export class ChangeRefused extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'ChangeRefused';
  }
}

export const MAX_TREE_ENTRIES = 200_000;

/**
 * Walks `root` without following links and throws ChangeRefused for a nested
 * repository, a special file or too many entries. The root's own `.git` (the
 * sandbox's copy, which git ignores) and `skip` (mount points of read-only
 * layers, relative to root) are not entered.
 */
export function scanTree(root: string, skip: readonly string[] = [], maxEntries = MAX_TREE_ENTRIES): void {
  const skipped = new Set(['.git', ...skip]);
  const stack = [''];
  let entries = 0;
  while (stack.length) {
    const rel = stack.pop()!;
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (++entries > maxEntries) throw new ChangeRefused('too-many-files', `the workspace holds more than ${maxEntries} files and directories`);
      if (skipped.has(path)) continue;
      if (e.name.toLowerCase() === '.git')
        throw new ChangeRefused('nested-repository', `${path}: a nested git repository or .git file is not allowed in a change`);
      if (e.isDirectory()) stack.push(path);
      else if (!e.isFile() && !e.isSymbolicLink()) {
        const kind = e.isFIFO() ? 'a named pipe' : e.isSocket() ? 'a socket' : 'a device';
        throw new ChangeRefused('special-file', `${path} is ${kind}; only regular files, directories and symbolic links may be in a change`);
      }
    }
  }
}
