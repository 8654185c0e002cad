// Where a run's training tasks come from. Frontier: synthesized at the controller's knobs, screened by reach, then
// admitted, retired (too easy) or rejected by a probe whose outcome moves the controller. Uniform and static: one
// fixed set made up front. See docs/decisions/2026-12-02-task-admission.md.
import type { DifficultyController } from '../curriculum/controller.js';
import { knobKey, LADDER, type Knobs, type OperatorFamily } from '../curriculum/knobs.js';
import type { TaskPool } from '../curriculum/pool.js';
import { outcomes, Probe, type ProbeVerdict } from '../curriculum/probe.js';
import { modelSkips, taskFeatures, type DifficultyModel, type GresoGate, type TaskFeatures } from '../curriculum/difficulty.js';
import type { Task } from '../task/task.js';
import { pool as inParallel, type Workers } from '../util/pool.js';
import { deriveSeed, rng } from '../util/rng.js';
import type { TrainConfig } from './config.js';
import type { Group, Rollout } from '../rl/contract.js';
import type { AttemptUse } from './run.js';
import { taskKnobs, type TaskSupply } from './supply.js';

/** What a task's screen and probe saw, before it is judged. */
type ProbeOutcome<D> =
  | { screened: true; skipped?: number }
  | { screened: false; unprobed: true }
  | { screened: false; unprobed?: false; probe: Probe; group: Group<D>; budgetSpent: boolean; predicted?: { p: number; x: TaskFeatures } };

export interface StockDeps<D> {
  cfg: TrainConfig;
  supply: TaskSupply;
  pool: TaskPool;
  controller: DifficultyController;
  /** Tasks this run has taken from the supply. */
  used: Set<string>;
  runOne: (task: Task, seed: number, use: AttemptUse) => Promise<Rollout<D>>;
  /** The policy's reach on a task before any rollout (reach.ts); null when it cannot be told. None: no screening. */
  screen?: (task: Task) => Promise<number | null>;
  /** The difficulty model (learning from every probe) and the gate that may skip a probe. */
  difficulty?: { model: DifficultyModel; greso: GresoGate; familyMean: (task: Task) => number; features: Map<string, TaskFeatures> };
  /** Counts every rollout spent (probes are part of the budget). */
  spend: () => void;
  /** Rollouts left in the budget, counting those of a batch in flight. */
  budgetLeft: () => number;
  phase: (step: number, text: string) => void;
}

/** Below this screened reach a task is rejected without a probe, which would almost never see a success. */
export const REACH_FLOOR = 0.02;

/** Knobs at random: a rung of the ladder and an operator family, each with equal chances. */
function randomKnobs(random: () => number, families: readonly OperatorFamily[]): Knobs {
  const rung = LADDER[Math.floor(random() * LADDER.length)]!;
  return { ...rung, family: families[Math.floor(random() * families.length)]! };
}

/** Knob draws per task of a fixed set before that slot is left empty. */
const FIXED_DRAWS = 4;

export class Stocker<D> {
  /** Generator yield since the last reset: candidates, valid, probed, admitted (in band), screened out before a probe. */
  yield = Stocker.noYield();
  probeMs = 0;
  /** Restocking tries so far: each goes to the next training environment in turn. */
  private turn = 0;
  /** Groups of probes that admitted a task: the current policy's mixed rewards, trained on rather than paid for twice. */
  private groups: Group<D>[] = [];

  constructor(private readonly d: StockDeps<D>) {}

  private static noYield() {
    return { candidates: 0, valid: 0, probed: 0, admitted: 0, screened: 0, skipped: 0, probeRollouts: 0 };
  }

  reset(): void {
    this.yield = Stocker.noYield();
    this.probeMs = 0;
  }

  /** The in-band probe groups gathered since the last call. */
  takeGroups(): Group<D>[] {
    const out = this.groups;
    this.groups = [];
    return out;
  }

