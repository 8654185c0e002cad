// The options pytest itself knows, read from the machine's pytest (--help,
// plugins not autoloaded, as in the sandbox). A project's addopts keeps those
// and loses every other: a plugin's option stops pytest with "unrecognized
// arguments" where the plugin is not loaded, whatever the plugin is. A list of
// known plugins' options missed the ones nobody listed (pytest-socket's
// --disable-socket, pytest-flake8's --flake8).
import { execFileSync } from 'node:child_process';
import { hostPython } from '../../runtime/host.js';

/** Option name (`--tb`, `-k`) → whether it takes a value. */
export type OptionTable = Map<string, boolean>;

let cached: OptionTable | null | undefined;

/** Reads `pytest --help` text: each option line's names, and whether they show a value (`--tb=style`, `-k EXPRESSION`). */
export function parsePytestHelp(help: string): OptionTable {
  const table: OptionTable = new Map();
  for (const line of help.split('\n')) {
    const m = /^ {2}(-[^ ].*?)(?: {2,}|$)/.exec(line);
    if (!m) continue;
    for (const part of m[1]!.split(/, (?=-)/)) {
      const o = /^(--?[A-Za-z][\w-]*)([= ]\S+)?/.exec(part.trim());
      if (o) table.set(o[1]!, Boolean(o[2]));
    }
  }
  return table;
}

/** The options of the machine's pytest, or null where there is none to ask (then a list of known plugin options serves). */
export function pytestCoreOptions(): OptionTable | null {
  if (cached !== undefined) return cached;
  cached = null;
  const py = hostPython();
  if (!py) return cached;
  try {
    const help = execFileSync(py.executable, ['-m', 'pytest', '--help'], {
      encoding: 'utf8',
      timeout: 30000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
      maxBuffer: 4 * 1024 * 1024,
    });
    const table = parsePytestHelp(help);
    // Too few names: not pytest's help (an old or broken install); the list serves instead.
    if (table.size >= 40 && table.has('--tb')) cached = table;
  } catch {
    // no pytest on this machine
  }
  return cached;
}
