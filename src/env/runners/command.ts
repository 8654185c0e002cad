// `--test-command` as the user typed it: a shell line. A single command that
// names a known runner ("npx mocha --timeout 5000 test/", "pytest -x tests")
// becomes that runner with the user's arguments and a machine-readable
// report added; anything else (pipes, several commands, a custom script) runs
// as the shell line it is, and then --report must say how to read it.
import { UserError } from '../../util/errors.js';
import { runnerInWords } from './js.js';
import type { RunnerName } from './types.js';

export interface ParsedCommand {
  runner: RunnerName;
  /** The user's arguments to the runner (options and paths). */
  args: string[];
}

/** Splits a simple shell line into words; null when it uses shell syntax (pipes, lists, substitutions, redirections). */
export function shellWords(line: string): string[] | null {
  const words: string[] = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      cur += line.slice(i + 1, end);
      i = end;
      has = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length) j++;
        if (line[j] === '$' || line[j] === '`') return null;
        cur += line[j];
      }
      if (j >= line.length) return null;
      i = j;
      has = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) words.push(cur);
      cur = '';
      has = false;
    } else if ('|&;<>()$`'.includes(c)) return null;
    else {
      cur += c;
      has = true;
    }
  }
  if (has) words.push(cur);
  return words;
}

/** The runner a simple command line calls, with its arguments; null for anything else. */
export function parseTestCommand(line: string): ParsedCommand | null {
  const words = shellWords(line);
  if (!words || words.length === 0) return null;
  let w = words;
  while (w.length && /^\w+=/.test(w[0]!)) w = w.slice(1); // VAR=value prefixes are environment, kept by --env
  const py = /^(python[\d.]*|\{python\})$/.test(w[0] ?? '');
  if (py && w[1] === '-m' && w[2] === 'pytest') return { runner: 'pytest', args: w.slice(3) };
  if (py && w[1] === '-m' && w[2] === 'unittest') return { runner: 'unittest', args: w.slice(3) };
  if (w[0] === 'pytest' || w[0] === 'py.test') return { runner: 'pytest', args: w.slice(1) };
  const js = runnerInWords(w);
  return js ? { runner: js.runner, args: js.args } : null;
}

/** Environment assignments at the start of a command line: "CI=1 mocha" → { CI: '1' }. */
export function leadingAssignments(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const w of shellWords(line) ?? []) {
    const m = /^(\w+)=(.*)$/s.exec(w);
    if (!m) break;
    out[m[1]!] = m[2]!;
  }
  return out;
}

export function needReport(line: string): never {
  throw new UserError(
    `cannot tell which test runner \`${line}\` runs, so not how to read its results`,
    'pass --report tap|junit|jest-json to say what it prints (with {report} in the command where it writes a file)',
  );
}
