// Facts about the host toolchain, resolved once per process.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { isStringArray } from '../util/guards.js';

export interface PythonInfo {
  /** The real interpreter, never a version manager's shim (seven times slower to start). */
  executable: string;
  /** Installation prefixes a sandbox must mount read-only for it to run. */
  prefixes: string[];
}

let python: PythonInfo | null | undefined;

export function hostPython(): PythonInfo | null {
  if (python !== undefined) return python;
  const candidates = [process.env.FROGNANO_PYTHON, 'python3', 'python'].filter((c): c is string => Boolean(c));
  python = null;
  for (const cmd of candidates) {
    try {
      const out = execFileSync(cmd, ['-c', 'import sys, json; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix]))'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 15000,
      });
      const info: unknown = JSON.parse(out);
      if (!isStringArray(info)) continue;
      const [exe, prefix, base] = info;
      if (exe === undefined || prefix === undefined || base === undefined) continue;
      python = { executable: realpathSync(exe), prefixes: [...new Set([prefix, base])] };
      break;
    } catch {
      /* try the next candidate */
    }
  }
  return python;
}

let bwrapOk: boolean | undefined;

/** True when bubblewrap is installed and can create a sandbox here. */
export function bwrapAvailable(): boolean {
  if (bwrapOk === undefined) {
    try {
      execFileSync(
        'bwrap',
        [
          '--unshare-all',
          '--ro-bind',
          '/usr',
          '/usr',
          '--symlink',
          'usr/bin',
          '/bin',
          '--symlink',
          'usr/lib',
          '/lib',
          '--symlink',
          'usr/lib64',
          '/lib64',
          '--',
          '/usr/bin/true',
        ],
        {
          stdio: 'ignore',
          timeout: 10000,
        },
      );
      bwrapOk = true;
    } catch {
      bwrapOk = false;
    }
  }
  return bwrapOk;
}
