// Forgetting tracked: a training task counts as solved at the step where its group first passed at least half the
// time; at each held-out evaluation some tasks solved before are tried again (fixed seeds, outside the budget, like
// the held-out evaluation), and the share still solved is kept as a curve, with each task's age since it was solved.
import { isSuccess, outcomes } from '../curriculum/probe.js';
import type { Rollout } from '../rl/contract.js';
import type { Task } from '../task/task.js';
import { pool as inParallel } from '../util/pool.js';
import { deriveSeed, rng, shuffle } from '../util/rng.js';

/** One check: tasks tried again, those still solved, and (age in steps, passed) per task. */
export interface ForgettingPoint {
  step: number;
  rollouts: number;
  tried: number;
  solved: number;
  byAge: [number, 0 | 1][];
}

/** A group that passed at least half its scored rollouts solves its task (first time only). */
export function noteSolved(solvedAt: Record<string, number>, taskId: string, rewards: readonly (number | null)[], step: number): void {
  const { successes, failures } = outcomes(rewards);
  if (taskId in solvedAt || successes + failures === 0) return;
  if (successes >= failures) solvedAt[taskId] = step;
}

/** Up to `k` tasks solved before `step`, drawn at random (seeded by the step), each tried once. */
export async function checkForgetting(
  solvedAt: Record<string, number>,
  step: number,
  rollouts: number,
  opts: { k: number; seed: number; workers: number },
  taskOf: (id: string) => Task | undefined,
  runOne: (task: Task, seed: number) => Promise<Rollout<unknown>>,
): Promise<ForgettingPoint | null> {
  const earlier = Object.keys(solvedAt)
    .filter((id) => solvedAt[id]! < step)
    .sort();
  if (earlier.length === 0 || opts.k <= 0) return null;
  const picked = shuffle(earlier, rng(deriveSeed(opts.seed, 'forgetting', step))).slice(0, opts.k);
  const byAge: [number, 0 | 1][] = [];
  await inParallel(picked, opts.workers, async (id) => {
    const task = taskOf(id);
    if (!task) return;
    // The same seed at every check: a task's result changes only with the policy.
    const res = await runOne(task, deriveSeed('forgetting', id));
    if (res.reward !== null) byAge.push([step - solvedAt[id]!, isSuccess(res.reward) ? 1 : 0]);
  });
  byAge.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { step, rollouts, tried: byAge.length, solved: byAge.filter(([, p]) => p === 1).length, byAge };
}
