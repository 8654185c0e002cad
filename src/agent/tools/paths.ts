// The security boundary of the file tools. Read, Write, Edit and Glob run on
// the host copy of the workspace, while the sandboxed code can plant symlinks
// there (to /etc/shadow, to /, to a parent directory). Every path is resolved
// the way the kernel would (each symlink followed, including a dangling final
// one that a write would create through) and refused unless the result stays
// inside the workspace root. Writes to .git and to read-only dependency
// layers are refused too.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { ToolError } from './define.js';
import type { ToolContext } from './types.js';
import { errnoCode } from '../../util/errors.js';

export interface ResolvedPath {
  /** The real path on the host (symlinks resolved). */
  host: string;
  /** Relative to the workspace root ('' for the root itself). */
  rel: string;
  /** As the model sees it: under the workdir. */
  shown: string;
}

const MAX_LINKS = 40;

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * realpath that also works for paths that do not exist yet: the deepest
 * existing ancestor is resolved and the rest appended, and a dangling
 * symlink is followed to where a write through it would land.
 */
export function resolveReal(p: string, depth = 0): string {
  if (depth > MAX_LINKS) throw new ToolError('too many levels of symbolic links');
  try {
    return realpathSync(p);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ELOOP') throw new ToolError('too many levels of symbolic links');
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  let link = false;
  try {
    link = lstatSync(p).isSymbolicLink();
  } catch {
    /* does not exist */
  }
  if (link) return resolveReal(resolve(dirname(p), readlinkSync(p)), depth + 1);
  return join(resolveReal(dirname(p), depth + 1), basename(p));
}

/** Maps what the model typed to a path relative to the workspace root (lexically). */
function relativeInput(ctx: ToolContext, input: string, hostRoot: string): string {
  const p = input.trim();
  if (!p) throw new ToolError('the path is empty');
  if (p.includes('\0')) throw new ToolError('the path contains a NUL byte');
  if (!isAbsolute(p)) return normalize(p);
  const n = normalize(p);
  for (const base of new Set([ctx.workdir, ctx.workspace.root, hostRoot])) {
    const b = normalize(base);
    if (n === b) return '.';
    if (inside(b, n)) return n.slice(b.length).replace(/^\/+/, '');
  }
  throw new ToolError(`${input} is outside the workspace; paths must be under ${ctx.workdir} or relative to it`);
}

function outside(input: string): ToolError {
  return new ToolError(`${input} resolves outside the workspace (symlinks are followed); access refused`);
}

/**
 * Resolves a path for a file tool. Reads under a read-only dependency layer
 * go to the layer's host directory (the workspace holds only an empty mount
 * point there); writes to a layer or to any `.git` directory are refused.
 */
export function resolvePath(ctx: ToolContext, input: string, mode: 'read' | 'write'): ResolvedPath {
  const root = realpathSync(ctx.workspace.root);
  const rel = relativeInput(ctx, input, root);
  const lexical = resolve(root, rel);
  if (!inside(root, lexical)) throw outside(input);
  const layer = ctx.workspace.mounts.layers.find((l) => inside(resolve(root, l.rel), lexical));
  if (layer) {
    if (mode === 'write') throw new ToolError(`${input} is in the read-only dependency directory ${layer.rel}`);
    const base = realpathSync(layer.host);
    const host = resolveReal(resolve(base, relative(resolve(root, layer.rel), lexical)));
    if (!inside(base, host)) throw outside(input);
    const r = join(layer.rel, relative(base, host));
    return { host, rel: r, shown: join(ctx.workdir, r) };
  }
  const host = resolveReal(lexical);
  if (!inside(root, host)) throw outside(input);
  const realRel = relative(root, host);
  if (mode === 'write') {
    if (realRel === '') throw new ToolError(`${input} is the workspace directory itself`);
    if (realRel.split(sep).some((part) => part.toLowerCase() === '.git')) {
      throw new ToolError(`${input} is inside a .git directory; writing there is not allowed`);
    }
  }
  return { host, rel: realRel, shown: realRel ? join(ctx.workdir, realRel) : ctx.workdir };
}
