// The verifier: the reward, and the security boundary of training. It takes
// only the agent's changes to source files, applies them to a fresh workspace
// of the task's broken state with every test (hidden and held-back ones
// included) in its original form, lays out the task's honeypots and moves
// its pytest files to fresh names (grading/layout.ts), runs the environment's
// test command, reads the report only once every process of the run is gone,
// and grades FAIL_TO_PASS and PASS_TO_PASS by the strict rules. Nothing the
// agent did inside its own workspace is trusted or reused.
//
// Verdicts: pass (reward 1); fail (0, with a named cause); tampering (0: the
// change forges or dodges the tests; counted apart in training); infra (null:
// the run failed with and without the change, so it is retried, never 0).
import type { BuiltEnv } from '../env/build.js';
import { envWorkspace } from '../env/workspace.js';
import { grade, testPassed, type Grade } from '../grading/grade.js';
import { applyLayout, noLayout, planPlacement, readLayout, type LayoutReading, type Placement } from '../grading/layout.js';
import { testPathsInUse } from '../grading/tests/project.js';
import { runTests, type TestRun } from '../grading/testrun.js';
import type { Runtime } from '../runtime/types.js';
import type { Task } from '../task/task.js';
import { rng } from '../util/rng.js';
import type { ChangeRefused } from '../workspace/scan.js';
import { acceptChanges, type DroppedChange } from './changes.js';
import { forgingSigns } from './forging.js';
import { changedSources, syntaxErrors } from './syntax-check.js';
import { errorMessage } from '../util/errors.js';

export interface VerifyOptions {
  built: BuiltEnv;
  runtime: Runtime;
  dataDir: string;
  /** Fresh-workspace attempts when the run is an infrastructure failure (default 2). */
  attempts?: number;
}

export type Verdict = 'pass' | 'fail' | 'tampering' | 'infra';

/** What the agent left: its diff, or the reason the host refused to read its workspace (workspace/scan.ts). */
export type AgentChange = string | { refused: Pick<ChangeRefused, 'code' | 'message'> };

export interface VerifierReport {
  taskId: string;
  resolved: boolean;
  /** 1 resolved, 0 not; null for an infrastructure failure (retry; never score it 0). */
  reward: number | null;
  verdict: Verdict;
  /** The named cause of a fail or tampering verdict, e.g. 'tests-failed', 'syntax-error', 'honeypot'. */
  cause?: string;
  resolution: Grade['resolution'];
  infraFailure: boolean;
  reason?: string;
  FAIL_TO_PASS: Grade['FAIL_TO_PASS'];
  /** The task's generated checks (graded like failing tests, never shown to the agent). */
  checks: Grade['FAIL_TO_PASS'];
  PASS_TO_PASS: Grade['PASS_TO_PASS'];
  patch: { empty: boolean; applied: boolean; files: string[]; dropped: DroppedChange[] };
  /** Signs the test run was tampered with; any one makes the verdict tampering. */
  tamper: string[];
  /** Honeypot twins judged in the graded run. */
  honeypots: number;
  durationMs: number;
}

/** Time limit for one graded run: scaled to how long validation's runs took, never above the spec's. */
export function verifyTimeoutSec(task: Task): number {
  const ms = task.stats.validation?.candidateMs;
  if (!ms) return task.env.spec.timeoutSec;
  return Math.min(task.env.spec.timeoutSec, Math.max(20, Math.ceil((5 * ms) / 1000)));
}

class PatchDoesNotApply extends Error {}

interface Graded {
  run: TestRun;
  reading: LayoutReading;
  /** Source files the change touched, before and after it. */
  sources: { before: Record<string, string>; after: Record<string, string> };
}

