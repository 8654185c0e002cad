// Running an evaluation: n attempts per task, each a rollout (agent in a fresh
// workspace, graded by the verifier) with its own model and a seed derived
// from the run's seed, the task and the attempt, so a run is reproducible
// whatever the number of workers. An infrastructure failure is retried once
// in a fresh workspace; if it fails again it is kept apart (reward null),
// never scored as a failure.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuiltEnv } from '../env/build.js';
import type { Runtime } from '../runtime/types.js';
import type { Task } from '../task/task.js';
import { rolloutWithRetry, type AttemptDetail } from '../rl/rollout.js';
import type { Rollout } from '../rl/contract.js';
import { sharedReuse, type ResultReuse } from '../grading/reuse.js';
import { pool } from '../util/pool.js';
import { deriveSeed } from '../util/rng.js';
import type { Model } from '../model/types.js';

export interface AttemptResult {
  attempt: number;
  seed: number;
  /** 1 solved, 0 not solved, null an infrastructure failure (twice). */
  reward: number | null;
  stopReason: string;
  steps: number;
  ms: number;
  /** True when a first try failed for infrastructure reasons and this is the retry. */
  retried: boolean;
  /** The verifier's verdict: pass, fail, tampering or infra (absent when the attempt never reached it). */
  verdict?: string;
  reason?: string;
  trajectory?: string;
  /** The agent's diff (with keepChanges; absent when the workspace could not be read). */
  change?: string;
}

export interface TaskResult {
  id: string;
  env: string;
  strategy: string;
  attempts: AttemptResult[];
}

export interface EvalProgress {
  done: number;
  total: number;
  /** Tasks with at least one solved attempt. */
  solvedTasks: number;
  passes: number;
  scored: number;
  infra: number;
}

export interface EvalRunOptions {
  tasks: Task[];
  /** The built environment of each task, by task id. */
  built: Map<string, BuiltEnv>;
  /** One fresh model per episode (src/cli/models.ts makes these from flags). */
  models: { forEpisode(ep: { seed: number; task: Task; built: BuiltEnv }): Promise<Model> };
  attempts: number;
  seed: number;
  workers: number;
  /** Results reused by content (grading/reuse.ts); the process's shared store by default. */
  reuse?: ResultReuse;
  runtime: Runtime;
  dataDir: string;
  /** Writes each attempt's trajectory as DIR/<task>/attempt-<i>.jsonl and its diff beside it (attempt-<i>.diff). */
  trajectoriesDir?: string;
  /** Keep each attempt's diff in its result (predictions files). */
  keepChanges?: boolean;
  /** Model turns per attempt at most (default DEFAULT_AGENT_LIMITS.maxSteps). */
  maxSteps?: number;
  onProgress?: (p: EvalProgress) => void;
  /** Runs an attempt elsewhere (a queue's worker) instead of in this process; it never throws (a failure is reward null). */
  remote?: (task: Task, seed: number) => Promise<Rollout & { retried: boolean }>;
}

/** Evaluated models are not being trained: their rollouts carry no policy version beyond this one. */
const EVAL_VERSION = 0;

function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_');
}

export async function runEval(opts: EvalRunOptions): Promise<TaskResult[]> {
  const results: TaskResult[] = opts.tasks.map((t) => ({ id: t.id, env: t.env.name, strategy: t.provenance.strategy, attempts: [] }));
  const items = opts.tasks.flatMap((task, ti) => Array.from({ length: opts.attempts }, (_, attempt) => ({ task, ti, attempt })));
  const progress: EvalProgress = { done: 0, total: items.length, solvedTasks: 0, passes: 0, scored: 0, infra: 0 };

  await pool(items, opts.workers, async ({ task, ti, attempt }) => {
    const seed = deriveSeed(opts.seed, task.id, attempt);
    const recorderPath = opts.trajectoriesDir ? join(opts.trajectoriesDir, safeName(task.id), `attempt-${attempt}.jsonl`) : undefined;
    const built = opts.built.get(task.id)!;
    let change: string | undefined;
    const keep = (d: AttemptDetail) => {
      if (d.change !== undefined) change = typeof d.change === 'string' ? d.change : undefined;
    };
    const r = opts.remote
      ? await opts.remote(task, seed)
      : await rolloutWithRetry(
          task,
          () => opts.models.forEpisode({ seed, task, built }),
          {
            built,
            runtime: opts.runtime,
            dataDir: opts.dataDir,
            reuse: opts.reuse ?? sharedReuse,
            keep,
            ...(recorderPath ? { recorderPath } : {}),
            ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}),
          },
          EVAL_VERSION,
        );
    const { retried } = r;
    if (recorderPath && change !== undefined) writeFileSync(recorderPath.replace(/\.jsonl$/, '.diff'), change);
    const res: AttemptResult = {
      attempt,
      seed,
      reward: r.reward,
      stopReason: r.trajectory.stopReason,
      steps: r.steps,
      ms: Math.round(r.ms),
      retried,
      ...(r.verdict ? { verdict: r.verdict } : {}),
      ...(r.reason ? { reason: r.reason } : {}),
      ...(recorderPath ? { trajectory: recorderPath } : {}),
      ...(opts.keepChanges && change !== undefined ? { change } : {}),
    };
    const mine = results[ti]!;
    const solvedBefore = mine.attempts.some((a) => a.reward === 1);
    mine.attempts.push(res);
    progress.done++;
    if (res.reward === null) progress.infra++;
    else progress.scored++;
    if (res.reward === 1) {
      progress.passes++;
      if (!solvedBefore) progress.solvedTasks++;
    }
    opts.onProgress?.({ ...progress });
  });
  for (const r of results) r.attempts.sort((a, b) => a.attempt - b.attempt);
  return results;
}
