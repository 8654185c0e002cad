// Where a run's training tasks come from. Frontier: TaskPilot synthesizes at
// the knobs the difficulty controller proposes, and each new task gets an
// admission probe of up to k rollouts that stops as soon as both outcomes
// are seen (mixed results already prove 0 < p < 1): admitted, too easy
// (retired to the regression set) or too hard (rejected); the outcome moves
// the controller. Before the probe, a task the policy cannot reach
// (reach.ts) is rejected without rollouts. Uniform and static: one fixed set made up front,
// uniform's at uniformly random knobs, static's where the frontier starts,
// filtered once by probes.
import type { DifficultyController } from '../curriculum/controller.js';
import { knobKey, LADDER, type Knobs } from '../curriculum/knobs.js';
import type { TaskPool } from '../curriculum/pool.js';
import { Probe, type ProbeVerdict } from '../curriculum/probe.js';
import type { Task } from '../task/task.js';
import { pool as inParallel } from '../util/pool.js';
import { deriveSeed, rng } from '../util/rng.js';
import type { TrainConfig } from './config.js';
import { REACH_FLOOR } from './reach.js';
import type { RolloutResult } from './rollout.js';
import { taskKnobs, type TaskSupply } from './supply.js';

export interface StockDeps {
  cfg: TrainConfig;
  supply: TaskSupply;
  pool: TaskPool;
  controller: DifficultyController;
  /** Tasks this run has taken from the supply. */
  used: Set<string>;
  runOne: (task: Task, seed: number) => Promise<RolloutResult>;
  /** The policy's reach on a task before any rollout (reach.ts); null when it cannot be told. None: no screening. */
  screen?: (task: Task) => Promise<number | null>;
  /** Counts every rollout spent (probes are part of the budget). */
  spend: () => void;
  /** Rollouts left in the budget, counting those of a batch in flight. */
  budgetLeft: () => number;
  phase: (step: number, text: string) => void;
}

/** Knob draws per task of a fixed set before that slot is left empty. */
const FIXED_DRAWS = 4;

export class Stocker {
  /** Generator yield since the last reset: candidates, valid, probed, admitted (in band), screened out before a probe. */
  yield = { candidates: 0, valid: 0, probed: 0, admitted: 0, screened: 0 };
  probeMs = 0;
  /** Restocking tries so far: each goes to the next training environment in turn. */
  private turn = 0;
  /**
   * Rollout groups of probes that found a task in band: rollouts of the
   * current policy with mixed rewards, so the trainer learns from them too
   * instead of paying for them twice.
   */
  private groups: RolloutResult[][] = [];

  constructor(private readonly d: StockDeps) {}

  reset(): void {
    this.yield = { candidates: 0, valid: 0, probed: 0, admitted: 0, screened: 0 };
    this.probeMs = 0;
  }

  /** The in-band probe groups gathered since the last call. */
  takeGroups(): RolloutResult[][] {
    const out = this.groups;
    this.groups = [];
    return out;
  }

  /** Screens and probes a new task into the pool; null when the budget was spent before its first rollout. */
  async probe(task: Task, step: number): Promise<ProbeVerdict | null> {
    const { cfg, pool, controller } = this.d;
    const knobs = taskKnobs(task);
    const reach = this.d.screen ? await this.d.screen(task) : null;
    if (reach !== null && reach < REACH_FLOOR) {
      // What the probe would almost surely have said, without its rollouts.
      this.yield.screened++;
      pool.add({ taskId: task.id, env: task.env.name, familyKey: knobKey(knobs), addedStep: step, state: 'rejected' });
      controller.update(task.env.name, { successes: 0, failures: cfg.probe, family: knobs.family });
      return 'too-hard';
    }
    const p = new Probe(cfg.probe);
    const rewards: number[] = [];
    const group: RolloutResult[] = [];
    // Each rollout is counted before it runs, so probes running side by side cannot overrun the budget.
    for (let i = 0; !p.done && i < cfg.probe * 2 && this.d.budgetLeft() > 0; i++) {
      this.d.spend();
      const res = await this.d.runOne(task, deriveSeed(cfg.seed, 'probe', task.id, i));
      p.add(res.reward);
      group.push(res);
      if (res.reward !== null) rewards.push(res.reward);
    }
    if (p.rollouts + p.infraFailures === 0) {
      // The budget was spent before its first rollout: the task is left for another run, unjudged.
      this.d.used.delete(task.id);
      return null;
    }
    // Cut short by the budget: judged on what it saw. Out of tries through
    // infrastructure failures: too hard, as before (a flaky task is not one to replay).
    const verdict = p.verdict ?? (p.successes > 0 && this.d.budgetLeft() <= 0 ? 'too-easy' : 'too-hard');
    if (verdict === 'admit') this.groups.push(group);
    pool.add({ taskId: task.id, env: task.env.name, familyKey: knobKey(knobs), addedStep: step, state: verdict === 'admit' ? 'active' : verdict === 'too-easy' ? 'retired' : 'rejected' });
    pool.record(task.id, rewards, step);
    controller.update(task.env.name, { successes: p.successes, failures: p.failures, family: knobs.family });
    return verdict;
  }

