// One rollout: an actor works on a task in a fresh agent workspace through
// the harness, then the verifier grades what it changed in another fresh
// workspace. An infrastructure failure comes back as reward null (retried
// once with a fresh actor), never scored 0; one failed rollout never throws.
// Shared by training and evaluation.
import { createHash } from 'node:crypto';
import { runAgent } from '../agent/loop.js';
import { Recorder, type StopReason, type Trajectory as HarnessTrajectory } from '../agent/trajectory.js';
import type { BuiltEnv } from '../env/build.js';
import { agentTestCommand } from '../grading/testrun.js';
import { DEFAULT_AGENT_LIMITS } from '../agent/limits.js';
import type { Runtime } from '../runtime/types.js';
import { agentWorkspace } from '../grading/agent-view.js';
import type { Task } from '../task/task.js';
import { acceptChanges } from '../verifier/changes.js';
import { verify, verifyTimeoutSec, type AgentChange, type VerifierReport } from '../verifier/verify.js';
import { ChangeRefused } from '../workspace/scan.js';
import type { Model } from '../model/types.js';
import type { Workspace } from '../workspace/workspace.js';
import type { Actor, Rollout, Turn } from './contract.js';
import { isStorageFailure } from '../util/storage-failure.js';
import { errorMessage, InfraError } from '../util/errors.js';
import { TestRunCache } from './test-cache.js';
import { ReuseKind, type ResultReuse } from '../grading/reuse.js';

export interface RolloutContext {
  built: BuiltEnv;
  runtime: Runtime;
  dataDir: string;
  /**
   * Results reused by content (grading/reuse.ts): the agent's test runs by
   * work-tree content, and verifier reports by task and accepted patch. Sound
   * because tasks are validated deterministic (no flaky test) and the
   * verifier's workspace depends on nothing but the task and the patch.
   */
  reuse?: ResultReuse;
  /** Where to record the episode's trajectory (JSONL, see agent/trajectory.ts); none when absent. */
  recorderPath?: string;
  /** Model turns at most (default DEFAULT_AGENT_LIMITS.maxSteps, the same in training, eval and solve). */
  maxSteps?: number;
  /** Sees what each try of a rollout leaves to inspect (the dashboard's attempts); the last call is the rollout's. */
  keep?: (detail: AttemptDetail) => void;
}

/** What an attempt leaves for people to inspect: the harness trajectory, the agent's change, the verifier's report. */
export interface AttemptDetail {
  trajectory?: HarnessTrajectory;
  change?: AgentChange;
  report?: VerifierReport;
}

/**
 * Time for one of the agent's commands: a repair that loops forever should
 * cost seconds, not the spec's minute; the verifier keeps the spec's limit.
 * See docs/decisions/2026-12-03-agent-command-timeout.md.
 */
export const AGENT_TIMEOUT_FLOOR_MS = 1_500;
/** The candidate's validation time (about two suite runs, under load) times this. */
export const AGENT_TIMEOUT_FACTOR = 2;
export function agentCommandTimeoutMs(task: Task): number {
  const ms = task.stats.validation?.candidateMs;
  const spec = task.env.spec.timeoutSec * 1000;
  return ms ? Math.min(spec, Math.max(AGENT_TIMEOUT_FLOOR_MS, AGENT_TIMEOUT_FACTOR * ms)) : spec;
}

/** What the agent is told: the task's instruction, where the repository is, how to run its tests. */
export function agentInstruction(task: Task, ws: Workspace): string {
  return `${task.instruction.trim()}\n\nThe repository is at ${ws.runtime.workdir(ws.mounts)} . Run the tests with:\n    ${agentTestCommand(task.env.spec, ws)}\n`;
}

/** The model works on the task in a fresh workspace; what it changed (or why the host refused to read it), why it stopped, and its turns. */
export async function work<D>(
  task: Task,
  model: Model<D>,
  ctx: RolloutContext,
): Promise<{ change: AgentChange; stopReason: StopReason; steps: number; turns: Turn<D>[]; trajectory: HarnessTrajectory; infra?: string }> {
  const ws = await agentWorkspace(task, ctx.built, ctx.runtime, ctx.dataDir);
  // One sandbox for the episode's commands; the verifier grades in fresh ones.
  ws.keepSandbox();
  try {
    const res = await runAgent({
      model,
      workspace: ws,
      instruction: agentInstruction(task, ws),
      toolset: 'leaf',
      taskId: task.id,
      // The test command the agent is given runs as grading runs it (e.g. pytest without plugin autoload).
      env: task.env.spec.test.env,
      ...(ctx.recorderPath ? { recorder: new Recorder(ctx.recorderPath) } : {}),
      ...(ctx.reuse ? { tools: new TestRunCache(ctx.reuse).tools(agentTestCommand(task.env.spec, ws), task.env.spec.test.env) } : {}),
      limits: {
        maxSteps: ctx.maxSteps ?? DEFAULT_AGENT_LIMITS.maxSteps,
        maxObservationChars: 400_000,
        maxContextTokens: 50_000_000,
        commandTimeoutMs: agentCommandTimeoutMs(task),
        wallTimeMs: 10 * 60_000,
      },
    });
    const change = await ws.diff().catch((err: unknown) => {
      if (err instanceof ChangeRefused) return { refused: { code: err.code, message: err.message } };
      throw err;
    });
    const infra = res.cause instanceof InfraError ? res.cause.message : undefined;
    return { change, stopReason: res.stopReason, steps: res.steps, turns: res.turns, trajectory: res.trajectory, ...(infra !== undefined ? { infra } : {}) };
  } finally {
    ws.dispose();
  }
}

