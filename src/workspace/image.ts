// A workspace image: one prepared state of an environment (its snapshot with
// a bug applied, hidden files removed, last edits made) and the single commit
// of that state, built once per process and recipe. Workspaces are copies of
// an image, made in this process without starting any program: on this kind
// of machine each process start costs 5-15 ms from Node, and building the
// state with git took eight of them (docs/decisions/2026-12-05-inner-loop.md).
//
// Layout of an image directory (as of a workspace, see workspace.ts):
//   repo/     the work tree, with repo/.git a copy of trusted/
//   trusted/  the git dir holding the one commit
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addEverything, git, gitScript } from '../util/git.js';
import { sweepOrphans, track, untrack } from './cleanup.js';

/** Folders test runners write into the work tree on every run: node-tap's results and coverage data. */
export const RUNNER_OUTPUT = ['.tap', '.nyc_output'];

export interface ImageRecipe {
  /** Directory holding the environment's source at its reference state. */
  snapshot: string;
  /** Mount points of read-only layers, relative to the root: emptied folders in the image. */
  layerPaths: string[];
  /** A patch applied before the commit (e.g. a task's bug). */
  patch?: string;
  /** Files removed before the commit (e.g. hidden tests). */
  removeFiles?: string[];
  /**
   * Last changes before the commit (e.g. held-back tests cut from their
   * files); `apply` applies a patch with git. Part of the image only with
   * `prepareKey`, which names what it does; without one it runs on each copy.
   */
  prepare?: (tree: { root: string; apply: (patch: string) => Promise<void> }) => Promise<void> | void;
  prepareKey?: string;
}

/** What names an image: everything that decides its files. */
export function imageKey(r: ImageRecipe): string {
  const h = createHash('sha256');
  for (const part of [r.snapshot, r.layerPaths.join('\n'), r.patch ?? '', (r.removeFiles ?? []).join('\n'), r.prepareKey ?? '']) h.update(part).update('\0');
  return h.digest('hex').slice(0, 24);
}

/**
 * Copies a directory tree in this process: modes, modification times and
 * links kept, nothing followed. Node's own cp makes several calls per file
 * more than this; at about a hundred files per workspace that was 3 to 8
 * times slower here (docs/decisions/2026-12-05-inner-loop.md).
 */
export function copyTree(from: string, to: string, skip?: (name: string, depth: number) => boolean): void {
  const walk = (src: string, dst: string, depth: number) => {
    const st = lstatSync(src);
    mkdirSync(dst);
    for (const e of readdirSync(src, { withFileTypes: true })) {
      if (skip?.(e.name, depth)) continue;
      const s = join(src, e.name);
      const d = join(dst, e.name);
      if (e.isDirectory()) walk(s, d, depth + 1);
      else if (e.isSymbolicLink()) symlinkSync(readlinkSync(s), d);
      else if (e.isFile()) {
        copyFileSync(s, d);
        const f = lstatSync(s);
        utimesSync(d, f.atime, f.mtime);
      }
    }
    chmodSync(dst, st.mode & 0o7777);
    utimesSync(dst, st.atime, st.mtime);
  };
  walk(from, to, 0);
}

/** Hands a tree to a uid, without following links (what `chown -R` does), in this process. */
export function chownTree(root: string, uid: number): void {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    lchownSync(dir, uid, uid);
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) stack.push(path);
      else lchownSync(path, uid, uid);
    }
  }
}

let emptyGitDir: Promise<string> | undefined;

/** A fresh, empty git dir for a work tree, with the paths git must never record excluded: a copy of one git made once. */
export async function initGitDir(gitDir: string, excluded: string[]): Promise<void> {
  emptyGitDir ??= (async () => {
    // Named by pid in a folder per user, so one left by a killed process is swept by the next.
    const base = join(tmpdir(), `frognano-git-${process.getuid?.() ?? 0}`);
    mkdirSync(base, { recursive: true });
    sweepOrphans(base);
    const dir = join(mkdtempSync(join(base, `ws-${process.pid}-`)), 'git');
    await gitScript([
      ['init', '-q', '--template=', '-b', 'main', '--bare', dir],
      ['--git-dir', dir, 'config', 'core.bare', 'false'],
    ]);
    process.once('exit', () => rmSync(join(dir, '..'), { recursive: true, force: true }));
    return dir;
  })();
  copyTree(await emptyGitDir, gitDir);
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  writeFileSync(join(gitDir, 'info', 'exclude'), excluded.map((p) => `/${p}`).join('\n') + '\n');
}

