// One run of an environment's test command in a workspace, parsed and judged
// for trust: a run with no sign that tests ran is an infrastructure failure,
// and the runner's exit code must agree with the parsed report.
import { join } from 'node:path';
import { expandUnittest } from '../env/runners/unittest-junit.js';
import type { EnvironmentSpec } from '../env/spec.js';
import { parseReport, type TestResult } from '../report/index.js';
import { hostPython } from '../runtime/host.js';
import { BoundedReadError, readBounded } from '../util/bounded-read.js';
import { shellQuote } from '../util/shell.js';
import type { Workspace } from '../workspace/workspace.js';
import { guardAlarms, guardEnv, type GuardAlarm } from './guard.js';
import { ReuseKind, type ResultReuse } from './reuse.js';
import { errorExcerpt } from './diagnose.js';
import { errorMessage } from '../util/errors.js';

export type RunOutcome = 'completed' | 'timeout' | 'infra-error';

export interface TestRun {
  outcome: RunOutcome;
  /** Why the run is not trustworthy or did not complete. */
  reason?: string;
  exitCode: number | null;
  /** True when a non-zero exit comes with failures in the report and a zero exit without. */
  exitAgrees: boolean;
  tests: Map<string, TestResult>;
  durationMs: number;
  /** The end of the runner's output, for error messages. */
  outputTail: string;
  /** Lines of the whole output that may explain a failure (diagnose.ts); only on runs where no test passed or something failed. */
  errors?: string;
  /** Alarms the guard raised (runs made with `guard`). */
  guard?: GuardAlarm[];
}

const REPORT_FILE = 'report';
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/** Where the runner writes its report, as the run sees it. */
export function reportPath(ws: Workspace): string {
  return `${ws.runtime.outPath(ws.mounts)}/${REPORT_FILE}`;
}

/** The test argv with `{python}` and `{report}` filled in for this workspace. */
export function testArgv(spec: EnvironmentSpec, ws: Workspace, forAgent = false): string[] {
  const report = reportPath(ws);
  return expandUnittest(spec.test.command, forAgent).map((arg) => {
    let out = arg.replaceAll('{report}', report);
    if (out.includes('{python}')) {
      const py = hostPython();
      if (!py) throw new Error('the test command needs {python} but no Python interpreter was found (set FROGNANO_PYTHON)');
      out = out.replaceAll('{python}', py.executable);
    }
    return out;
  });
}

function tail(text: string, lines = 15): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** The test command as an agent runs it, one shell line: its report goes to the sandbox's /tmp, not the verifier's channel. */
export function agentTestCommand(spec: EnvironmentSpec, ws: Workspace): string {
  return testArgv(spec, ws, true)
    .map((a) => a.replace(`${ws.runtime.outPath(ws.mounts)}/${REPORT_FILE}`, '/tmp/frognano-report'))
    .map(shellQuote)
    .join(' ');
}

/** Completed runs of a suite, by the workspace's content, the command and its environment. */
const SUITE_RUNS = new ReuseKind<TestRun>('suite');

export interface RunTestsOptions {
  timeoutSec?: number;
  /** Extra environment variables for the runner. */
  env?: Record<string, string>;
  /** Where completed runs are remembered by the workspace's content, and found again (reuse.ts). */
  reuse?: ResultReuse;
  /** Run even when a result for this content is known (a deliberate repeat), and remember it. */
  fresh?: boolean;
  /** Load the guard (guard.ts), watching the lines this patch adds. */
  guard?: { patch: string };
}

/**
 * The suite on the workspace: a known result for the same content, command
 * and environment when `reuse` has one that finished within the time limit,
 * else a run.
 */
export async function runTests(spec: EnvironmentSpec, ws: Workspace, opts: RunTestsOptions = {}): Promise<TestRun> {
  const timeoutSec = opts.timeoutSec ?? spec.timeoutSec;
  const argv = testArgv(spec, ws);
  const env = { ...spec.test.env, ...opts.env, ...(opts.guard ? guardEnv(spec, ws, reportPath(ws), opts.guard.patch) : {}) };
  const digest = opts.reuse ? ws.digest() : null;
  const key = digest && SUITE_RUNS.key([ws.runtime.name, JSON.stringify(argv), JSON.stringify(env), JSON.stringify(ws.mounts.layers), digest]);
  const keep = (run: TestRun) => (run.outcome === 'completed' && run.exitAgrees ? 512 + run.outputTail.length + 256 * run.tests.size : null);
  const once = () => runOnce(spec, ws, argv, env, timeoutSec);
  if (!key) return once();
  if (opts.fresh) {
    // A deliberate repeat runs, and its result is kept for later runs of the same content.
    const run = await once();
    const bytes = keep(run);
    if (bytes !== null) SUITE_RUNS.set(opts.reuse!, key, run, bytes);
    return run;
  }
  return (await SUITE_RUNS.through(opts.reuse!, key, once, { keep, usable: (known) => known.durationMs <= timeoutSec * 1000 })).value;
}

