// Runs commands in a container through the docker CLI, for prebuilt
// environment images such as SWE-bench's. Needs a running Docker engine.
import { execFileSync } from 'node:child_process';
import { errnoCode } from '../util/errors.js';
import { isRecord } from '../util/guards.js';
import { runProcess } from '../util/process.js';
import { DEFAULT_LIMITS, type ExecRequest, type ExecResult, type Mounts, type Runtime } from './types.js';

const WORKDIR = '/workspace';
const OUTDIR = '/frognano/out';
const TOOLSDIR = '/frognano/tools';

/** Why docker cannot be used here, or null when an engine answers. */
export function dockerUnavailableReason(): string | null {
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'pipe', timeout: 10000 });
    return null;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return 'the docker CLI is not installed';
    const stderr = isRecord(err) && (Buffer.isBuffer(err.stderr) || typeof err.stderr === 'string') ? err.stderr.toString() : undefined;
    const detail = stderr?.trim().split('\n').pop() ?? 'no answer';
    return `no Docker engine is reachable (${detail})`;
  }
}

export class DockerRuntime implements Runtime {
  readonly name = 'docker' as const;
  readonly isolated = true;

  constructor(readonly image: string) {}

  workdir(): string {
    return WORKDIR;
  }

  outPath(): string {
    return OUTDIR;
  }

  toolsPath(): string {
    return TOOLSDIR;
  }

  command(m: Mounts, req: ExecRequest, containerName: string): string[] {
    const limits = { ...DEFAULT_LIMITS, ...req.limits };
    const args = [
      'docker',
      'run',
      '--rm',
      '-i',
      '--name',
      containerName,
      '--network',
      req.network ? 'bridge' : 'none',
      '--memory',
      `${limits.memoryMb}m`,
      '--pids-limit',
      String(limits.maxProcs),
      '--ulimit',
      `fsize=${limits.maxFileMb * 1024 * 1024}`,
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      '--user',
      `${m.uid}:${m.uid}`,
      '-v',
      `${m.root}:${WORKDIR}`,
      '-v',
      `${m.outDir}:${OUTDIR}`,
    ];
    for (const layer of m.layers) args.push('-v', `${layer.host}:${WORKDIR}/${layer.rel}:ro`);
    if (m.tools) args.push('-v', `${m.tools}:${TOOLSDIR}:ro`);
    for (const rel of m.scratch ?? []) args.push('--tmpfs', `${WORKDIR}/${rel}`);
    for (const [k, v] of Object.entries(req.env ?? {})) args.push('-e', `${k}=${v}`);
    args.push('-w', req.cwd ? `${WORKDIR}/${req.cwd}` : WORKDIR, this.image, ...req.argv);
    return args;
  }

  async exec(m: Mounts, req: ExecRequest): Promise<ExecResult> {
    const limits = { ...DEFAULT_LIMITS, ...req.limits };
    const name = `frognano-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
    const result = await runProcess({
      argv: this.command(m, req, name),
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
      timeoutMs: req.timeoutMs,
      maxOutputBytes: limits.maxOutputBytes,
      ...(req.stdin !== undefined ? { stdin: req.stdin } : {}),
    });
    // Killing the CLI does not stop the container: remove it explicitly.
    if (result.timedOut || result.outputLimited) {
      try {
        execFileSync('docker', ['rm', '-f', name], { stdio: 'ignore', timeout: 30000 });
      } catch {
        /* already gone */
      }
    }
    return result;
  }
}
