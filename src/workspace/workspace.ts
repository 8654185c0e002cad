// A workspace: an isolated, disposable copy of an environment at some state.
//
// Layout of one workspace directory (only repo/ is visible to commands):
//   ws-<pid>-<id>/repo/     the work tree, holding one fresh commit and no remote
//   ws-<pid>-<id>/trusted/  FrogNano's own git dir for the same tree: diffs and
//                           resets use it, so nothing done inside the sandbox
//                           (commits, config, hooks) can change what they report
//   ws-<pid>-<id>/out/      reports written by test runners
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { git, GitOutputTooLarge, GitTimeout } from '../util/git.js';
import { LAYER_CACHES, type ExecRequest, type ExecResult, type Mounts, type Runtime } from '../runtime/types.js';
import { sweepOrphans, track, untrack } from './cleanup.js';

/** Folders test runners write into the work tree on every run: node-tap's results and coverage data. */
const RUNNER_OUTPUT = ['.tap', '.nyc_output'];
import { ChangeRefused, scanTree } from './scan.js';

const run = promisify(execFile);

export interface WorkspaceOptions {
  /** Directory holding the environment's source at its reference state. */
  snapshot: string;
  layers: { rel: string; host: string }[];
  runtime: Runtime;
  /** Parent directory for workspaces (inside the data directory). */
  baseDir: string;
  /** A patch applied before the workspace's single commit (e.g. a task's bug). */
  patch?: string;
  /** Files removed before the commit (e.g. hidden tests), relative to the root. */
  removeFiles?: string[];
  /**
   * Last changes to the work tree before its single commit and before it is
   * handed to the sandbox's uid, so what it writes looks like the rest (e.g.
   * the verifier's graded layout); `apply` applies a patch with git.
   */
  prepare?: (tree: { root: string; apply: (patch: string) => Promise<void> }) => Promise<void> | void;
}

/** Bytes of an agent's change the host reads; a larger change is refused. */
export const MAX_CHANGE_BYTES = 8 * 1024 * 1024;
/** Time for each host-side git call on an agent's tree. */
export const DIFF_TIMEOUT_MS = 60_000;

let counter = 0;
let swept = false;

/** A distinct unprivileged uid per workspace, so process limits are per sandbox. */
function nextUid(): number {
  counter = (counter + 1) % 64;
  return 200000 + ((process.pid % 4096) * 64 + counter);
}

export class Workspace {
  private disposed = false;

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

  static async create(opts: WorkspaceOptions): Promise<Workspace> {
    mkdirSync(opts.baseDir, { recursive: true });
    if (!swept) {
      swept = true;
      sweepOrphans(opts.baseDir);
    }
    const dir = mkdtempSync(join(opts.baseDir, `ws-${process.pid}-`));
    track(dir);
    try {
      const root = join(dir, 'repo');
      const outDir = join(dir, 'out');
      // Copy-on-write where the file system supports it, a fast copy elsewhere.
      await run('cp', ['-a', '--reflink=auto', opts.snapshot, root]);
      mkdirSync(outDir);
      const layerPaths = opts.layers.map((l) => l.rel);
      for (const rel of layerPaths) {
        rmSync(join(root, rel), { recursive: true, force: true });
        mkdirSync(join(root, rel), { recursive: true }); // mount point for the read-only layer
      }
      // Folders a runner writes on every run (node-tap's results) are never part of a change.
      const exclude = [...layerPaths, ...RUNNER_OUTPUT].map((p) => `/${p}`).join('\n') + '\n';
      const gitDir = join(dir, 'trusted');
      await git(['init', '-q', '--template=', '-b', 'main', '--bare', gitDir]);
      await git(['config', 'core.bare', 'false'], { gitDir });
      mkdirSync(join(gitDir, 'info'), { recursive: true });
      writeFileSync(join(gitDir, 'info', 'exclude'), exclude);
      const ws = { gitDir, workTree: root };
      if (opts.patch) await git(['apply', '--whitespace=nowarn', '-'], { ...ws, input: opts.patch });
      for (const rel of opts.removeFiles ?? []) rmSync(join(root, rel), { force: true });
      await opts.prepare?.({ root, apply: (patch) => git(['apply', '--whitespace=nowarn', '-'], { ...ws, input: patch }).then(() => undefined) });
      await git(['add', '-A'], ws);
      await git(['commit', '-q', '--no-verify', '--no-gpg-sign', '--allow-empty', '-m', 'workspace'], ws);
      // The sandbox sees its own copy of that one commit as repo/.git.
      cpSync(gitDir, join(root, '.git'), { recursive: true });
      const uid = nextUid();
      if (process.getuid?.() === 0 && opts.runtime.isolated) {
        await run('chown', ['-R', `${uid}:${uid}`, root, outDir]);
      }
      // Mount points for runners' caches exist in the layer (made at build time); each gets a fresh writable folder.
      const scratch = opts.layers.flatMap((l) => (LAYER_CACHES[l.rel] ?? []).filter((c) => existsSync(join(l.host, c))).map((c) => `${l.rel}/${c}`));
      return new Workspace(dir, opts.runtime, { root, layers: opts.layers, outDir, uid, ...(scratch.length ? { scratch } : {}) }, layerPaths);
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      untrack(dir);
      throw err;
    }
  }

  exec(req: ExecRequest): Promise<ExecResult> {
    if (this.disposed) throw new Error('workspace already disposed');
    return this.runtime.exec(this.mounts, req);
  }

  /**
   * The change from the workspace's commit to the current files, as a git
   * patch. Computed with FrogNano's own git dir, so commits or history
   * rewritten inside the sandbox cannot hide a change. The tree is checked
   * first (scan.ts) and git is bounded in time and output: a tree or change
   * the host will not read throws ChangeRefused, the agent's own failure.
   */
  async diff(): Promise<string> {
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

  /** Back to the workspace's commit: changes undone, new files removed. */
  async reset(): Promise<void> {
    await git(['reset', '-q', '--hard', 'HEAD'], this.trusted);
    await git(['clean', '-q', '-fdx', ...this.layerPaths.flatMap((p) => ['-e', `/${p}`])], this.trusted);
    rmSync(join(this.root, '.git'), { recursive: true, force: true });
    cpSync(this.trusted.gitDir, join(this.root, '.git'), { recursive: true });
    rmSync(this.mounts.outDir, { recursive: true, force: true });
    mkdirSync(this.mounts.outDir);
    if (process.getuid?.() === 0 && this.runtime.isolated) {
      const id = `${this.mounts.uid}:${this.mounts.uid}`;
      await run('chown', ['-R', id, this.root, this.mounts.outDir]);
    }
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

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    rmSync(this.dir, { recursive: true, force: true });
    untrack(this.dir);
  }
}
