// The verifier: the reward, and the security boundary of training. It takes
// only the agent's changes to source files, applies them to a fresh workspace
// of the task's broken state with every test (hidden ones included) in its
// original form, adds canary tests, moves pytest files holding required tests
// to names the agent never saw (relocate.ts), runs the environment's test command and
// grades FAIL_TO_PASS and PASS_TO_PASS by the strict rules. Nothing the agent
// did inside its own workspace is trusted or reused.
import type { BuiltEnv } from '../env/build.js';
import { envWorkspace } from '../env/workspace.js';
import { grade, type Grade } from '../grading/grade.js';
import { runTests, type TestRun } from '../grading/testrun.js';
import type { Runtime } from '../runtime/types.js';
import type { Task } from '../task/task.js';
import { acceptChanges, type DroppedChange } from './changes.js';
import { checkCanary, makeCanary } from './canary.js';
import { planRelocation, relocate, restoreIds } from './relocate.js';

export interface VerifyOptions {
  built: BuiltEnv;
  runtime: Runtime;
  dataDir: string;
  /** Fresh-workspace attempts when the run is an infrastructure failure (default 2). */
  attempts?: number;
}

export interface VerifierReport {
  taskId: string;
  resolved: boolean;
  /** 1 resolved, 0 not; null for an infrastructure failure (retry; never score it 0). */
  reward: number | null;
  resolution: Grade['resolution'];
  infraFailure: boolean;
  reason?: string;
  FAIL_TO_PASS: Grade['FAIL_TO_PASS'];
  PASS_TO_PASS: Grade['PASS_TO_PASS'];
  patch: { empty: boolean; applied: boolean; files: string[]; dropped: DroppedChange[] };
  /** Signs the test run was tampered with; any one makes the reward 0. */
  tamper: string[];
  durationMs: number;
}

/** Time limit for one graded run: scaled to how long validation's runs took, never above the spec's. */
export function verifyTimeoutSec(task: Task): number {
  const ms = task.stats.validation?.candidateMs;
  if (!ms) return task.env.spec.timeoutSec;
  return Math.min(task.env.spec.timeoutSec, Math.max(20, Math.ceil((5 * ms) / 1000)));
}

/** Forged result lines show up as a second report of a required test ("name [2]"). */
function forgedDuplicates(run: TestRun, required: Set<string>): string[] {
  const out: string[] = [];
  for (const id of run.tests.keys()) {
    const m = /^(.*) \[\d+\]$/.exec(id);
    if (m && required.has(m[1]!) && !required.has(id)) out.push(id);
  }
  return out;
}

async function gradeOnce(task: Task, patch: string, opts: VerifyOptions) {
  const ws = await envWorkspace(opts.built, opts.runtime, opts.dataDir, { patch: task.bugPatch });
  try {
    if (patch) {
      try {
        await ws.applyPatch(patch);
      } catch (err) {
        return { applied: false, reason: `the patch does not apply: ${(err as Error).message.split('\n')[0]}` };
      }
    }
    const required = [...task.FAIL_TO_PASS, ...task.PASS_TO_PASS];
    const canary = makeCanary(task.env.spec, undefined, required);
    if (canary) ws.writeFile(canary.path, canary.content);
    if (canary?.twins) ws.writeFile(canary.twins.path, canary.twins.content);
    const moved = relocate(ws.root, planRelocation(required, task.env.spec.test.canary));
    const run = await runTests(task.env.spec, ws, { timeoutSec: verifyTimeoutSec(task) });
    const tamper: string[] = [];
    const forged = restoreIds(run, moved);
    if (forged.length) tamper.push(`results reported under test file names that were not in the run: ${forged.slice(0, 3).join(', ')}`);
    if (run.outcome === 'completed') {
      const problem = canary ? checkCanary(canary, run) : null;
      if (problem) tamper.push(problem);
      const dup = forgedDuplicates(run, new Set([...task.FAIL_TO_PASS, ...task.PASS_TO_PASS]));
      if (dup.length) tamper.push(`required tests reported more than once: ${dup.slice(0, 3).join(', ')}`);
    }
    return { applied: true, run, tamper };
  } finally {
    ws.dispose();
  }
}

export async function verify(task: Task, agentDiff: string, opts: VerifyOptions): Promise<VerifierReport> {
  const started = performance.now();
  const accepted = acceptChanges(agentDiff, task.env.spec.testPaths, task.hiddenFiles);
  const patchInfo = { empty: accepted.patch === '', files: accepted.files, dropped: accepted.dropped };
  const none = { success: [] as string[], failure: [] as string[] };
  const base = { taskId: task.id, FAIL_TO_PASS: { ...none, failure: [...task.FAIL_TO_PASS] }, PASS_TO_PASS: { ...none, failure: [...task.PASS_TO_PASS] } };

  let last: Awaited<ReturnType<typeof gradeOnce>> | undefined;
  for (let attempt = 0; attempt < (opts.attempts ?? 2); attempt++) {
    last = await gradeOnce(task, accepted.patch, opts);
    if (!last.applied || last.run?.outcome !== 'infra-error') break;
  }
  // A run with no usable report counts as infrastructure only when the same
  // run without the agent's patch also has none: otherwise the patch broke it
  // (exited, crashed or flooded the runner before it reported), which scores
  // 0 like any other failure, or an agent could turn its 0s into unscored runs.
  let blamed = false;
  if (last?.applied && last.run?.outcome === 'infra-error' && accepted.patch) {
    const control = await gradeOnce(task, '', opts);
    blamed = control.applied && control.run?.outcome === 'completed';
  }
  const durationMs = Math.round(performance.now() - started);
  if (!last?.applied || !last.run) {
    return { ...base, resolved: false, reward: 0, resolution: 'NO', infraFailure: false, reason: last?.reason, patch: { ...patchInfo, applied: false }, tamper: [], durationMs };
  }
  const g = grade(last.run, task.FAIL_TO_PASS, task.PASS_TO_PASS);
  const tamper = last.tamper ?? [];
  const resolved = g.resolved && tamper.length === 0;
  const infraFailure = g.infraFailure && !blamed;
  const reason = tamper.length
    ? `tampering: ${tamper.join('; ')}`
    : blamed ? `the patched run gave no usable result (${g.reason}) while the run without the patch did` : g.reason;
  return {
    taskId: task.id,
    resolved,
    reward: infraFailure ? null : resolved ? 1 : 0,
    resolution: tamper.length ? 'NO' : g.resolution,
    infraFailure,
    ...(reason ? { reason } : {}),
    FAIL_TO_PASS: g.FAIL_TO_PASS,
    PASS_TO_PASS: g.PASS_TO_PASS,
    patch: { ...patchInfo, applied: true },
    tamper,
    durationMs,
  };
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