  /**
   * Frontier: at least one active task whatever it takes (bounded: an
   * untrained policy fails most tasks); beyond that, a few fresh tasks per
   * step toward poolTarget, so probing never crowds out training.
   */
  async stock(step: number, random: () => number): Promise<void> {
    const { cfg, pool, supply, used } = this.d;
    // A try is a pair of tasks probed with rollouts: tasks the screen turned
    // away cost a test run, not rollouts, so they do not use up the step's
    // tries (draws bounds the synthesis they cost instead).
    let tries = 0, draws = 0;
    const wanted = () => {
      const active = pool.counts().active;
      const limit = active < 1 ? 3 * cfg.envs.length : active < cfg.poolTarget ? Math.max(2, Math.ceil(cfg.batch / 2)) : 0;
      return tries < limit && draws < 3 * limit;
    };
    // Room for the probes of one more try (two tasks) and, once there is
    // something to train on, for the next step's full batch: probes late in
    // the budget would shrink the last groups for tasks that get at most
    // their probe group's worth of training. (Probes already running may
    // still take what is left; with nothing to train on, they go down to the
    // last rollout.)
    const room = () => this.d.budgetLeft() >= (pool.counts().active < 1 ? 1 : 2 * cfg.probe + cfg.batch * cfg.group);
    while (wanted() && room()) {
      draws++;
      const env = cfg.envs[this.turn++ % cfg.envs.length]!;
      const knobs = this.d.controller.propose(env, random, supply.families(env));
      this.d.phase(step, `synthesizing ${env} at ${knobKey(knobs)}`);
      const before = { ...supply.yield };
      const fresh = await supply.take(env, knobs, 2, used);
      this.yield.candidates += supply.yield.candidates - before.candidates;
      this.yield.valid += supply.yield.valid - before.valid;
      for (const t of fresh) used.add(t.id);
      const t0 = performance.now();
      const screened = this.yield.screened;
      await inParallel(fresh, cfg.workers, async (t) => {
        this.d.phase(step, `probing ${t.id}`);
        const verdict = await this.probe(t, step);
        if (verdict !== null) this.yield.probed++;
        if (verdict === 'admit') this.yield.admitted++;
      });
      tries += fresh.length === 0 ? 1 : (fresh.length - (this.yield.screened - screened)) / 2;
      this.probeMs += performance.now() - t0;
    }
  }

  /**
   * Uniform and static: the fixed task set, made once. Uniform: initialTasks
   * per environment at uniformly random knobs. Static: twice as many
   * candidates drawn where the frontier starts (the controller's proposals
   * before any evidence; drawn before any probe, so the draw does not adapt),
   * filtered once by admission probes against the initial policy: only the
   * tasks it solves sometimes are kept. (Filtering uniform's set instead kept
   * 0 or 1 task: most random knobs give several bugs the untrained policy
   * never fixes.)
   */
  async fixedSet(): Promise<string[]> {
    const { cfg, supply, used } = this.d;
    const random = rng(deriveSeed(cfg.seed, 'fixed'));
    const filtered = cfg.curriculum === 'static';
    const ids: string[] = [];
    for (const env of cfg.envs) {
      const families = supply.families(env);
      for (let i = 0; i < (filtered ? 2 : 1) * cfg.initialTasks; i++) {
        // Some settings yield no valid task in a given environment (too few
        // bugs to combine, no site for an operator): draw again, a few times.
        for (let draw = 0; draw < FIXED_DRAWS; draw++) {
          const rung = LADDER[Math.floor(random() * LADDER.length)]!;
          const knobs: Knobs = filtered ? this.d.controller.propose(env, random, families) : { ...rung, family: families[Math.floor(random() * families.length)]! };
          this.d.phase(0, `synthesizing ${env} at ${knobKey(knobs)}`);
          const got = await supply.take(env, knobs, 1, used, cfg.workers);
          for (const t of got) {
            used.add(t.id);
            ids.push(t.id);
          }
          if (got.length > 0) break;
        }
      }
    }
    if (!filtered) return ids;
    const kept: string[] = [];
    await inParallel(ids, cfg.workers, async (id) => {
      this.d.phase(0, `static filter: probing ${id}`);
      if ((await this.probe(supply.task(id)!, 0)) === 'admit') kept.push(id);
    });
    return kept.sort();
  }
}
