// Git repositories of environments, for exports whose harnesses check out
// commits (SWE-bench, SWE-smith): the clean state on `main`, and the broken
// states of tasks as commits on branches. git runs with fixed identity and
// dates (util/git.ts): the same export gives the same hashes.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { envWorkspace } from '../env/workspace.js';
import { rewriteKeepingTimes, withoutHeldBack } from '../grading/holdback.js';
import type { Task } from '../task/task.js';
import { addEverything, git } from '../util/git.js';
import type { ExportContext } from './harbor.js';

/** The built environment of a task (prepared once per environment by the caller). */
export type EnvironmentOf = (t: Task) => Promise<ExportContext>;

/** A git repository of one environment: its clean commit, and a branch per task. */
export class EnvRepo {
  private constructor(
    readonly dir: string,
    readonly clean: string,
  ) {}

  static async create(dir: string, snapshot: string): Promise<EnvRepo> {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    await git(['init', '-q', '--template=', '-b', 'main'], { cwd: dir });
    cpSync(snapshot, dir, { recursive: true, verbatimSymlinks: true, filter: (src) => !src.endsWith('/.git') });
    await git(addEverything(), { cwd: dir });
    await git(['commit', '-q', '--no-verify', '-m', 'clean: the environment as FrogNano built it'], { cwd: dir });
    return new EnvRepo(dir, (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim());
  }

  /** The tree of a directory's content (nothing committed). */
  async tree(workTree: string): Promise<string> {
    const gitDir = join(this.dir, '.git');
    await git(['add', '-A'], { gitDir, workTree });
    const tree = (await git(['write-tree'], { gitDir, workTree })).trim();
    await git(['read-tree', 'HEAD'], { gitDir, workTree: this.dir }); // the index back to main's
    return tree;
  }

  /** Commits of trees, each on the one before, the first on the clean commit, on a branch of their own; returns the last. */
  async branch(name: string, commits: { tree: string; message: string }[]): Promise<string> {
    let parent = this.clean;
    for (const c of commits) parent = (await git(['commit-tree', c.tree, '-p', parent, '-m', c.message], { cwd: this.dir })).trim();
    await git(['branch', '-f', name, parent], { cwd: this.dir });
    return parent;
  }

  diff(from: string, to: string): Promise<string> {
    return git(['diff', '--binary', '--no-renames', from, to], { cwd: this.dir });
  }

  async changedFiles(from: string, to: string): Promise<{ path: string; status: string }[]> {
    const out = await git(['diff', '--name-status', '--no-renames', '-z', from, to], { cwd: this.dir });
    const parts = out.split('\0').filter(Boolean);
    const files: { path: string; status: string }[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) files.push({ status: parts[i]!, path: parts[i + 1]! });
    return files;
  }
}

/** A task's broken state as trees of the repository: with every test (full), and without its failing tests (cut: hidden files removed, failing tests cut from their files). */
export async function brokenTrees(t: Task, repo: EnvRepo, ctx: ExportContext): Promise<{ full: string; cut: string }> {
  const ws = await envWorkspace(ctx.built, ctx.runtime, ctx.dataDir, { patch: t.bugPatch });
  try {
    const full = await repo.tree(ws.root);
    // The workspace is this call's own copy: the cut is made in it (hidden files go after, being test files too).
    rewriteKeepingTimes(ws.root, await withoutHeldBack(ctx.built.snapshot, t.env.spec, t.FAIL_TO_PASS));
    for (const rel of t.hiddenFiles) rmSync(join(ws.root, rel), { force: true });
    return { full, cut: await repo.tree(ws.root) };
  } finally {
    ws.dispose();
  }
}

/** One repository per environment (name and hash) under a folder, made when its first task comes. */
export class EnvRepos {
  private readonly repos = new Map<string, { repo: EnvRepo; task: Task }>();

  constructor(readonly root: string) {}

  async get(t: Task, ctx: ExportContext): Promise<EnvRepo> {
    const key = `${t.env.name}-${t.env.hash.slice(0, 8)}`;
    let found = this.repos.get(key);
    if (!found) {
      found = { repo: await EnvRepo.create(join(this.root, key), ctx.built.snapshot), task: t };
      this.repos.set(key, found);
    }
    return found.repo;
  }

  /** Each repository with the first task it was made for (its environment's spec). */
  list(): { repo: EnvRepo; task: Task }[] {
    return [...this.repos.values()];
  }
}
