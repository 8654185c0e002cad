// A digest of a work tree's content, computed in this process (no git): the
// key under which results of commands on that content are reused
// (grading/reuse.ts). Bounded like every host read of agent-made files: past
// the limits, or at anything but files, folders and links, there is no digest
// and nothing is reused.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { readBounded } from '../util/bounded-read.js';

/** Bytes of file content a digest reads at most. */
export const MAX_DIGEST_BYTES = 64 * 1024 * 1024;
const MAX_DIGEST_ENTRIES = 50_000;

/** The sha256 of the tree under `root` (paths, executable bits, contents, link targets), `skip` and every `.git` left out; null past the limits. */
export function treeDigest(root: string, skip: readonly string[] = [], maxBytes = MAX_DIGEST_BYTES): string | null {
  const skipped = new Set(skip);
  const h = createHash('sha256');
  const stack = [''];
  let bytes = 0;
  let entries = 0;
  try {
    while (stack.length) {
      const rel = stack.pop()!;
      const names = readdirSync(join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
      for (const e of names) {
        const path = rel ? `${rel}/${e.name}` : e.name;
        if (++entries > MAX_DIGEST_ENTRIES) return null;
        if (skipped.has(path) || e.name === '.git') continue;
        const full = join(root, path);
        if (e.isDirectory()) {
          h.update(`d ${path}\0`);
          stack.push(path);
        } else if (e.isSymbolicLink()) {
          h.update(`l ${path}\0${readlinkSync(full)}\0`);
        } else if (e.isFile()) {
          const st = lstatSync(full);
          bytes += st.size;
          if (bytes > maxBytes) return null;
          const body = readBounded(full, maxBytes);
          h.update(`f ${path} ${st.mode & 0o111 ? 'x' : '-'} ${body.length}\0`).update(body);
        } else return null;
      }
    }
  } catch {
    return null; // changed or vanished while read: no key
  }
  return h.digest('hex');
}
