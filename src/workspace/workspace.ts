// A workspace: an isolated, disposable copy of an environment at some state.
//
// Layout of one workspace directory (only repo/ is visible to commands):
//   ws-<pid>-<id>/repo/     the work tree, holding one fresh commit and no remote
//   ws-<pid>-<id>/trusted/  FrogNano's own git dir for the same tree: diffs and
//                           resets use it, so nothing done inside the sandbox
//                           (commits, config, hooks) can change what they report
//   ws-<pid>-<id>/out/      reports written by test runners
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, GitOutputTooLarge, GitTimeout } from '../util/git.js';
import { LAYER_CACHES, suitsSession, type ExecRequest, type ExecResult, type Mounts, type Runtime, type Session } from '../runtime/types.js';
import { removeLater, sweepOrphans } from './cleanup.js';
import { buildTree, ImageStore, RUNNER_OUTPUT, type ImageRecipe } from './image.js';
import { treeDigest } from './digest.js';
import { copyImage, newWorkspaceDir, WorkspacePool, type Copy } from './pool.js';
import { ChangeRefused, scanTree } from './scan.js';
import { guardAssetsDir } from '../util/paths.js';

export interface WorkspaceOptions extends Omit<ImageRecipe, 'layerPaths'> {
  layers: { rel: string; host: string }[];
  runtime: Runtime;
  /** Parent directory for workspaces (inside the data directory). */
  baseDir: string;
  /**
   * false: no copies of this state made ahead for later callers. For states
   * taken a known few times one after another (a candidate's validation),
   * where spare copies would mostly be made and removed unused.
   */
  spares?: false;
}

/** Bytes of an agent's change the host reads; a larger change is refused. */
export const MAX_CHANGE_BYTES = 8 * 1024 * 1024;
/** Time for each host-side git call on an agent's tree. */
export const DIFF_TIMEOUT_MS = 60_000;

/** Base directories already swept of dead processes' workspaces. */
const swept = new Set<string>();

/** This process's prepared images and ready copies (image.ts, pool.ts). */
export const workspaceImages = new ImageStore();
export const workspacePool = new WorkspacePool();

export class Workspace {
  private disposed = false;
  private kept: Session | undefined;

  private constructor(
    readonly dir: string,
    readonly runtime: Runtime,
    readonly mounts: Mounts,
    private readonly layerPaths: string[],
  ) {}

  get root(): string {
    return this.mounts.root;
  }

  private get trusted() {
    return { gitDir: join(this.dir, 'trusted'), workTree: this.root };
  }

  /**
   * A workspace of the recipe. When everything it does is named (no
   * `prepare`, or one with a `prepareKey`), it is a copy of the recipe's
   * image, usually made ahead of time; otherwise the image without `prepare`
   * is copied, `prepare` runs on the copy, and the copy gets its own commit.
   */
  static async create(opts: WorkspaceOptions): Promise<Workspace> {
    mkdirSync(opts.baseDir, { recursive: true });
    if (!swept.has(opts.baseDir)) {
      swept.add(opts.baseDir);
      sweepOrphans(opts.baseDir);
    }
    const layerPaths = opts.layers.map((l) => l.rel);
    const recipe: ImageRecipe = { ...opts, layerPaths };
    const chown = process.getuid?.() === 0 && opts.runtime.isolated;
    let copy: Copy;
    if (!opts.prepare || opts.prepareKey !== undefined) {
      const image = await workspaceImages.get(opts.baseDir, recipe);
      copy = opts.spares === false ? await copyImage(image, opts.baseDir, chown) : await workspacePool.take(image, opts.baseDir, chown);
    } else {
      const { prepare: _p, ...base } = recipe;
      const image = await workspaceImages.get(opts.baseDir, base);
      copy = await Workspace.prepared(recipe, image, opts.baseDir, chown);
    }
    // Mount points for runners' caches exist in the layer (made at build time); each gets a fresh writable folder.
    const scratch = opts.layers.flatMap((l) => (LAYER_CACHES[l.rel] ?? []).filter((c) => existsSync(join(l.host, c))).map((c) => `${l.rel}/${c}`));
    const mounts: Mounts = {
      root: join(copy.dir, 'repo'),
      layers: opts.layers,
      outDir: join(copy.dir, 'out'),
      tools: guardAssetsDir,
      uid: copy.uid,
      ...(scratch.length ? { scratch } : {}),
    };
    return new Workspace(copy.dir, opts.runtime, mounts, layerPaths);
  }

  /** A copy of an image's tree with `prepare` run on it and a commit of its own. */
  private static prepared(recipe: ImageRecipe, image: string, baseDir: string, chown: boolean): Promise<Copy> {
    return newWorkspaceDir(baseDir, chown, (dir) => buildTree(recipe, join(dir, 'repo'), join(dir, 'trusted'), join(image, 'repo')));
  }

  /**
   * Runs later commands in one sandbox kept for this workspace where the
   * runtime has one (an agent's episode): the sandbox starts once, not per
   * command. Requests it cannot run as exec would still get a sandbox each.
   */
  keepSandbox(): void {
    if (this.kept) return;
    // Started by the first command that reaches it: an episode whose test runs are all reused starts none.
    this.kept = this.runtime.session?.(this.mounts);
  }

  exec(req: ExecRequest): Promise<ExecResult> {
    if (this.disposed) throw new Error('workspace already disposed');
    if (this.kept && suitsSession(req)) return this.kept.exec(req);
    return this.runtime.exec(this.mounts, req);
  }

  /** Ends the kept sandbox, if any, so nothing runs in the tree any more. */
  async release(): Promise<void> {
    const kept = this.kept;
    this.kept = undefined;
    await kept?.close();
  }

  /**
   * The change from the workspace's commit to the current files, as a git
   * patch. Computed with FrogNano's own git dir, so commits or history
   * rewritten inside the sandbox cannot hide a change. The tree is checked
   * first (scan.ts) and git is bounded in time and output: a tree or change
   * the host will not read throws ChangeRefused, the agent's own failure.
   */
  async diff(): Promise<string> {
    await this.release();
    scanTree(this.root, this.layerPaths);
    const bounded = { ...this.trusted, timeoutMs: DIFF_TIMEOUT_MS };
    try {
      await git(['add', '-A'], bounded);
      return await git(['diff', '--cached', '--binary', '--no-color', '--no-ext-diff', '--no-textconv', 'HEAD'], {
        ...bounded,
        maxOutputBytes: MAX_CHANGE_BYTES,
      });
    } catch (err) {
      if (err instanceof GitOutputTooLarge) throw new ChangeRefused('too-large', `the change is larger than ${MAX_CHANGE_BYTES} bytes`);
      if (err instanceof GitTimeout) throw new ChangeRefused('diff-timeout', `the workspace could not be diffed within ${DIFF_TIMEOUT_MS / 1000} s`);
      throw err;
    }
  }

  /** A digest of the work tree's content (digest.ts), null when it cannot be read within bounds. */
  digest(): string | null {
    return treeDigest(this.root, [...this.layerPaths, ...RUNNER_OUTPUT]);
  }

  /** Applies a patch to the work tree from the host, without committing it. */
  async applyPatch(patch: string): Promise<void> {
    await git(['apply', '--whitespace=nowarn', '-'], { ...this.trusted, input: patch });
  }

  /** Writes a file into the work tree from the host (e.g. restoring hidden tests). */
  writeFile(rel: string, content: string | Buffer): void {
    const path = join(this.root, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }

  /** Removes the workspace, in the background: nothing waits for it. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    removeLater(this.dir, this.release());
  }
}
