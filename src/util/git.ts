// Git as FrogNano itself runs it: no user or system config, fixed identity and
// dates (so the same tree always gives the same commit), no prompts, no hooks.
// Every call has a time limit and an output cap: git also runs on work trees
// that sandboxed code wrote, where a planted FIFO or a huge file must not
// stall or flood the host.
import { runProcess } from './process.js';
import { shellQuote } from './shell.js';

export interface GitOptions {
  /** A git directory outside the work tree, which the sandboxed code cannot touch. */
  gitDir?: string;
  workTree?: string;
  cwd?: string;
  input?: string;
  /** Killed past this (default 120 s). */
  timeoutMs?: number;
  /** stdout plus stderr past this is an error, GitOutputTooLarge (default 256 MiB). */
  maxOutputBytes?: number;
}

/** Git ran past the caller's time limit: the call was killed. */
export class GitTimeout extends Error {
  constructor(
    readonly args: string[],
    readonly timeoutMs: number,
  ) {
    super(`git ${args[0]} took longer than ${Math.round(timeoutMs / 1000)} s and was killed`);
    this.name = 'GitTimeout';
  }
}

/** Git printed more than the caller's cap: the call was killed. */
export class GitOutputTooLarge extends Error {
  constructor(
    readonly args: string[],
    readonly limit: number,
  ) {
    super(`git ${args[0]} printed more than ${limit} bytes and was stopped`);
    this.name = 'GitOutputTooLarge';
  }
}

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'FrogNano',
  GIT_AUTHOR_EMAIL: 'frognano@localhost',
  GIT_COMMITTER_NAME: 'FrogNano',
  GIT_COMMITTER_EMAIL: 'frognano@localhost',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
};

// Work trees are owned by sandbox uids; their config must never run programs. No automatic maintenance: every commit
// would otherwise start `git maintenance run --auto` (a process each) on repositories that live for seconds.
const SAFE = [
  '-c',
  'safe.directory=*',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.quotePath=false',
  '-c',
  'maintenance.auto=false',
  '-c',
  'gc.auto=0',
];

/**
 * `git add` of every file in a tree FrogNano copied from a snapshot, the
 * project's .gitignore notwithstanding: the snapshot holds exactly the
 * repository's files, and one committed under an ignored path (a build in
 * dist/) must be in the commit, or a change to it looks like a leak.
 * `excluded`: top-level paths never recorded (layer mount points, runner output).
 */
export function addEverything(excluded: string[] = []): string[] {
  return ['add', '-A', '--force', '--', '.', ...excluded.map((p) => `:(top,exclude)${p}`)];
}

/**
 * Several git calls in one shell, stopping at the first that fails: one
 * process started from Node instead of one per call (each costs 5-15 ms).
 * For trees FrogNano itself made; no input, same limits as git().
 */
export async function gitScript(steps: string[][], opts: Omit<GitOptions, 'input' | 'gitDir' | 'workTree'> = {}): Promise<void> {
  const script = ['set -e', ...steps.map((args) => ['git', ...SAFE, ...args].map(shellQuote).join(' '))].join('\n');
  const res = await runProcess({
    argv: ['sh', '-c', script],
    cwd: opts.cwd ?? process.cwd(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', ...GIT_ENV },
    timeoutMs: opts.timeoutMs ?? 120_000,
    maxOutputBytes: opts.maxOutputBytes ?? 1024 * 1024,
  });
  if (res.spawnError) throw new Error(`git could not be started: ${res.spawnError}`);
  if (res.timedOut) throw new GitTimeout(steps[0] ?? [], opts.timeoutMs ?? 120_000);
  if (res.exitCode !== 0) throw new Error(`git failed: ${res.stderr.trim() || `exit ${res.exitCode ?? res.signal}`}`);
}

export async function git(args: string[], opts: GitOptions = {}): Promise<string> {
  const pre = [...SAFE];
  if (opts.gitDir) pre.push(`--git-dir=${opts.gitDir}`);
  if (opts.workTree) pre.push(`--work-tree=${opts.workTree}`);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const limit = opts.maxOutputBytes ?? 256 * 1024 * 1024;
  const res = await runProcess({
    argv: ['git', ...pre, ...args],
    cwd: opts.cwd ?? opts.workTree ?? process.cwd(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', ...GIT_ENV },
    timeoutMs,
    maxOutputBytes: limit,
    ...(opts.input !== undefined ? { stdin: opts.input } : {}),
  });
  if (res.spawnError) throw new Error(`git could not be started: ${res.spawnError}`);
  if (res.timedOut) throw new GitTimeout(args, timeoutMs);
  if (res.outputLimited) throw new GitOutputTooLarge(args, limit);
  if (res.exitCode !== 0) throw new Error(`git ${args.join(' ')} failed: ${res.stderr.trim() || `exit ${res.exitCode ?? res.signal}`}`);
  return res.stdout;
}
