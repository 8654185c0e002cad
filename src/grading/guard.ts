// The guard of a graded run (assets/guard): the environment that loads it in
// the runner before any code of the change, and the alarms it raised. Python
// loads it as sitecustomize through PYTHONPATH (an audit hook and the test
// framework's recorded entry points), Node through NODE_OPTIONS (node:assert
// and node:test frozen). An alarm is one line on the run's stderr, or in a
// node:test report where the runner folds a child's stderr into it, and the
// process ends (docs/verifier.md, "Tamper evidence").
import type { EnvironmentSpec } from '../env/spec.js';
import { addedLineNumbers } from '../util/diff.js';
import type { Workspace } from '../workspace/workspace.js';

/** The causes an alarm names. */
export const GUARD_CAUSES = ['tracing-hook', 'introspection', 'framework-changed', 'report-written'] as const;
export type GuardCause = (typeof GUARD_CAUSES)[number];
const isCause = (s: string): s is GuardCause => (GUARD_CAUSES as readonly string[]).includes(s);

export interface GuardAlarm {
  cause: GuardCause;
  detail: string;
}

/** The added lines are passed in the environment; past this size, whole files stand for them. */
const MAX_LINES_JSON = 64 * 1024;

/** Runs of consecutive numbers as [first, last] pairs. */
function spans(lines: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const n of [...lines].sort((a, b) => a - b)) {
    const last = out.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/** The lines a change added, by file, as the guard reads them. */
export function guardLines(patch: string): string {
  const added = addedLineNumbers(patch);
  const json = JSON.stringify(Object.fromEntries(Object.entries(added).map(([f, ls]) => [f, spans(ls)])));
  return json.length <= MAX_LINES_JSON ? json : JSON.stringify(Object.fromEntries(Object.keys(added).map((f) => [f, [[1, 1e9]]])));
}

const prepend = (first: string, rest: string | undefined, sep: string) => (rest ? `${first}${sep}${rest}` : first);

/** Variables that load the guard in the run, merged with the spec's own (the guard goes first). `patch`: the change whose added lines it watches. */
export function guardEnv(spec: EnvironmentSpec, ws: Workspace, reportPath: string, patch: string): Record<string, string> {
  const tools = ws.runtime.toolsPath(ws.mounts);
  return {
    PYTHONPATH: prepend(tools, spec.test.env.PYTHONPATH, ':'),
    NODE_OPTIONS: prepend(`--require ${tools}/guard.cjs`, spec.test.env.NODE_OPTIONS, ' '),
    FROGNANO_GUARD_ROOT: ws.runtime.workdir(ws.mounts),
    FROGNANO_GUARD_REPORT: reportPath,
    FROGNANO_GUARD_LINES: guardLines(patch),
  };
}

const ALARM = /FROGNANO-GUARD (tracing-hook|introspection|framework-changed|report-written): ([^\n]{0,300})/g;

/** The guard's alarms in a run's output and report text (each once). */
export function guardAlarms(...texts: string[]): GuardAlarm[] {
  const seen = new Map<string, GuardAlarm>();
  for (const text of texts) {
    for (const m of text.matchAll(ALARM)) if (isCause(m[1]!)) seen.set(`${m[1]}\0${m[2]}`, { cause: m[1], detail: m[2]!.trim() });
  }
  return [...seen.values()];
}
