// What the embedded policy reads from a test run's output: failing tests, messages and stack frames. Only node:test's TAP
// and pytest's output (the starter environments' runners); anything else yields no failures, leaving the instruction.

export interface Frame {
  /** Path relative to the repository root. */
  file: string;
  line: number;
  /** Position in the failing test's trace: 0 is the innermost frame. */
  depth: number;
  /** Index of the failure (in `failures`) whose trace this frame is from. */
  failure?: number;
}

export interface Failure {
  name: string;
  message: string;
  errorType?: string;
  /** Source lines quoted in the failure (pytest shows the failing statement). */
  snippet: string;
}

export interface TestObservation {
  failures: Failure[];
  frames: Frame[];
  /** Tests reported passing, when the runner states a count. */
  passed?: number;
  /** The runner exited 0 and reported no failure. */
  green: boolean;
}

const FRAME_RE = /(?:file:\/\/)?([\w./@-]+\.(?:[cm]?[jt]sx?|py))(?::|", line )(\d+)/g;

function framesIn(text: string, workdir: string, into: Frame[]): void {
  let depth = 0;
  for (const m of text.matchAll(FRAME_RE)) {
    let file = m[1]!;
    if (file.startsWith(`${workdir}/`)) file = file.slice(workdir.length + 1);
    if (file.startsWith('/') || file.includes('node_modules') || file.startsWith('node:')) continue;
    into.push({ file, line: Number(m[2]), depth: depth++ });
  }
}

function errorTypeOf(text: string): string | undefined {
  return /\b(\w*(?:Error|Exception))\b/.exec(text)?.[1];
}

function parseTap(text: string, workdir: string, obs: TestObservation): void {
  const blocks = text.split(/\n(?=\s*(?:not )?ok \d+ - )/);
  for (const block of blocks) {
    const head = /^\s*not ok \d+ - (.*)$/m.exec(block);
    if (!head || /type: 'suite'/.test(block) || /failureType: 'subtestsFailed'/.test(block)) continue;
    const err = /error: (?:\|-\n([\s\S]*?)\n\s+(?:code|name|stack|expected):|(['"])(.*)\2)/.exec(block);
    const message = (err?.[1] ?? err?.[3] ?? '').replace(/^\s+/gm, '').trim();
    const name = /name: '(\w+)'/.exec(block)?.[1];
    const location = /location: '([^']+)'/.exec(block)?.[1];
    const stack = /stack: \|-\n([\s\S]*?)(?:\n\s*\.\.\.|$)/.exec(block)?.[1] ?? '';
    const frames: Frame[] = [];
    framesIn(stack, workdir, frames);
    if (location) framesIn(location, workdir, frames);
    obs.frames.push(...frames.map((f, i) => ({ ...f, depth: i, failure: obs.failures.length })));
    obs.failures.push({ name: head[1]!.trim(), message, ...(name ? { errorType: name } : {}), snippet: '' });
  }
  const pass = /^# pass (\d+)$/m.exec(text);
  if (pass) obs.passed = Number(pass[1]);
}

function parsePytest(text: string, workdir: string, obs: TestObservation): void {
  const sections = text.split(/\n_{3,} (.+?) _{3,}\n/);
  const failing = new Map<string, string>();
  for (const m of text.matchAll(/^(?:FAILED|ERROR) (\S+)(?: - (.*))?$/gm)) failing.set(m[1]!, m[2] ?? '');
  for (let i = 1; i + 1 < sections.length; i += 2) {
    const body = sections[i + 1]!.split(/\n={5,}/)[0]!;
    const frames: Frame[] = [];
    // pytest prints the outermost frame first: reverse so depth 0 is innermost.
    const locs = [...body.matchAll(/^([\w./-]+\.py):(\d+):/gm)].reverse();
    framesIn(locs.map((l) => `${l[1]}:${l[2]}`).join('\n'), workdir, frames);
    obs.frames.push(...frames.map((f) => ({ ...f, failure: obs.failures.length })));
    const snippet = body
      .split('\n')
      .filter((l) => /^(?:>|E)\s/.test(l))
      .join('\n');
    const id = [...failing.keys()].find((k) => k.endsWith(`::${sections[i]}`)) ?? sections[i]!;
    const message = failing.get(id) ?? /^E\s+(.*)$/m.exec(body)?.[1] ?? '';
    const errorType = errorTypeOf(/^[\w./-]+\.py:\d+: (\w+)$/m.exec(body)?.[1] ?? message);
    obs.failures.push({ name: id, message, ...(errorType ? { errorType } : {}), snippet });
  }
  const pass = /(\d+) passed/.exec(text.split('\n').slice(-3).join('\n'));
  if (pass) obs.passed = Number(pass[1]);
}

/** Reads one test run's output; `exitCode` null when unknown. */
export function observeTests(output: string, exitCode: number | null, workdir: string): TestObservation {
  const obs: TestObservation = { failures: [], frames: [], green: false };
  if (/^TAP version|^\s*(?:not )?ok \d+ - /m.test(output)) parseTap(output, workdir, obs);
  else parsePytest(output, workdir, obs);
  obs.green = exitCode === 0 && obs.failures.length === 0;
  return obs;
}

/** Tests a run reported on: its failures, and its passes when the runner states a count. */
const reported = (o: TestObservation): number => (o.passed ?? 0) + o.failures.length;

/**
 * Whether a repair made the tests better: the run is green, or fewer tests fail while at least as many are reported.
 * A repair that breaks a test file at load or hangs the suite also lowers the failing count, by running fewer tests.
 */
export function improved(before: TestObservation, after: TestObservation): boolean {
  if (after.green) return true;
  return !before.green && after.failures.length < before.failures.length && reported(after) >= reported(before);
}

/** Paths of test files (by the starter environments' conventions: tests/, test_*.py, *.test.js, ...). */
export const TEST_PATH = /(^|\/)(tests?|spec|__tests__)\/|(^|\/)test_[^/]*\.py$|_test\.py$|\.(test|spec)\.[cm]?[jt]sx?$/;

/** Identifier-like words of a text, lower-cased, split on camelCase and snake_case. */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const w = m[0];
    if (w.length > 2) out.add(w.toLowerCase());
    for (const part of w.split(/_|(?<=[a-z])(?=[A-Z])/)) if (part.length > 2) out.add(part.toLowerCase());
  }
  return out;
}

/** A file's name without directories, extension and test markers: tests/test_lru.py and src/lru.js share "lru". */
export function stemOf(path: string): string {
  return (path.split('/').pop() ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/\.(test|spec)$/, '')
    .replace(/^test_|_test$/, '')
    .toLowerCase();
}

/** Stems of the test files the failing tests live in. */
export function testedStems(obs: TestObservation): Set<string> {
  return new Set(obs.frames.filter((f) => TEST_PATH.test(f.file)).map((f) => stemOf(f.file)));
}
