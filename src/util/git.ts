// Git as FrogNano itself runs it: no user or system config, fixed identity and
// dates (so the same tree always gives the same commit), no prompts, no hooks.
import { execFile } from 'node:child_process';

export interface GitOptions {
  /** A git directory outside the work tree, which the sandboxed code cannot touch. */
  gitDir?: string;
  workTree?: string;
  cwd?: string;
  input?: string;
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

// Work trees are owned by sandbox uids; their config must never run programs.
const SAFE = ['-c', 'safe.directory=*', '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false'];

export function git(args: string[], opts: GitOptions = {}): Promise<string> {
  const pre = [...SAFE];
  if (opts.gitDir) pre.push(`--git-dir=${opts.gitDir}`);
  if (opts.workTree) pre.push(`--work-tree=${opts.workTree}`);
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...pre, ...args],
      {
        cwd: opts.cwd ?? opts.workTree ?? process.cwd(),
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', ...GIT_ENV },
        maxBuffer: 256 * 1024 * 1024,
        encoding: 'utf8',
      },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`git ${args.join(' ')} failed: ${stderr.trim() || err.message}`));
        else resolve(stdout);
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}