  /**
   * Screens and probes new tasks into the pool; null for a task the budget ran out before. Outcomes reach the pool
   * and the controller in task order, so a run does not depend on which probe finished first.
   */
  async probeAll(tasks: readonly Task[], step: number): Promise<(ProbeVerdict | null)[]> {
    const { cfg } = this.d;
    const out: (ProbeVerdict | null)[] = [];
    if (cfg.workers > 1 && this.d.budgetLeft() > tasks.length * 2 * cfg.probe) {
      const seen = new Array<ProbeOutcome<D>>(tasks.length);
      await inParallel(
        tasks.map((t, k) => ({ t, k })),
        cfg.workers,
        async ({ t, k }) => void (seen[k] = await this.measure(t, step)),
      );
      tasks.forEach((t, k) => out.push(this.judge(t, seen[k]!, step)));
    } else {
      for (const t of tasks) out.push(this.judge(t, await this.measure(t, step), step));
    }
    return out;
  }

  /** A task's screen, then its probe's rollouts (each counted before it runs, so probes side by side cannot overrun the budget). */
  private async measure(task: Task, step: number): Promise<ProbeOutcome<D>> {
    const { cfg } = this.d;
    this.d.phase(step, `probing ${task.id}`);
    const reach = this.d.screen ? await this.d.screen(task) : null;
    if (reach !== null && reach < REACH_FLOOR) return { screened: true };
    if (cfg.ablate.includes('probe')) return { screened: false, unprobed: true };
    const dm = this.d.difficulty;
    const x = dm && taskFeatures(task, { familyMean: dm.familyMean(task), figure: reach });
    const predicted = x && dm.model.predict(x);
    if (dm && x) dm.features.set(task.id, x);
    if (dm && predicted !== undefined) {
      const skip =
        cfg.gate === 'model'
          ? modelSkips(dm.model, predicted, cfg.seed, task.id)
          : cfg.gate === 'greso' && dm.greso.skips(knobKey(taskKnobs(task)), cfg.seed, task.id);
      if (skip) return { screened: true, skipped: predicted };
    }
    const probe = new Probe(cfg.probe);
    const group: Group<D> = [];
    for (let i = 0; !probe.done && i < cfg.probe * 2 && this.d.budgetLeft() > 0; i++) {
      this.d.spend();
      this.yield.probeRollouts++;
      const res = await this.d.runOne(task, deriveSeed(cfg.seed, 'probe', task.id, i), { kind: 'probe', step });
      probe.add(res.reward);
      group.push(res);
    }
    return {
      screened: false,
      probe,
      group,
      budgetSpent: this.d.budgetLeft() <= 0,
      ...(x && predicted !== undefined ? { predicted: { p: predicted, x } } : {}),
    };
  }

  /** A measured task's verdict, applied to the pool and the controller. */
  private judge(task: Task, o: ProbeOutcome<D>, step: number): ProbeVerdict | null {
    const { cfg, pool, controller } = this.d;
    const knobs = taskKnobs(task);
    const entry = { taskId: task.id, env: task.env.name, familyKey: knobKey(knobs), addedStep: step };
    if (o.screened && o.skipped !== undefined) {
      // Skipped by the difficulty gate: the controller hears what the prediction says the probe would have.
      this.yield.skipped++;
      const successes = Math.round(o.skipped * cfg.probe);
      pool.add({ ...entry, state: o.skipped > 0.5 ? 'retired' : 'rejected' });
      controller.update(task.env.name, { successes, failures: cfg.probe - successes, family: knobs.family });
      return o.skipped > 0.5 ? 'too-easy' : 'too-hard';
    }
    if (o.screened) {
      // What the probe would almost surely have said, without its rollouts.
      this.yield.screened++;
      pool.add({ ...entry, state: 'rejected' });
      controller.update(task.env.name, { successes: 0, failures: cfg.probe, family: knobs.family });
      return 'too-hard';
    }
    if (o.unprobed) {
      // No admission probe (an ablation): every valid task that passed the screen trains, from its family's prior.
      pool.add({ ...entry, state: 'active' });
      return 'admit';
    }
    const { probe: p, group } = o;
    // The model and the GRESO-style streaks learn here, in task order, so a run does not depend on which probe finished first.
    const dm = this.d.difficulty;
    if (dm && o.predicted && p.rollouts > 0) {
      dm.model.calibration.push([Math.round(o.predicted.p * 1000) / 1000, p.successes, p.rollouts]);
      dm.model.observe(o.predicted.x, p.successes, p.failures, { kind: 'probe', task: task.id, predicted: o.predicted.p });
      dm.greso.record(knobKey(knobs), p.successes, p.failures);
    }
    if (p.rollouts + p.infraFailures === 0) {
      // The budget was spent before its first rollout: the task is left for another run, unjudged.
      this.d.used.delete(task.id);
      return null;
    }
    // Cut short by the budget: judged on what it saw. Out of tries through
    // infrastructure failures: too hard (a flaky task is not one to replay).
    const verdict = p.verdict ?? (p.successes > 0 && o.budgetSpent ? 'too-easy' : 'too-hard');
    if (verdict === 'admit') this.groups.push(group);
    pool.add({ ...entry, state: verdict === 'admit' ? 'active' : verdict === 'too-easy' ? 'retired' : 'rejected' });
    pool.record(
      task.id,
      group.map((r) => r.reward).filter((r): r is number => r !== null),
      step,
    );
    controller.update(task.env.name, { successes: p.successes, failures: p.failures, family: knobs.family });
    return verdict;
  }

