// The embedded policy's own pass-rate figures (the RL contract's
// PolicyFigures): a new task's reach read from its opening, replayed
// passing rollouts that follow each update, and the held-out tasks' reach.
import type { TaskPool } from '../curriculum/pool.js';
import type { FigureContext, Group, PolicyFigures } from '../rl/contract.js';
import type { Task } from '../task/task.js';
import { pool as inParallel } from '../util/pool.js';
import { deriveSeed } from '../util/rng.js';
import { EmbeddedAgent, MAX_ATTEMPTS, type Opening } from './agent.js';
import type { EmbeddedTurn } from './decisions.js';
import type { LinearPolicy } from './linear.js';
import { Openings, patchedFile } from './reach.js';
import { PassRateTracker, type TrackedTasks } from './replay.js';

export type { TrackedTasks };

/** Seed of the held-out tasks' openings: the same in every run, so runs compare. */
const HELD_OUT_SEED = 7;

/** Figures of `policy` as it is at each call (updates change it in place). */
export function embeddedFigures(policy: LinearPolicy, track: TrackedTasks, ctx: FigureContext): PolicyFigures<EmbeddedTurn> {
  /** A single-bug task's opening: the agent's test run and reads up to its first choice (null when it cannot be told). */
  const openingOf = async (task: Task): Promise<Opening | null> => {
    // Several bugs take several repairs: the first choice says too little.
    if (task.knobs.bugs !== 1 || !patchedFile(task.fixPatch)) return null;
    const agent = new EmbeddedAgent(policy, { seed: deriveSeed(ctx.seed, 'screen', task.id), openingOnly: true });
    try {
      await ctx.work(task, agent);
    } catch {
      return null; // a probe or evaluation will meet the same trouble and count it
    }
    return agent.opening;
  };
  // Under --track all the tracker re-reads training tasks' reach after every
  // update, so their openings are kept; otherwise each is dropped once screened.
  const openings = new Openings(ctx.seed, MAX_ATTEMPTS);
  const passRates = new PassRateTracker(policy, track, (id) => openings.reach(policy, id));
  const heldOut = reachOfHeldOut(openingOf, ctx.workers, policy);
  return {
    async screen(task) {
      if (!openings.keep(task.id, task.fixPatch, await openingOf(task))) return null;
      const reach = openings.reach(policy, task.id);
      if (!passRates.readsEstimates) openings.drop(task.id);
      return reach;
    },
    figure: (id) => passRates.figure(id),
    observe: (groups: readonly Group<EmbeddedTurn>[]) => passRates.observe(groups),
    follow: (pool: TaskPool, trained) => passRates.follow(pool, trained),
    async resume(active) {
      if (!passRates.readsEstimates) return;
      // Openings do not depend on the weights: made again, and anchored at the restored weights.
      await inParallel(active, ctx.workers, async (t) => void openings.keep(t.id, t.fixPatch, await openingOf(t)));
      passRates.anchor(active.map((t) => t.id));
    },
    heldOut,
  };
}

/**
 * The held-out tasks' mean reach for `policy` as it is at each call: the
 * chance the fix is among its first MAX_ATTEMPTS repair choices (reach.ts), a
 * task whose fix no candidate makes counting 0. Openings are made once; one
 * that failed (infrastructure) is tried again at the next call, up to 3
 * times, and left out meanwhile. Undefined when no held-out task has one.
 */
export function reachOfHeldOut(
  openingOf: (task: Task) => Promise<Opening | null>,
  workers: number,
  policy: LinearPolicy,
): (tasks: Task[]) => Promise<{ mean: number; byTask: Record<string, number> } | undefined> {
  const book = new Openings(HELD_OUT_SEED, MAX_ATTEMPTS);
  const tries = new Map<string, number>();
  return async (tasks) => {
    const todo = tasks.filter((t) => !book.has(t.id) && (tries.get(t.id) ?? 0) < 3);
    await inParallel(todo, workers, async (task) => {
      tries.set(task.id, (tries.get(task.id) ?? 0) + 1);
      book.keep(task.id, task.fixPatch, await openingOf(task).catch(() => null));
    });
    // In the tasks' order, not the order their openings finished: the mean must not depend on timing.
    const byTask = Object.fromEntries(tasks.filter((t) => book.has(t.id)).map((t) => [t.id, book.reach(policy, t.id)!]));
    const reaches = Object.values(byTask);
    return reaches.length ? { mean: reaches.reduce((a, b) => a + b, 0) / reaches.length, byTask } : undefined;
  };
}