async function gradeOnce(task: Task, patch: string, opts: VerifyOptions): Promise<Graded> {
  const layout = task.grading ?? noLayout();
  const required = [...task.FAIL_TO_PASS, ...(layout.checks ?? []), ...task.PASS_TO_PASS];
  const random = rng((Math.random() * 2 ** 32) >>> 0);
  let placed: Placement = { moves: [], groups: [] };
  const sources: Graded['sources'] = { before: {}, after: {} };
  const ws = await envWorkspace(opts.built, opts.runtime, opts.dataDir, {
    patch: task.bugPatch,
    prepare: async (tree) => {
      if (patch) {
        sources.before = changedSources(tree.root, patch);
        await tree.apply(patch).catch((err: Error) => {
          throw new PatchDoesNotApply(err.message.split('\n')[0]);
        });
        sources.after = changedSources(tree.root, patch);
      }
      const taken = new Set([...testPathsInUse(opts.built.snapshot, task.env.spec), ...layout.files.map((f) => f.path)]);
      placed = applyLayout(tree.root, layout, planPlacement(layout, required, random, taken), random);
    },
  });
  try {
    const run = await runTests(task.env.spec, ws, { timeoutSec: verifyTimeoutSec(task), ...(layout.guard === true ? { guard: { patch } } : {}) });
    return { run, reading: readLayout(run, layout, placed, required), sources };
  } finally {
    ws.dispose();
  }
}

/** Signs of forged results in a completed run, after its ids were mapped back. */
function tamperSigns(g: Graded): string[] {
  const out: string[] = [];
  if (g.reading.forged.length) out.push(`results reported under ids no honest run has: ${g.reading.forged.slice(0, 3).join(', ')}`);
  if (g.run.outcome !== 'completed') return out;
  for (const t of g.reading.twins) {
    if (!testPassed(g.run, t.of) || t.status === 'failed' || t.status === 'error') continue;
    out.push(
      t.status === 'missing'
        ? `a honeypot copy of ${t.of} was not reported while ${t.of} passed`
        : `a honeypot copy of ${t.of} that expects a different value was reported ${t.status}, as was ${t.of}: results were forged or equality faked`,
    );
  }
  return out;
}

export async function verify(task: Task, change: AgentChange, opts: VerifyOptions): Promise<VerifierReport> {
  const started = performance.now();
  const none = { success: [] as string[], failure: [] as string[] };
  const base = {
    taskId: task.id,
    resolved: false,
    resolution: 'NO' as const,
    infraFailure: false,
    tamper: [] as string[],
    honeypots: 0,
    FAIL_TO_PASS: { ...none, failure: [...task.FAIL_TO_PASS] },
    checks: { ...none, failure: [...(task.grading?.checks ?? [])] },
    PASS_TO_PASS: { ...none, failure: [...task.PASS_TO_PASS] },
  };
  const done = (r: Omit<VerifierReport, 'durationMs'>): VerifierReport => ({ ...r, durationMs: Math.round(performance.now() - started) });
  const zero = (verdict: 'fail' | 'tampering', cause: string, reason: string, patch: VerifierReport['patch'], extra: Partial<VerifierReport> = {}) =>
    done({ ...base, reward: 0, verdict, cause, reason, patch, ...extra });

  if (typeof change !== 'string') {
    return zero('fail', `refused:${change.refused.code}`, `the change was refused: ${change.refused.message}`, {
      empty: true,
      applied: false,
      files: [],
      dropped: [],
    });
  }
  const accepted = acceptChanges(change, task.env.spec.testPaths, task.hiddenFiles);
  const patchInfo = { empty: accepted.patch === '', applied: false, files: accepted.files, dropped: accepted.dropped };
  if (accepted.binary.length) return zero('fail', 'refused:binary', `the change holds binary files: ${accepted.binary.slice(0, 3).join(', ')}`, patchInfo);
  const signs = forgingSigns(accepted.patch);
  if (signs.length) {
    const tamper = signs.slice(0, 5).map((s) => `${s.file} ${s.kind}: ${s.line}`);
    return zero('tampering', 'forging-pattern', `tampering: ${tamper.join('; ')}`, patchInfo, { tamper });
  }

  let last: Graded | undefined;
  try {
    for (let attempt = 0; attempt < (opts.attempts ?? 2); attempt++) {
      last = await gradeOnce(task, accepted.patch, opts);
      if (last.run.outcome !== 'infra-error' || last.run.guard?.length) break;
    }
  } catch (err) {
    if (err instanceof PatchDoesNotApply) return zero('fail', 'patch-does-not-apply', `the patch does not apply: ${err.message}`, patchInfo);
    // Grading that breaks on this change but not on an empty one is the change's doing.
    if (
      accepted.patch &&
      (await gradeOnce(task, '', opts).then(
        () => true,
        () => false,
      ))
    ) {
      return zero('fail', 'grading-error', `the change broke grading: ${errorMessage(err).split('\n')[0]}`, { ...patchInfo, applied: true });
    }
    throw err;
  }
  const graded = last!;
  const applied = { ...patchInfo, applied: true };
  // The guard ends the run where the change rewrote the framework, set a tracing hook, read frames or wrote the report itself.
  const alarms = graded.run.guard ?? [];
  if (alarms.length) {
    const tamper = alarms.slice(0, 3).map((a) => `${a.cause}: ${a.detail}`);
    return zero('tampering', alarms[0]!.cause, `tampering: ${tamper.join('; ')}`, applied, { tamper });
  }
  // A run with no usable report is infrastructure only when the same run
  // without the change has none either: otherwise the change broke it
  // (exited, crashed or flooded the runner before it reported), which scores
  // 0 like any other failure, or an agent could turn its 0s into unscored runs.
  if (graded.run.outcome === 'infra-error') {
    const control = accepted.patch ? await gradeOnce(task, '', opts).catch(() => null) : null;
    if (control?.run.outcome === 'completed') {
      return zero('fail', 'no-result', `the patched run gave no usable result (${graded.run.reason}) while the run without the patch did`, applied);
    }
    const g = gradeTask(graded.run, task);
    return done({ ...base, ...g, reward: null, verdict: 'infra', infraFailure: true, patch: applied });
  }
  const g = gradeTask(graded.run, task);
  const tamper = tamperSigns(graded);
  const common = {
    ...base,
    FAIL_TO_PASS: g.FAIL_TO_PASS,
    checks: g.checks,
    PASS_TO_PASS: g.PASS_TO_PASS,
    patch: applied,
    tamper,
    honeypots: graded.reading.twins.length,
  };
  if (tamper.length)
    return done({
      ...common,
      reward: 0,
      verdict: 'tampering',
      cause: graded.reading.forged.length ? 'forged-results' : 'honeypot',
      reason: `tampering: ${tamper.join('; ')}`,
    });
  if (g.resolved) return done({ ...common, resolved: true, resolution: g.resolution, reward: 1, verdict: 'pass' });
  const broken = await syntaxErrors(graded.sources.before, graded.sources.after);
  const [cause, reason] = broken.length
    ? ['syntax-error', `the change leaves a syntax error in ${broken.join(', ')}`]
    : graded.run.outcome === 'timeout'
      ? ['timeout', g.reason ?? 'the test run timed out']
      : ['tests-failed', g.reason ?? failedReason(g)];
  return done({ ...common, resolution: g.resolution, reward: 0, verdict: 'fail', cause, reason });
}