/** Verifier reports, by the task's graded content and the accepted patch. */
const VERDICTS = new ReuseKind<VerifierReport>('verdict');

/** Everything about a task that decides how a change to it is graded. */
function gradedContent(task: Task): string {
  const { env, bugPatch, FAIL_TO_PASS, PASS_TO_PASS, hiddenFiles, heldBack, grading } = task;
  const timeout = verifyTimeoutSec(task);
  return createHash('sha256')
    .update(JSON.stringify({ env: env.hash, spec: env.spec, bugPatch, FAIL_TO_PASS, PASS_TO_PASS, hiddenFiles, heldBack, grading, timeout }))
    .digest('hex');
}

/** A rollout that failed for the infrastructure: reward null, never scored, with the turns it got to. */
export function infraFailure<D>(task: Task, version: number, o: { turns: Turn<D>[]; steps: number; ms: number; verifyMs: number; reason: string }): Rollout<D> {
  return {
    taskId: task.id,
    policyVersion: version,
    cached: false,
    trajectory: { turns: o.turns, stopReason: 'infra-error' },
    reward: null,
    steps: o.steps,
    ms: o.ms,
    verifyMs: o.verifyMs,
    reason: o.reason,
  };
}

/** The actor's attempt at the task, graded; `version` is the policy version it acts for. */
export async function rollout<D>(task: Task, actor: Actor<D>, ctx: RolloutContext, version: number): Promise<Rollout<D>> {
  const t0 = performance.now();
  const base = { taskId: task.id, policyVersion: version, cached: false };
  let change: AgentChange;
  let stopReason: StopReason;
  let steps: number;
  let turns: Turn<D>[];
  let infra: string | undefined;
  let harness: HarnessTrajectory;
  try {
    ({ change, stopReason, steps, turns, infra, trajectory: harness } = await work(task, actor, ctx));
  } catch (err) {
    if (isStorageFailure(err, ctx.dataDir)) throw err; // the disk, not this candidate or rollout: the command stops and says so
    ctx.keep?.({});
    return infraFailure(task, version, { turns: [], steps: 0, ms: performance.now() - t0, verifyMs: 0, reason: errorMessage(err) });
  }
  ctx.keep?.({ trajectory: harness, change });
  // The model side failed for the infrastructure (its sampler's fault, not its work): never graded, never trained on.
  if (infra !== undefined) return infraFailure(task, version, { turns, steps, ms: performance.now() - t0, verifyMs: 0, reason: `model: ${infra}` });
  const trajectory = { turns, stopReason };
  const v0 = performance.now();
  const accepted = typeof change === 'string' ? acceptChanges(change, task.env.spec.testPaths, task.hiddenFiles).patch : `refused:${change.refused.code}`;
  const key = ctx.reuse && VERDICTS.key([gradedContent(task), accepted]);
  let report: VerifierReport;
  let cached = false;
  try {
    const grade = () => verify(task, change, ctx);
    if (key) {
      const keep = (r: VerifierReport) => (r.reward !== null && !r.infraFailure ? 2048 + JSON.stringify(r).length : null);
      ({ value: report, reused: cached } = await VERDICTS.through(ctx.reuse!, key, grade, { keep }));
    } else report = await grade();
  } catch (err) {
    if (isStorageFailure(err, ctx.dataDir)) throw err; // the disk, not this candidate or rollout: the command stops and says so
    return infraFailure(task, version, { turns, steps, ms: performance.now() - t0, verifyMs: performance.now() - v0, reason: errorMessage(err) });
  }
  ctx.keep?.({ trajectory: harness, change, report });
  return {
    ...base,
    trajectory,
    reward: report.reward,
    verdict: report.verdict,
    steps,
    cached,
    ms: performance.now() - t0,
    verifyMs: performance.now() - v0,
    ...(report.reason ? { reason: report.reason } : {}),
  };
}

/**
 * A rollout whose infrastructure failure is tried once more with a fresh
 * actor (a failure to create one counts as a try); `retried` says so. The
 * actor is closed after each try.
 */
export async function rolloutWithRetry<D>(
  task: Task,
  newActor: (attempt: number) => Actor<D> | Promise<Actor<D>>,
  ctx: RolloutContext,
  version: number,
): Promise<Rollout<D> & { retried: boolean }> {
  let res: Rollout<D> | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const t0 = performance.now();
    let actor: Actor<D>;
    try {
      actor = await newActor(attempt);
    } catch (err) {
      res = infraFailure(task, version, { turns: [], steps: 0, ms: performance.now() - t0, verifyMs: 0, reason: `model: ${errorMessage(err)}` });
      continue;
    }
    try {
      res = await rollout(task, actor, ctx, version);
    } finally {
      await actor.close?.();
    }
    if (res.reward !== null) return { ...res, retried: attempt > 0 };
  }
  return { ...res!, retried: true };
}