/**
 * Records the work tree as the git dir's one commit and gives the tree its
 * own copy of that git dir as .git. `pack`: the objects in one pack, so an
 * image's copies hold a few files instead of one per object.
 */
export async function commitTree(gitDir: string, root: string, excluded: string[], pack = false): Promise<void> {
  const ws = ['--git-dir', gitDir, '--work-tree', root];
  await gitScript([
    [...ws, ...addEverything(excluded)],
    [...ws, 'commit', '-q', '--no-verify', '--no-gpg-sign', '--allow-empty', '-m', 'workspace'],
    ...(pack
      ? [
          ['--git-dir', gitDir, 'repack', '-a', '-d', '-q'],
          ['--git-dir', gitDir, 'prune-packed'],
        ]
      : []),
  ]);
  copyTree(gitDir, join(root, '.git'));
}

/**
 * Builds the tree of a recipe at `root` (the snapshot copied, layer mount
 * points emptied, the patch applied, files removed, `prepare` run) with its
 * git dir at `gitDir`, committed.
 */
export async function buildTree(r: ImageRecipe, root: string, gitDir: string, from?: string): Promise<void> {
  copyTree(from ?? r.snapshot, root, from ? (name, depth) => depth === 0 && name === '.git' : undefined);
  for (const rel of r.layerPaths) {
    rmSync(join(root, rel), { recursive: true, force: true });
    mkdirSync(join(root, rel), { recursive: true }); // mount point for the read-only layer
  }
  const excluded = [...r.layerPaths, ...RUNNER_OUTPUT];
  await initGitDir(gitDir, excluded);
  const ws = { gitDir, workTree: root };
  const apply = (patch: string) => git(['apply', '--whitespace=nowarn', '-'], { ...ws, input: patch }).then(() => undefined);
  if (!from) {
    if (r.patch) await apply(r.patch);
    for (const rel of r.removeFiles ?? []) rmSync(join(root, rel), { force: true });
  }
  await r.prepare?.({ root, apply });
  await commitTree(gitDir, root, excluded, !from);
}

/** Prepared images of this process, by key; the least recently used go past `max`. */
export class ImageStore {
  private readonly images = new Map<string, Promise<string>>();
  private seq = 0;

  constructor(private readonly max = 32) {}

  /** The image directory for a recipe (whose `prepare`, if any, has a key), built on first use. */
  get(baseDir: string, r: ImageRecipe): Promise<string> {
    const key = imageKey(r);
    const hit = this.images.get(key);
    if (hit) {
      this.images.delete(key);
      this.images.set(key, hit);
      return hit;
    }
    const built = this.build(baseDir, r, key);
    built.catch(() => this.images.delete(key));
    this.images.set(key, built);
    while (this.images.size > this.max) this.evict(this.images.keys().next().value!);
    return built;
  }

  private async build(baseDir: string, r: ImageRecipe, key: string): Promise<string> {
    mkdirSync(baseDir, { recursive: true });
    const dir = join(baseDir, `ws-${process.pid}-img-${key}-${this.seq++}`);
    track(dir);
    try {
      mkdirSync(dir);
      await buildTree(r, join(dir, 'repo'), join(dir, 'trusted'));
      return dir;
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      untrack(dir);
      throw err;
    }
  }

  private evict(key: string): void {
    const dir = this.images.get(key);
    this.images.delete(key);
    void dir?.then(
      (d) => {
        rmSync(d, { recursive: true, force: true });
        untrack(d);
      },
      () => {},
    );
  }

  /** Removes every image (tests; the exit handler removes them otherwise). */
  clear(): void {
    for (const key of [...this.images.keys()]) this.evict(key);
  }
}
