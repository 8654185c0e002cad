import type { ProcessResult } from '../util/process.js';

export type RuntimeName = 'bwrap' | 'local' | 'docker';

/** Resource limits applied to every command a runtime runs. */
export interface Limits {
  /** Private writable memory per process (RLIMIT_DATA), in MiB. */
  memoryMb: number;
  /** Processes the sandbox may hold at once (RLIMIT_NPROC on its own uid). */
  maxProcs: number;
  /** Largest file a command may write (RLIMIT_FSIZE), in MiB. */
  maxFileMb: number;
  /** stdout plus stderr kept; the command is killed past it. */
  maxOutputBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  memoryMb: 2048,
  maxProcs: 256,
  maxFileMb: 256,
  maxOutputBytes: 8 * 1024 * 1024,
};

/** What a runtime mounts for one workspace. */
export interface Mounts {
  /** Host directory of the workspace (writable). */
  root: string;
  /** Read-only dependency layer paths: `rel` inside the workspace, `host` on disk. */
  layers: { rel: string; host: string }[];
  /** Host directory for reports the command writes (writable, outside the workspace). */
  outDir: string;
  /** A host folder of FrogNano's own tools (the graded runs' guard), mounted read-only where `toolsPath` says. */
  tools?: string;
  /** Unprivileged uid/gid the sandbox runs as (bwrap); owns root and outDir. */
  uid: number;
  /**
   * Folders inside a read-only layer that runners insist on writing (ava's
   * and Vite's caches under node_modules): each is an empty writable folder
   * for the length of one command.
   */
  scratch?: string[];
}

/** Cache folders inside a node_modules layer that test runners write and cannot be told to move. */
export const LAYER_CACHES: Record<string, string[]> = {
  node_modules: ['.cache', '.vite', '.vite-temp', '.vitest-cache'],
};

export interface ExecRequest {
  argv: string[];
  /** Working directory relative to the workspace root. */
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs: number;
  /** Allow network access (setup steps only). */
  network?: boolean;
  stdin?: string;
  limits?: Partial<Limits>;
}

export type ExecResult = ProcessResult;

export interface Runtime {
  readonly name: RuntimeName;
  /** False for `local`: model-written code would run on the host. */
  readonly isolated: boolean;
  /** Where the workspace root appears to commands. */
  workdir(m: Mounts): string;
  /** Where `outDir` appears to commands. */
  outPath(m: Mounts): string;
  /** Where `tools` appears to commands. */
  toolsPath(m: Mounts): string;
  exec(m: Mounts, req: ExecRequest): Promise<ExecResult>;
  /**
   * A sandbox kept for a series of commands on one workspace, with the same
   * mounts and limits as exec's, where the runtime has one. Nothing a command
   * starts outlives it; files and /tmp stay for the next command.
   */
  session?(m: Mounts): Session;
}

export interface Session {
  /** Runs one command in the kept sandbox (network and limits other than the output cap: see `suits`). */
  exec(req: ExecRequest): Promise<ExecResult>;
  /** Ends the sandbox and everything in it; resolves once it is gone. */
  close(): Promise<void>;
}

/** Whether a kept sandbox can run the request as exec would: it has no network and the default limits. */
export function suitsSession(req: ExecRequest): boolean {
  const { maxOutputBytes: _cap, ...rest } = req.limits ?? {};
  return !req.network && Object.values(rest).every((v) => v === undefined);
}