  /** Without an admission probe, a task's first training group moves the controller as its probe would have. */
  steer(task: Task, group: Group<D>): void {
    this.d.controller.update(task.env.name, { ...outcomes(group.map((r) => r.reward)), family: taskKnobs(task).family });
  }

  /**
   * Frontier: at least one active task whatever it takes (bounded: an untrained policy fails most tasks); beyond that,
   * a few fresh tasks per step toward poolTarget, so probing never crowds out training. `workers`: validations in
   * parallel (1 while a batch rolls out beside it, all once it is done; synthesis gives the same tasks whatever the
   * number).
   */
  async stock(step: number, random: () => number, workers: Workers = 1, mode: 'top-up' | 'fill' = 'top-up'): Promise<void> {
    const { cfg, pool, supply, used } = this.d;
    // A try is a pair of tasks probed with rollouts; screened-out tasks cost no rollouts, so draws bounds them instead.
    let tries = 0,
      draws = 0;
    const wanted = () => {
      const active = pool.counts().active;
      // 'fill' (no restocking later): the whole pool at once, with as many tries as the first task and the rest would take.
      const limit =
        mode === 'fill'
          ? active < cfg.poolTarget
            ? 3 * cfg.envs.length + cfg.poolTarget
            : 0
          : active < 1
            ? 3 * cfg.envs.length
            : active < cfg.poolTarget
              ? Math.max(2, Math.ceil(cfg.batch / 2))
              : 0;
      return tries < limit && draws < 3 * limit;
    };
    // Room for one more try's probes and, once there is something to train on, the next step's full batch:
    // probes late in the budget would shrink the last training groups.
    const room = () => this.d.budgetLeft() >= (pool.counts().active < 1 ? 1 : 2 * cfg.probe + cfg.batch * cfg.group);
    while (wanted() && room()) {
      draws++;
      const env = cfg.envs[this.turn++ % cfg.envs.length]!;
      // Without the controller, knobs are drawn at random from the ladder, as the uniform curriculum draws them.
      const knobs = cfg.ablate.includes('controller')
        ? randomKnobs(random, supply.families(env))
        : this.d.controller.propose(env, random, supply.families(env));
      this.d.phase(step, `synthesizing ${env} at ${knobKey(knobs)}`);
      const before = { ...supply.yield };
      const fresh = await supply.take(env, knobs, 2, used, workers);
      this.yield.candidates += supply.yield.candidates - before.candidates;
      this.yield.valid += supply.yield.valid - before.valid;
      for (const t of fresh) used.add(t.id);
      const t0 = performance.now();
      const screened = this.yield.screened;
      for (const verdict of await this.probeAll(fresh, step)) {
        if (verdict !== null) this.yield.probed++;
        if (verdict === 'admit') this.yield.admitted++;
      }
      tries += fresh.length === 0 ? 1 : (fresh.length - (this.yield.screened - screened)) / 2;
      this.probeMs += performance.now() - t0;
    }
  }

  /**
   * The fixed task set of uniform (initialTasks per environment at random knobs) and static (twice as many where the
   * frontier starts, drawn before any probe, kept if the initial policy solves them sometimes).
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
          const knobs: Knobs = filtered
            ? this.d.controller.propose(env, random, families)
            : { ...rung, family: families[Math.floor(random() * families.length)]! };
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
    this.d.phase(0, `static filter: probing ${ids.length} tasks`);
    const verdicts = await this.probeAll(
      ids.map((id) => supply.task(id)!),
      0,
    );
    return ids.filter((_, k) => verdicts[k] === 'admit').sort();
  }
}
