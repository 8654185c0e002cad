// One rollout: the policy works on a task in a fresh agent workspace through
// the harness, then the verifier grades what it changed in another fresh
// workspace. An infrastructure failure comes back as reward null (callers
// retry it with a fresh model), never scored 0; one failed rollout never throws.
import { createHash } from 'node:crypto';
import { runAgent } from '../agent/loop.js';
import { Recorder, type StopReason } from '../agent/trajectory.js';
import type { BuiltEnv } from '../env/build.js';
import { agentTestCommand } from '../grading/testrun.js';
import { DEFAULT_AGENT_LIMITS } from '../agent/limits.js';
import type { Decision } from '../policy/linear.js';
import type { Runtime } from '../runtime/types.js';
import { agentWorkspace } from '../grading/agent-view.js';
import type { Task } from '../task/task.js';
import { acceptChanges } from '../verifier/changes.js';
import { verify, type AgentChange, type Verdict, type VerifierReport } from '../verifier/verify.js';
import { ChangeRefused } from '../workspace/scan.js';
import type { Model } from '../model/types.js';
import type { Workspace } from '../workspace/workspace.js';
import type { TestRunCache } from './test-cache.js';

export interface RolloutContext {
  built: BuiltEnv;
  runtime: Runtime;
  dataDir: string;
  /**
   * Verifier results by task and accepted patch. Sound because tasks are
   * validated deterministic (no flaky test) and the verifier's workspace
   * depends on nothing but the task and the patch.
   */
  verdicts?: Map<string, VerifierReport>;
  /** Where to record the episode's trajectory (JSONL, see agent/trajectory.ts); none when absent. */
  recorderPath?: string;
  /** Test runs of the agent remembered by workspace state (see test-cache.ts). */
  testRuns?: TestRunCache;
  /** Model turns at most (default DEFAULT_AGENT_LIMITS.maxSteps, the same in training, eval and solve). */
  maxSteps?: number;
}

export interface RolloutResult {
  taskId: string;
  reward: number | null;
  /** The verifier's verdict (absent when the rollout failed before grading). */
  verdict?: Verdict;
  stopReason: StopReason | 'infra-error';
  steps: number;
  decisions: Decision[];
  ms: number;
  verifyMs: number;
  cached: boolean;
  reason?: string;
}

/**
 * What a step hands to code that adds rollouts to groups already run (all-fail
 * extension, replay fill-up): each rollout is spent before it runs, so work
 * running alongside (restocking probes) cannot overrun the budget.
 */
export interface MoreRollouts {
  workers: number;
  /** Rollouts left in the budget. */
  budgetLeft: () => number;
  spend: () => void;
  /** The `index`-th rollout of the task's group (indices continue the group's). */
  run: (taskId: string, index: number) => Promise<RolloutResult>;
}

/**
 * Time for one of the agent's commands: a repair that loops forever should
 * cost seconds, not the spec's full minute. Scaled to validation's runs (their
 * candidateMs, measured under synthesis load, is already 3-5x a quiet run).
 * Measured on the JavaScript starters: suites run in ~0.2 s, yet the 1 in 10
 * repairs that loops or floods memory took 80% of a rollout's time under the
 * old 10 s floor. Only the agent's own view is cut short; the verifier keeps
 * its generous limit (verifyTimeoutSec), so no reward depends on this.
 */
export const AGENT_TIMEOUT_FLOOR_MS = 3_000;
export function agentCommandTimeoutMs(task: Task): number {
  const ms = task.stats.validation?.candidateMs;
  const spec = task.env.spec.timeoutSec * 1000;
  return ms ? Math.min(spec, Math.max(AGENT_TIMEOUT_FLOOR_MS, 4 * ms)) : spec;
}

/** What the agent is told: the task's instruction, where the repository is, how to run its tests. */
export function agentInstruction(task: Task, ws: Workspace): string {
  return `${task.instruction.trim()}\n\nThe repository is at ${ws.runtime.workdir(ws.mounts)} . Run the tests with:\n    ${agentTestCommand(task.env.spec, ws)}\n`;
}

