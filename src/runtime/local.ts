// The fallback runtime where bubblewrap is missing: commands run directly on
// the host, in the workspace directory. It isolates nothing, and says so.
import { join } from 'node:path';
import { runProcess } from '../util/process.js';
import { sandboxEnv } from './bwrap.js';
import { DEFAULT_LIMITS, type ExecRequest, type ExecResult, type Mounts, type Runtime } from './types.js';

export const LOCAL_WARNING =
  'WARNING: runtime "local" is NOT isolated: model-written code runs on this host with your permissions ' +
  '(network, files, processes). Install bubblewrap (apt-get install bubblewrap) for the sandboxed default.';

export class LocalRuntime implements Runtime {
  readonly name = 'local' as const;
  readonly isolated = false;

  workdir(m: Mounts): string {
    return m.root;
  }

  outPath(m: Mounts): string {
    return m.outDir;
  }

  toolsPath(m: Mounts): string {
    return m.tools ?? '';
  }

  exec(m: Mounts, req: ExecRequest): Promise<ExecResult> {
    const limits = { ...DEFAULT_LIMITS, ...req.limits };
    const mb = 1024 * 1024;
    // rlimits still bound memory, processes and file size; nothing else is contained.
    const argv = ['prlimit', `--data=${limits.memoryMb * mb}`, `--fsize=${limits.maxFileMb * mb}`, '--core=0', '--', ...req.argv];
    const home = process.env.HOME ?? m.root;
    return runProcess({
      argv,
      cwd: req.cwd ? join(m.root, req.cwd) : m.root,
      env: { ...sandboxEnv(req.env ?? {}, home), PATH: `${sandboxEnv({}, home).PATH}:${process.env.PATH ?? ''}` },
      timeoutMs: req.timeoutMs,
      maxOutputBytes: limits.maxOutputBytes,
      ...(req.stdin !== undefined ? { stdin: req.stdin } : {}),
    });
  }
}
