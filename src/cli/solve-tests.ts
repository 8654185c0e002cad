// `solve`'s check of the agent's change: the repository's tests run in the
// sandbox on a copy before the change and on a copy with it, compared test by
// test. The tests are found as `env add` finds them (or taken from
// --test-command with --report); a --test-command without a report format is
// judged by its exit status alone.
import type { EnvironmentSpec } from '../env/spec.js';
import { inferSpec } from '../env/infer.js';
import { parseTestCommand } from '../env/runners/command.js';
import { REPORT_FORMATS, SpecError } from '../env/spec.js';
import { someIds, type RunComparison } from '../grading/compare.js';
import { runTests, type TestRun } from '../grading/testrun.js';
import type { Runtime } from '../runtime/types.js';
import { UserError } from '../util/errors.js';
import { isOneOf } from '../util/guards.js';
import { Workspace } from '../workspace/workspace.js';

export type RepoTests = { spec: EnvironmentSpec } | { shell: string } | { unavailable: string };

/**
 * How the repository's tests are run for the check, read from the user's
 * repository itself (so what cannot be found is said of their path, not of
 * the sandbox's copy). An unknown --report is a usage error.
 */
export function repoTests(repo: string, testCommand: string | undefined, report: string | undefined): RepoTests {
  const format = report || undefined;
  if (format !== undefined && !isOneOf(REPORT_FORMATS, format))
    throw new UserError(`--report "${format}" is not supported`, `use one of ${REPORT_FORMATS.join(', ')}`);
  // A command naming a known runner gets that runner's report; any other is judged by its exit status.
  if (testCommand && !format && !parseTestCommand(testCommand)) return { shell: testCommand };
  try {
    return { spec: inferSpec(repo, { path: repo }, { ...(testCommand ? { testCommand } : {}), ...(format ? { report: format } : {}) }) };
  } catch (err) {
    if (err instanceof UserError || err instanceof SpecError) return { unavailable: err.message };
    throw err;
  }
}

const SHELL_ID = 'the test command';
const SHELL_TIMEOUT_MS = 10 * 60_000;

/** One run of the tests on a fresh copy of the snapshot, with `patch` applied when given. */
export async function runRepoTests(
  tests: RepoTests,
  ws: { snapshot: string; layers: { rel: string; host: string }[]; runtime: Runtime; baseDir: string },
  patch?: string,
): Promise<TestRun | null> {
  if ('unavailable' in tests) return null;
  const w = await Workspace.create({ ...ws, ...(patch ? { patch } : {}) });
  try {
    if ('spec' in tests) return await runTests(tests.spec, w);
    // Exit status only: one pseudo-test that passes when the command exits 0.
    const res = await w.exec({ argv: ['sh', '-c', tests.shell], timeoutMs: SHELL_TIMEOUT_MS });
    const outcome = res.timedOut ? 'timeout' : res.spawnError ? 'infra-error' : 'completed';
    const status = res.exitCode === 0 ? 'passed' : 'failed';
    return {
      outcome,
      exitCode: res.exitCode,
      exitAgrees: true,
      durationMs: res.durationMs,
      outputTail: '',
      tests: new Map([[SHELL_ID, { id: SHELL_ID, status }]]),
    };
  } finally {
    w.dispose();
  }
}

const count = (run: TestRun, status: string) => [...run.tests.values()].filter((t) => t.status === status).length;

export function describeRun(run: TestRun): string {
  if (run.outcome !== 'completed') return `did not complete: ${run.reason ?? run.outcome}`;
  return `${count(run, 'passed')} passed, ${run.tests.size - count(run, 'passed')} not passing`;
}

/** The verdict lines: what the change fixed and broke. */
export function verdictLines(c: RunComparison): string[] {
  const lines: string[] = [];
  if (c.fixed.length) lines.push(`now pass (${c.fixed.length}): ${someIds(c.fixed)}`);
  if (c.broken.length) lines.push(`now FAIL (${c.broken.length}): ${someIds(c.broken)}`);
  if (c.runBroken) lines.push('the tests no longer complete with the change (a crash, a timeout or no report)');
  lines.push(`still passing ${c.stillPassing}, still failing ${c.stillFailing.length}${c.stillFailing.length ? ` (${someIds(c.stillFailing, 3)})` : ''}`);
  return lines;
}

/** Why a change was not checked: the tests could not be found, or did not complete before the change. */
export function uncheckedWhy(tests: RepoTests, before: TestRun | null): string {
  if ('unavailable' in tests) return tests.unavailable;
  return before ? `the tests did not complete before the change: ${before.reason ?? before.outcome}` : 'the tests did not run';
}
