// Held-out evaluation: tasks from environments never trained on, made once
// with a fixed seed (the same for every run and curriculum sharing a bank),
// the policy's solve rate on them (the mean verifier reward), and its reach
// on them (nearly free of sampling noise, where one attempt per task is a
// coarse sample).
import { isSuccess } from '../curriculum/probe.js';
import { MAX_ATTEMPTS, type Opening } from '../policy/agent.js';
import type { LinearPolicy } from '../policy/linear.js';
import type { Task } from '../task/task.js';
import { pool as inParallel } from '../util/pool.js';
import { deriveSeed } from '../util/rng.js';
import type { TrainConfig } from './config.js';
import { Openings } from './reach.js';
import type { RolloutResult } from './rollout.js';
import type { TaskSupply } from './supply.js';

/** Single bugs of the operation family with visible tests: what a policy of this design can learn to fix. Made before training starts, so with every worker. */
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
  ids: string[], cfg: TrainConfig, taskOf: (id: string) => Task | undefined,
  runOne: (task: Task, seed: number) => Promise<RolloutResult>, onDone: (done: number, total: number) => void,
): Promise<SolveRate> {
  const jobs = ids.flatMap((id) => Array.from({ length: cfg.evalRollouts }, (_, r) => ({ id, r })));
  let sum = 0, n = 0, done = 0, solved = 0;
  await inParallel(jobs, cfg.workers, async ({ id, r }) => {
    const task = taskOf(id);
    if (!task) return;
    // The same seeds at every evaluation and in every run: differences come from the policy.
    const res = await runOne(task, deriveSeed('eval', id, r));
    if (res.reward !== null) { sum += res.reward; n++; if (isSuccess(res.reward)) solved++; }
    onDone(++done, jobs.length);
  });
  return { rate: n ? sum / n : 0, solved, attempts: n };
}

/** The held-out tasks' reach: the mean and each task's. */
export interface HeldOutReach {
  mean: number;
  byTask: Record<string, number>;
}

/**
 * The held-out tasks' mean reach for `policy` as it is at each call (training
 * updates it in place): the chance the fix is among its first MAX_ATTEMPTS
 * repair choices (reach.ts), a task whose fix no candidate makes counting 0.
 * Openings are made once (Openings); a task whose opening failed
 * (infrastructure) is tried again at the next call, up to 3 times, and left
 * out of the mean meanwhile. Undefined when no held-out task has an opening.
 */
export function reachOfHeldOut(
  tasks: () => Task[], openingOf: (task: Task) => Promise<Opening | null>, workers: number, policy: LinearPolicy, seed: number,
): () => Promise<HeldOutReach | undefined> {
  const book = new Openings(seed, MAX_ATTEMPTS);
  const tries = new Map<string, number>();
  return async () => {
    const todo = tasks().filter((t) => !book.has(t.id) && (tries.get(t.id) ?? 0) < 3);
    await inParallel(todo, workers, async (task) => {
      tries.set(task.id, (tries.get(task.id) ?? 0) + 1);
      book.keep(task.id, task.fixPatch, await openingOf(task).catch(() => null));
    });
    const byTask = Object.fromEntries(book.ids().map((id) => [id, book.reach(policy, id)!]));
    const reaches = Object.values(byTask);
    return reaches.length ? { mean: reaches.reduce((a, b) => a + b, 0) / reaches.length, byTask } : undefined;
  };
}
