// The default runtime: bubblewrap. No network, own pid namespace (when its
// first process ends, the kernel kills every other one before bwrap returns,
// so what a command wrote is final once exec resolves), a read-only view of
// the system with no home directories or secrets, a read-only dependency
// layer, and only the workspace and the report directory writable. Commands
// run as an unprivileged uid of their own so the process-count limit is per
// sandbox.
import { existsSync, lstatSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { hostPython } from './host.js';
import { join } from 'node:path';
import { recordSandboxCpu } from '../util/cpu.js';
import { runProcess } from '../util/process.js';
import { KeptSandbox } from './session.js';
import { SUPERVISOR_SOURCE } from './supervisor.js';
import { DEFAULT_LIMITS, type ExecRequest, type ExecResult, type Mounts, type Runtime, type Session } from './types.js';

const WORKDIR = '/workspace';
const OUTDIR = '/frognano/out';
const TOOLSDIR = '/frognano/tools';
/** Where a kept sandbox sees the host's Node, which runs its supervisor. */
const SUPERVISOR_NODE = '/frognano/node';

// Only what programs need from /etc: never shadow, ssh keys or the like.
const ETC_FILES = [
  'alternatives',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'ssl',
  'ca-certificates',
  'localtime',
  'nsswitch.conf',
  'passwd',
  'group',
  'hosts',
  'mime.types',
  'gitconfig',
];

/** Binds for the system: /usr read-only, the top-level links into it, a little of /etc. */
export function systemBinds(network: boolean): string[] {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    if (!existsSync(top)) continue;
    const st = lstatSync(top);
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
    else args.push('--ro-bind', top, top);
  }
  const etc = network ? [...ETC_FILES, 'resolv.conf', 'npmrc'] : ETC_FILES;
  args.push(...dirs('/etc/x'));
  for (const name of etc) args.push('--ro-bind-try', `/etc/${name}`, `/etc/${name}`);
  return args;
}

/**
 * Directories bwrap would otherwise create with mode 0700 as parents of a
 * mount point: the sandbox user could not enter them.
 */
function dirs(path: string): string[] {
  const parts = path.split('/').filter(Boolean).slice(0, -1);
  return parts.flatMap((_, i) => ['--perms', '0755', '--dir', `/${parts.slice(0, i + 1).join('/')}`]);
}

/** Processes the current user already runs (RLIMIT_NPROC counts them all). */
function userProcessCount(): number {
  const uid = process.getuid?.();
  let n = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (statSync(`/proc/${pid}`).uid === uid) n++;
    } catch {
      /* gone */
    }
  }
  return n;
}

