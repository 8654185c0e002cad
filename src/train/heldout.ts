// Held-out evaluation on environments never trained on: tasks made once with a fixed seed (the same for every run
// sharing a bank), the solve rate on them, and their reach (nearly free of the sampling noise of one attempt per task).
import { isSuccess } from '../curriculum/probe.js';
import type { Task } from '../task/task.js';
import { pool as inParallel } from '../util/pool.js';
import { deriveSeed } from '../util/rng.js';
import type { TrainConfig } from './config.js';
import type { Rollout } from '../rl/contract.js';
import type { TaskSupply } from './supply.js';

/** Single operations bugs with visible tests: what a policy of this design can learn to fix. Made before training, with every worker. */
export async function heldOutTasks(cfg: TrainConfig, supply: TaskSupply, onEnv: (env: string) => void): Promise<string[]> {
  const ids: string[] = [];
  for (const env of cfg.heldOut) {
    onEnv(env);
    const got = await supply.take(env, { bugs: 1, hint: 'full', visibility: 'visible', family: 'operations' }, cfg.evalTasks, new Set(), cfg.workers);
    ids.push(...got.map((t) => t.id));
  }
  return ids;
}

/** A held-out evaluation: the mean reward, and the rollouts that passed of those scored. */
export interface SolveRate {
  rate: number;
  solved: number;
  attempts: number;
}

export async function solveRate(
  ids: string[],
  cfg: TrainConfig,
  taskOf: (id: string) => Task | undefined,
  runOne: (task: Task, seed: number) => Promise<Rollout>,
  onDone: (done: number, total: number) => void,
): Promise<SolveRate> {
  const jobs = ids.flatMap((id) => Array.from({ length: cfg.evalRollouts }, (_, r) => ({ id, r })));
  let sum = 0,
    n = 0,
    done = 0,
    solved = 0;
  await inParallel(jobs, cfg.workers, async ({ id, r }) => {
    const task = taskOf(id);
    if (!task) return;
    // The same seeds at every evaluation and in every run, so differences come from the policy.
    const res = await runOne(task, deriveSeed('eval', id, r));
    if (res.reward !== null) {
      sum += res.reward;
      n++;
      if (isSuccess(res.reward)) solved++;
    }
    onDone(++done, jobs.length);
  });
  return { rate: n ? sum / n : 0, solved, attempts: n };
}

/** The held-out tasks' reach: the mean and each task's (the learner's figures, PolicyFigures.heldOut). */
export interface HeldOutReach {
  mean: number;
  byTask: Record<string, number>;
}
