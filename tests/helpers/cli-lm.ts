// The `frognano` command in a child process of its own, run from the
// TypeScript sources through tsx (bin/frognano.js runs the compiled dist/,
// which the tests do not build). Run as a script, this file is that entry
// point: it calls main() with its arguments, as bin/frognano.js does.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ENTRY = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliChild {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** The first match of `re` in the stream, once it appears; rejects when the process exits first or after `timeoutMs`. */
  waitFor: (stream: 'stdout' | 'stderr', re: RegExp, timeoutMs: number) => Promise<RegExpMatchArray>;
  /** How the process ended; rejects after `timeoutMs` (the process is then killed). */
  exited: (timeoutMs: number) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const live = new Set<ChildProcess>();

/** Kills what a failed test left running. */
export function killLeftovers(): void {
  for (const child of live) child.kill('SIGKILL');
}

/**
 * `frognano ...args` in a child process, from the repository root. With
 * `group`, it leads a process group of its own, so a test can signal the
 * whole group as a terminal's Ctrl-C does (process.kill(-pid, 'SIGINT')).
 */
export function spawnCli(args: string[], opts: { group?: boolean } = {}): CliChild {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: opts.group ?? false });
  live.add(child);
  const text = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of [...listeners]) l();
  };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => ((text.stdout += d), changed()));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => ((text.stderr += d), changed()));
  let ended = false;
  const end = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      live.delete(child);
      ended = true;
      resolve({ code, signal });
      changed();
    }),
  );
  const describe = () => `stdout:\n${text.stdout}\nstderr:\n${text.stderr}`;

  const waitFor = (stream: 'stdout' | 'stderr', re: RegExp, timeoutMs: number) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const done = () => {
        listeners.delete(check);
        clearTimeout(timer);
      };
      const check = () => {
        const m = text[stream].match(re);
        if (m) {
          done();
          resolve(m);
        } else if (ended) {
          done();
          reject(new Error(`the process ended before ${re} appeared in its ${stream}\n${describe()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${re} did not appear in the ${stream} within ${timeoutMs} ms\n${describe()}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });

  const exited = (timeoutMs: number) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the process did not end within ${timeoutMs} ms\n${describe()}`));
      }, timeoutMs);
      void end.then((r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });

  return { child, stdout: () => text.stdout, stderr: () => text.stderr, waitFor, exited };
}

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const { main } = await import('../../src/cli/main.js');
  process.exitCode = await main(process.argv.slice(2));
}