/** The model works on the task in a fresh workspace; what it changed (or why the host refused to read it), and why it stopped. */
export async function work(task: Task, model: Model, ctx: RolloutContext): Promise<{ change: AgentChange; stopReason: StopReason; steps: number }> {
  const ws = await agentWorkspace(task, ctx.built, ctx.runtime, ctx.dataDir);
  try {
    const res = await runAgent({
      model, workspace: ws, instruction: agentInstruction(task, ws), toolset: 'leaf', taskId: task.id,
      ...(ctx.recorderPath ? { recorder: new Recorder(ctx.recorderPath) } : {}),
      ...(ctx.testRuns ? { tools: ctx.testRuns.tools(task.id, agentTestCommand(task.env.spec, ws)) } : {}),
      limits: { maxSteps: ctx.maxSteps ?? DEFAULT_AGENT_LIMITS.maxSteps, maxObservationChars: 400_000, maxContextTokens: 50_000_000, commandTimeoutMs: agentCommandTimeoutMs(task), wallTimeMs: 10 * 60_000 },
    });
    const change = await ws.diff().catch((err: unknown) => {
      if (err instanceof ChangeRefused) return { refused: { code: err.code, message: err.message } };
      throw err;
    });
    return { change, stopReason: res.stopReason, steps: res.steps };
  } finally {
    ws.dispose();
  }
}

export async function rollout(task: Task, model: Model & { decisions?: Decision[] }, ctx: RolloutContext): Promise<RolloutResult> {
  const t0 = performance.now();
  const base = { taskId: task.id, decisions: model.decisions ?? [], cached: false };
  let change: AgentChange;
  let stopReason: StopReason;
  let steps: number;
  try {
    ({ change, stopReason, steps } = await work(task, model, ctx));
  } catch (err) {
    return { ...base, reward: null, stopReason: 'infra-error', steps: 0, ms: performance.now() - t0, verifyMs: 0, reason: (err as Error).message };
  }
  const v0 = performance.now();
  const accepted = typeof change === 'string' ? acceptChanges(change, task.env.spec.testPaths, task.hiddenFiles).patch : `refused:${change.refused.code}`;
  const key = `${task.id}\0${createHash('sha256').update(accepted).digest('hex')}`;
  let report = ctx.verdicts?.get(key);
  const cached = Boolean(report);
  if (!report) {
    try {
      report = await verify(task, change, ctx);
    } catch (err) {
      return { ...base, reward: null, stopReason: 'infra-error', steps, ms: performance.now() - t0, verifyMs: performance.now() - v0, reason: (err as Error).message };
    }
    if (report.reward !== null) ctx.verdicts?.set(key, report);
  }
  return {
    ...base, reward: report.reward, verdict: report.verdict, stopReason, steps, cached,
    ms: performance.now() - t0, verifyMs: performance.now() - v0,
    ...(report.reason ? { reason: report.reason } : {}),
  };
}

/**
 * A rollout whose infrastructure failure is tried once more with a fresh
 * model (a failure to create the model counts as one); `retried` says so.
 * The model is closed after each try.
 */
export async function rolloutWithRetry(
  task: Task, newModel: (attempt: number) => Promise<Model & { decisions?: Decision[] }> | (Model & { decisions?: Decision[] }), ctx: RolloutContext,
): Promise<RolloutResult & { retried: boolean }> {
  let res: RolloutResult | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const t0 = performance.now();
    let model: Model & { decisions?: Decision[] };
    try {
      model = await newModel(attempt);
    } catch (err) {
      res = { taskId: task.id, reward: null, stopReason: 'infra-error', steps: 0, decisions: [], ms: performance.now() - t0, verifyMs: 0, cached: false, reason: `model: ${(err as Error).message}` };
      continue;
    }
    try {
      res = await rollout(task, model, ctx);
    } finally {
      await model.close?.();
    }
    if (res.reward !== null) return { ...res, retried: attempt > 0 };
  }
  return { ...res!, retried: true };
}