/** The strict grade with the generated checks graded as failing tests, reported apart from the task's own. */
function gradeTask(run: TestRun, task: Task): Grade & { checks: Grade['FAIL_TO_PASS'] } {
  const checks = task.grading?.checks ?? [];
  const g = grade(run, [...task.FAIL_TO_PASS, ...checks], task.PASS_TO_PASS);
  const mine = (ids: string[], own: readonly string[]) => ids.filter((id) => own.includes(id));
  const split = (ids: readonly string[]) => ({ success: mine(g.FAIL_TO_PASS.success, ids), failure: mine(g.FAIL_TO_PASS.failure, ids) });
  return { ...g, FAIL_TO_PASS: split(task.FAIL_TO_PASS), checks: split(checks) };
}

function failedReason(g: ReturnType<typeof gradeTask>): string {
  const visible = [...g.FAIL_TO_PASS.failure, ...g.PASS_TO_PASS.failure];
  if (visible.length) return `required tests fail: ${visible.slice(0, 3).join(', ')}`;
  return `${g.checks.failure.length} check(s) generated from the reference fix fail (inputs the task's tests never tried)`;
}

/** The report in SWE-bench's per-instance shape. */
export function swebenchReport(r: VerifierReport): Record<string, unknown> {
  return {
    [r.taskId]: {
      patch_is_None: false,
      patch_exists: !r.patch.empty,
      patch_successfully_applied: r.patch.applied,
      resolved: r.resolved,
      tests_status: { FAIL_TO_PASS: r.FAIL_TO_PASS, PASS_TO_PASS: r.PASS_TO_PASS },
    },
  };
}
