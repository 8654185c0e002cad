// A stand-in for a Harbor or SWE-bench container, for tests on a machine with no
// container engine: bubblewrap mounts the exported files where Harbor puts
// them (/workspace from environment/repo as the image's WORKDIR, /tests,
// /solution, /logs/verifier) and runs the scripts as Harbor would. The
// toolchain is the host's (its node and python3 with pytest), not the image's;
// the interpreter test.sh names by absolute path is the host's python3 mounted
// there. As root on the host, the scripts run as root, as Harbor's verifier
// does.
//
// What an agent with root in the container can leave for the grader is staged
// too: files under /tests before Harbor's upload merges tests/ into it, and
// programs left running, which share the grader's process namespace.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemBinds } from '../../src/runtime/bwrap.js';
import { hostPython } from '../../src/runtime/host.js';
import { tempDir } from '../helpers/workspace.js';

export interface Verdict {
  verdict: string;
  reason: string;
  cause?: string;
  honeypots?: number;
  dropped?: { file: string }[];
  checks?: { success: string[]; failure: string[] };
}

export interface Container {
  /** The container's /workspace on the host: what the agent works on. */
  workspace: string;
  /** Runs a script of the task directory (solution/solve.sh, tests/test.sh) inside the container; returns its output. */
  run(script: 'solution/solve.sh' | 'tests/test.sh'): string;
  /** A file the agent put under /tests before Harbor's upload: the upload merges tests/ over it. */
  plant(rel: string, content: string): void;
  /** A Python program the agent left running: started in the background just before tests/test.sh, in the same container. */
  leave(program: string): void;
  /** What the verifier left in /logs/verifier. */
  reward(): { reward: string; verdict: Verdict };
  /** The names in /logs/verifier. */
  logFiles(): string[];
}

/** Folders bwrap would make with mode 0700 as parents of a mount point, made 0755 so the graded run's user can pass. */
function parents(path: string): string[] {
  const parts = path.split('/').filter(Boolean).slice(0, -1);
  return parts.flatMap((_, i) => ['--perms', '0755', '--dir', `/${parts.slice(0, i + 1).join('/')}`]);
}

/**
 * The host's python3 at the absolute path test.sh runs (python:3.11-slim's
 * /usr/local/bin/python3 where the host has none): a tmpfs over that folder
 * with the host's own entries bound back. Debian's python3 where there is one
 * (its library is where it looks), else the Python the tests use.
 */
function interpreterAt(path: string): string[] {
  if (existsSync(path)) return [];
  const dir = dirname(path);
  const python = existsSync('/usr/bin/python3') ? realpathSync('/usr/bin/python3') : hostPython()?.executable;
  if (!python) throw new Error('no host python3 to stand in for the image interpreter');
  const args = ['--tmpfs', dir];
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const host = join(dir, name);
    args.push(...(lstatSync(host).isSymbolicLink() ? ['--symlink', readlinkSync(host), host] : ['--ro-bind', host, host]));
  }
  return [...args, '--ro-bind', python, path];
}

/** Runs argv in a bubblewrap sandbox with the host's toolchain and the given binds (host path -> sandbox path). */
export function inSandbox(binds: Record<string, string>, argv: string[], chdir: string, extra: string[] = []): string {
  const python = hostPython();
  const bin = python ? dirname(python.executable) : '/usr/bin';
  const args = [
    '--unshare-pid',
    '--unshare-net',
    '--die-with-parent',
    ...systemBinds(false),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--perms',
    '1777',
    '--tmpfs',
    '/tmp',
    ...(python?.prefixes ?? []).filter((p) => !p.startsWith('/usr/')).flatMap((p) => [...parents(p), '--ro-bind', p, p]),
    ...extra,
    ...Object.entries(binds).flatMap(([host, inside]) => ['--bind', host, inside]),
    '--chdir',
    chdir,
    ...argv,
  ];
  return execFileSync('bwrap', args, { encoding: 'utf8', timeout: 120_000, env: { PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, HOME: '/tmp' } });
}

export function container(taskDir: string): Container {
  const workspace = tempDir('fn-harbor-ws-');
  cpSync(join(taskDir, 'environment', 'repo'), workspace, { recursive: true });
  const logs = tempDir('fn-harbor-logs-');
  const planted = tempDir('fn-harbor-planted-');
  const agent = tempDir('fn-harbor-agent-');
  const left: string[] = [];
  const run = (script: string) => {
    // Harbor copies tests/ (or solution/) in only when it runs them: a fresh copy each time, over what was planted.
    const phase = script.split('/')[0]!;
    const copy = join(tempDir('fn-harbor-copy-'), phase);
    if (phase === 'tests') cpSync(planted, copy, { recursive: true });
    cpSync(join(taskDir, phase), copy, { recursive: true, force: true });
    if (phase !== 'tests') return inSandbox({ [workspace]: '/workspace', [copy]: `/${phase}`, [logs]: '/logs/verifier' }, ['bash', `/${script}`], '/workspace');
    const interpreter = /^exec (\/\S+) -I -S /m.exec(readFileSync(join(copy, 'test.sh'), 'utf8'))?.[1];
    // As Harbor runs it (its output to test-stdout.txt), after the programs the agent left; then time for them to act.
    const driver = [
      ...left.map((_, i) => `python3 /agent/left-${i}.py </dev/null >/dev/null 2>&1 & pids="$pids $!"; disown $!`),
      ...(left.length ? ['sleep 0.5'] : []),
      `bash /${script} > /logs/verifier/test-stdout.txt 2>&1`,
      ...(left.length ? ['sleep 1.5', 'for p in $pids; do if kill -0 $p 2>/dev/null; then echo "left $p running"; else echo "left $p ended"; fi; done'] : []),
    ].join('\n');
    return inSandbox(
      { [workspace]: '/workspace', [copy]: '/tests', [logs]: '/logs/verifier', [agent]: '/agent' },
      ['bash', '-c', driver],
      '/workspace',
      interpreter ? interpreterAt(interpreter) : [],
    );
  };
  return {
    workspace,
    run,
    plant: (rel, content) => {
      mkdirSync(dirname(join(planted, rel)), { recursive: true });
      writeFileSync(join(planted, rel), content);
    },
    leave: (program) => {
      writeFileSync(join(agent, `left-${left.length}.py`), program);
      left.push(program);
    },
    reward: () => {
      const file = join(logs, 'reward.txt');
      if (!existsSync(file)) throw new Error('no reward file was written');
      return { reward: readFileSync(file, 'utf8'), verdict: JSON.parse(readFileSync(join(logs, 'frognano.json'), 'utf8')) as Verdict };
    },
    logFiles: () => readdirSync(logs).sort(),
  };
}

/** Writes a file into the container's workspace, as an agent would. */
export function agentWrites(c: Container, rel: string, content: string): void {
  mkdirSync(dirname(join(c.workspace, rel)), { recursive: true });
  writeFileSync(join(c.workspace, rel), content);
}