export function sandboxEnv(extra: Record<string, string>, home: string): Record<string, string> {
  const py = hostPython();
  const pyBins = py ? py.prefixes.map((p) => `${p}/bin`) : [];
  return {
    PATH: [...pyBins, '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONHASHSEED: '0',
    // No NO_COLOR or FORCE_COLOR: colour libraries' own tests expect colour where nothing turns it off, as on CI.
    // Output to a pipe stays plain anyway: runners and colour libraries check for a terminal.
    CI: '1',
    ...extra,
  };
}

// A process in bwrap's PID namespace is reaped by the namespace's init, whose
// time never reaches this process's children's total (/proc/self/stat): the
// command runs under a shell that writes its children's CPU time (POSIX
// \`times\`) to the out folder, which exec adds to the sandbox CPU meter.
const CPU_FILE = '.frognano-cpu';
const CPU_METER = ['sh', '-c', `"$@"; s=$?; command times > ${OUTDIR}/${CPU_FILE} 2>/dev/null; exit $s`, 'frognano'];

export class BwrapRuntime implements Runtime {
  readonly name = 'bwrap' as const;
  readonly isolated = true;

  workdir(): string {
    return WORKDIR;
  }

  outPath(): string {
    return OUTDIR;
  }

  toolsPath(): string {
    return TOOLSDIR;
  }

  /**
   * The full argv: rlimits, then bwrap. As root, bwrap builds the sandbox
   * without a user namespace and setpriv drops to the workspace's own uid
   * inside it, so RLIMIT_NPROC counts only this sandbox's processes. As an
   * ordinary user, bwrap needs a user namespace and the process limit is set
   * above what the user already runs.
   */
  command(m: Mounts, req: ExecRequest): string[] {
    const asRoot = process.getuid?.() === 0;
    const drop = asRoot ? ['setpriv', `--reuid=${m.uid}`, `--regid=${m.uid}`, '--clear-groups', '--no-new-privs', '--'] : [];
    return [...this.sandbox(m, req), '--chdir', req.cwd ? `${WORKDIR}/${req.cwd}` : WORKDIR, '--', ...drop, ...CPU_METER, ...req.argv];
  }

  /**
   * The kept sandbox's command (session.ts): the same sandbox with the host's
   * Node bound read-only, running the supervisor. As root the supervisor
   * stays root (without new privileges) and runs each command as the
   * workspace's uid.
   */
  supervisorCommand(m: Mounts, source: string): string[] {
    const asRoot = process.getuid?.() === 0;
    return [
      ...this.sandbox(m, { argv: [], timeoutMs: 0 }),
      '--ro-bind',
      process.execPath,
      SUPERVISOR_NODE,
      '--chdir',
      WORKDIR,
      '--',
      ...(asRoot ? ['setpriv', '--no-new-privs', '--'] : []),
      SUPERVISOR_NODE,
      '-e',
      source,
    ];
  }

  /** rlimits, then bwrap with every mount, up to the working directory. */
  private sandbox(m: Mounts, req: ExecRequest): string[] {
    const limits = { ...DEFAULT_LIMITS, ...req.limits };
    const mb = 1024 * 1024;
    const asRoot = process.getuid?.() === 0;
    const nproc = asRoot ? limits.maxProcs : limits.maxProcs + userProcessCount();
    const args = [
      'prlimit',
      `--data=${limits.memoryMb * mb}`,
      `--nproc=${nproc}`,
      `--fsize=${limits.maxFileMb * mb}`,
      '--core=0',
      '--',
      'bwrap',
      ...(asRoot
        ? ['--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try', ...(req.network ? [] : ['--unshare-net'])]
        : ['--unshare-all', ...(req.network ? ['--share-net'] : [])]),
      '--die-with-parent',
      '--new-session',
      ...systemBinds(Boolean(req.network)),
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      '--perms',
      '1777',
      '--tmpfs',
      '/tmp',
      // Shared memory for multiprocessing (Python's Pool, semaphores); --dev makes it root's alone.
      '--perms',
      '1777',
      '--tmpfs',
      '/dev/shm',
    ];
    for (const prefix of hostPython()?.prefixes ?? []) {
      if (!prefix.startsWith('/usr/')) args.push(...dirs(prefix), '--ro-bind', prefix, prefix);
    }
    args.push('--bind', m.root, WORKDIR);
    for (const layer of m.layers) args.push('--ro-bind', layer.host, `${WORKDIR}/${layer.rel}`);
    for (const rel of m.scratch ?? []) args.push('--perms', '1777', '--tmpfs', `${WORKDIR}/${rel}`);
    args.push(...dirs(OUTDIR), '--bind', m.outDir, OUTDIR);
    if (m.tools) args.push('--ro-bind', m.tools, TOOLSDIR);
    return args;
  }

  /** A sandbox kept for a series of commands (an agent's episode): one start, then each command at the cost of the command. */
  session(m: Mounts): Session {
    const asRoot = process.getuid?.() === 0;
    return new KeptSandbox(this.supervisorCommand(m, SUPERVISOR_SOURCE), (req) => ({
      argv: req.argv,
      cwd: req.cwd ? `${WORKDIR}/${req.cwd}` : WORKDIR,
      env: sandboxEnv(req.env ?? {}, '/tmp'),
      ...(asRoot ? { uid: m.uid } : {}),
    }));
  }

  async exec(m: Mounts, req: ExecRequest): Promise<ExecResult> {
    const limits = { ...DEFAULT_LIMITS, ...req.limits };
    const res = await runProcess({
      argv: this.command(m, req),
      cwd: '/',
      env: sandboxEnv(req.env ?? {}, '/tmp'),
      timeoutMs: req.timeoutMs,
      maxOutputBytes: limits.maxOutputBytes,
      ...(req.stdin !== undefined ? { stdin: req.stdin } : {}),
    });
    recordSandboxCpu(join(m.outDir, CPU_FILE));
    return res;
  }
}
