// Held-out evaluation: tasks from environments never trained on, made once
// with a fixed seed (the same for every run and curriculum sharing a bank),
// the policy's solve rate on them (the mean verifier reward), and its reach
// on them (nearly free of sampling noise, where one attempt per task is a
// coarse sample).
import { MAX_ATTEMPTS, type Opening } from '../policy/agent.js';
import type { LinearPolicy } from '../policy/linear.js';
import type { Task } from '../task/task.js';
import { pool as inParallel } from '../util/pool.js';
import { deriveSeed, rng } from '../util/rng.js';
import type { TrainConfig } from './config.js';
import { fixIndices, reachWithin } from './reach.js';
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

export async function solveRate(
  ids: string[], cfg: TrainConfig, taskOf: (id: string) => Task | undefined,
  runOne: (task: Task, seed: number) => Promise<RolloutResult>, onDone: (done: number, total: number) => void,
): Promise<number> {
  const jobs = ids.flatMap((id) => Array.from({ length: cfg.evalRollouts }, (_, r) => ({ id, r })));
  let sum = 0, n = 0, done = 0;
  await inParallel(jobs, cfg.workers, async ({ id, r }) => {
    const task = taskOf(id);
    if (!task) return;
    // The same seeds at every evaluation and in every run: differences come from the policy.
    const res = await runOne(task, deriveSeed('eval', id, r));
    if (res.reward !== null) { sum += res.reward; n++; }
    onDone(++done, jobs.length);
  });
  return n ? sum / n : 0;
}

/** Monte Carlo draws per held-out task for its reach: about ±1.5% per task, under ±0.5% on a mean of 12. */
const REACH_RUNS = 1000;

/**
 * The held-out tasks' mean reach for `policy` as it is at each call (training
 * updates it in place): the chance the fix is among its first MAX_ATTEMPTS
 * repair choices (reach.ts), a task whose fix no candidate makes counting 0.
 * The openings do not depend on the policy (the agent reads the same files
 * whatever its weights): made once, they give every later call for the cost
 * of a softmax; a task whose opening failed (infrastructure) is tried again
 * at the next call, up to 3 times, and left out of the mean meanwhile. The
 * same draws at every call, so differences come from the policy. Undefined
 * when no held-out task has an opening.
 */
export function reachOfHeldOut(
  tasks: () => Task[], openingOf: (task: Task) => Promise<Opening | null>, workers: number, policy: LinearPolicy, seed: number,
): () => Promise<number | undefined> {
  const made = new Map<string, { opening: Opening; fix: number[] }>();
  const tries = new Map<string, number>();
  return async () => {
    const todo = tasks().filter((t) => !made.has(t.id) && (tries.get(t.id) ?? 0) < 3);
    await inParallel(todo, workers, async (task) => {
      tries.set(task.id, (tries.get(task.id) ?? 0) + 1);
      const opening = await openingOf(task).catch(() => null);
      const fix = opening && fixIndices(opening, task.fixPatch);
      if (opening && fix) made.set(task.id, { opening, fix });
    });
    if (made.size === 0) return undefined;
    const reaches = [...made].map(([id, { opening, fix }]) => reachWithin(policy.probabilities(opening.feats), fix, MAX_ATTEMPTS, rng(deriveSeed(seed, 'reach', id)), REACH_RUNS));
    return reaches.reduce((a, b) => a + b, 0) / reaches.length;
  };
}