async function runOnce(spec: EnvironmentSpec, ws: Workspace, argv: string[], env: Record<string, string>, timeoutSec: number): Promise<TestRun> {
  const { output, ...run } = await judgedRun(spec, ws, argv, env, timeoutSec);
  // Only a run where nothing passed needs explaining (a suite that cannot start); others keep no excerpt.
  if (run.outcome === 'completed' && [...run.tests.values()].some((t) => t.status === 'passed')) return run;
  const errors = errorExcerpt(output);
  return errors ? { ...run, errors } : run;
}

async function judgedRun(
  spec: EnvironmentSpec,
  ws: Workspace,
  argv: string[],
  env: Record<string, string>,
  timeoutSec: number,
): Promise<TestRun & { output: string }> {
  const res = await ws.exec({ argv, env, timeoutMs: timeoutSec * 1000 });
  const outputTail = tail(`${res.stdout}\n${res.stderr}`);
  const alarms = guardAlarms(res.stdout, res.stderr);
  const base = {
    output: `${res.stdout}\n${res.stderr}`,
    exitCode: res.exitCode,
    durationMs: res.durationMs,
    outputTail,
    tests: new Map<string, TestResult>(),
    exitAgrees: false,
    ...(alarms.length ? { guard: alarms } : {}),
  };
  if (res.spawnError) return { ...base, outcome: 'infra-error', reason: `could not start the runtime: ${res.spawnError}` };
  if (res.timedOut) return { ...base, outcome: 'timeout', reason: `the test run exceeded ${timeoutSec} s and was killed` };
  if (res.outputLimited) {
    return { ...base, outcome: 'infra-error', reason: `the test run printed ${res.outputBytes} bytes or more, over the output limit, and was cut off` };
  }

  let text: string;
  if (spec.test.report.from === 'file') {
    // Read only now: the runtime returns once every process of the run is gone.
    try {
      text = readBounded(join(ws.mounts.outDir, REPORT_FILE), MAX_REPORT_BYTES).toString('utf8');
    } catch (err) {
      if (!(err instanceof BoundedReadError)) throw err;
      const why =
        err.problem === 'missing'
          ? 'the runner wrote no report file'
          : err.problem === 'too-large'
            ? `the report file is over ${MAX_REPORT_BYTES} bytes`
            : 'the report is not a regular file';
      return { ...base, outcome: 'infra-error', reason: `no sign that tests ran: ${why}` };
    }
  } else {
    text = res.stdout;
  }

  // node:test folds a child process's stderr into its report.
  const inReport = guardAlarms(text);
  if (inReport.length) base.guard = [...(base.guard ?? []), ...inReport];
  let tests: TestResult[];
  try {
    tests = parseReport(spec.test.report.format, text, ws.runtime.workdir(ws.mounts)).tests;
  } catch (err) {
    return { ...base, outcome: 'infra-error', reason: `the ${spec.test.report.format} report could not be read: ${errorMessage(err)}` };
  }
  if (tests.length === 0) return { ...base, outcome: 'infra-error', reason: 'no sign that tests ran: the report lists no test' };
  // Test files relative to the repository root, whatever the runtime calls it.
  const root = `${ws.runtime.workdir(ws.mounts)}/`;
  tests = tests.map((t) => (t.file?.startsWith(root) ? { ...t, file: t.file.slice(root.length) } : t));

  const failed = tests.some((t) => t.status === 'failed' || t.status === 'error');
  const exitAgrees = (res.exitCode === 0) === !failed;
  return {
    ...base,
    outcome: 'completed',
    tests: new Map(tests.map((t) => [t.id, t])),
    exitAgrees,
    ...(exitAgrees ? {} : { reason: `the runner exited ${res.exitCode} but its report shows ${failed ? 'failures' : 'no failure'}` }),
  };
}
