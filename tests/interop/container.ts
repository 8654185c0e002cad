// A stand-in for a Harbor or SWE-bench container, for tests on a machine with no
// container engine: bubblewrap mounts the exported files where Harbor puts
// them (/workspace from environment/repo as the image's WORKDIR, /tests,
// /solution, /logs/verifier) and runs the scripts as Harbor would. The
// toolchain is the host's (its node and python3 with pytest), not the image's.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemBinds } from '../../src/runtime/bwrap.js';
import { hostPython } from '../../src/runtime/host.js';
import { tempDir } from '../helpers/workspace.js';

export interface Container {
  /** The container's /workspace on the host: what the agent works on. */
  workspace: string;
  /** Runs a script of the task directory (solution/solve.sh, tests/test.sh) inside the container. */
  run(script: 'solution/solve.sh' | 'tests/test.sh'): string;
  /** What the verifier left in /logs/verifier. */
  reward(): { reward: string; verdict: { verdict: string; reason: string; honeypots?: number; dropped?: { file: string }[] } };
}

/** Runs argv in a bubblewrap sandbox with the host's toolchain and the given binds (host path -> sandbox path). */
export function inSandbox(binds: Record<string, string>, argv: string[], chdir: string): string {
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
    '--tmpfs',
    '/tmp',
    ...(python?.prefixes ?? []).filter((p) => !p.startsWith('/usr/')).flatMap((p) => ['--ro-bind', p, p]),
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
  const run = (script: string) => {
    // Harbor copies tests/ (or solution/) in only when it runs them: a fresh copy each time.
    const phase = script.split('/')[0]!;
    const copy = join(tempDir('fn-harbor-copy-'), phase);
    cpSync(join(taskDir, phase), copy, { recursive: true });
    return inSandbox({ [workspace]: '/workspace', [copy]: `/${phase}`, [logs]: '/logs/verifier' }, ['bash', `/${script}`], '/workspace');
  };
  return {
    workspace,
    run,
    reward: () => {
      const file = join(logs, 'reward.txt');
      if (!existsSync(file)) throw new Error('no reward file was written');
      return { reward: readFileSync(file, 'utf8'), verdict: JSON.parse(readFileSync(join(logs, 'frognano.json'), 'utf8')) };
    },
  };
}

/** Writes a file into the container's workspace, as an agent would. */
export function agentWrites(c: Container, rel: string, content: string): void {
  mkdirSync(dirname(join(c.workspace, rel)), { recursive: true });
  writeFileSync(join(c.workspace, rel), content);
}
