// One training step, stage by stage: supply tasks, choose the batch, roll
// out, grade, compute advantages, update, evaluate, checkpoint. Each stage is
// a method that reads and extends what the earlier ones left on the step.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { knobKey } from '../curriculum/knobs.js';
import { scoreGroup } from '../rl/advantages.js';
import type { Group, ScoredGroup } from '../rl/contract.js';
import type { ResultReuse } from '../grading/reuse.js';
import { pool as inParallel } from '../util/pool.js';
import { deriveSeed, rng, shuffle } from '../util/rng.js';
import { batchSize } from './config.js';
import { extendAllFail } from './extend.js';
import { noteSolved, type ForgettingPoint } from './forgetting.js';
import type { HeldOutReach, SolveRate } from './heldout.js';
import { DIFFICULTY_LOG } from '../curriculum/difficulty.js';
import { batchEntry, batchStats, nonDegenerateCount, type GroupReason, type StepMetrics } from './metrics.js';
import type { MoreRollouts } from './more-rollouts.js';
import { checkSize, settleReplays } from './regression.js';
import type { TrainRun } from './run.js';
import type { Stocker } from './stock.js';
import { taskKnobs } from './supply.js';
import { outcomes } from '../curriculum/probe.js';

export class Step<D> {
  private readonly random: () => number;
  readonly ms = { synthesis: 0, probe: 0, rollouts: 0, update: 0, eval: 0 };
  private readonly reuse0: ReturnType<ResultReuse['snapshot']>;
  private batch: string[] = [];
  private readonly reasons = new Map<string, GroupReason>();
  private figures = new Map<string, number | null>();
  private group = 0;
  private alongside: Promise<void> = Promise.resolve();
  private results = new Map<string, Group<D>>();
  private heldChecks = new Set<string>();
  private extended = new Map<string, number>();
  private groupIds: string[] = [];
  private probeGroups: Group<D>[] = [];
  private trained: ScoredGroup<D>[] = [];
  private stale = 0;
  private learnerFigures: Record<string, number> | undefined;
  private gradNorm = 0;
  private reestimated = { moved: 0, retired: 0 };
  private heldOut: SolveRate | undefined;
  private forgetting: ForgettingPoint | null = null;
  private reach: HeldOutReach | undefined;

  constructor(
    private readonly run: TrainRun<D>,
    private readonly stocker: Stocker<D>,
    readonly n: number,
  ) {
    this.random = rng(deriveSeed(run.cfg.seed, 'step', n));
    stocker.reset();
    this.reuse0 = run.reuse.snapshot();
  }

  /** Supply: under the frontier curriculum, training waits for synthesis only when the pool has nothing to train on. */
  async supplyTasks(): Promise<void> {
    const t0 = performance.now();
    await this.supply();
    this.ms.synthesis = performance.now() - t0;
  }

  private async supply(): Promise<void> {
    const { cfg, pool } = this.run;
    if (cfg.curriculum !== 'frontier') return;
    // Without restocking, the first step fills the pool once and nothing is added later.
    if (cfg.ablate.includes('restock')) {
      if (this.n === 1) await this.stocker.stock(this.n, this.random, cfg.workers, 'fill');
    } else if (pool.counts().active < 1) await this.stocker.stock(this.n, this.random, cfg.workers);
  }

  /** The batch: sampled from the pool (frontier) or the fixed set; false when the budget or the tasks ran out. */
  chooseBatch(): boolean {
    const { cfg, pool, state } = this.run;
    const left = cfg.budget - state.rolloutsUsed;
    if (left < 2) return this.stop('budget'); // one rollout is no group
    const size = batchSize(cfg, left);
    if (cfg.curriculum === 'frontier') {
      const sampled = pool.sample(size, this.n, this.random, {
        weighted: !cfg.ablate.includes('weighting'),
        ...(cfg.ablate.includes('replay') ? { replay: 0 } : {}),
      });
      for (const s of sampled) this.reasons.set(s.taskId, s.reason);
      this.batch = sampled.map((s) => s.taskId);
    } else {
      this.batch = shuffle(state.fixedIds ?? [], this.random).slice(0, size);
      for (const id of this.batch) {
        this.reasons.set(id, 'fixed');
        const t = this.run.task(id)!;
        if (!pool.get(id)) pool.add({ taskId: id, env: t.env.name, familyKey: knobKey(taskKnobs(t)), addedStep: this.n, state: 'active' });
      }
    }
    if (this.batch.length === 0) {
      // Nothing admitted yet (an untrained policy fails most tasks): train on any probed task.
      this.batch = pool.sampleUniform(size, this.random, this.n, ['active', 'retired', 'rejected']).map((s) => s.taskId);
      for (const id of this.batch) this.reasons.set(id, 'fallback');
      if (this.batch.length === 0) return this.stop('no-tasks');
    }
    // batchSize keeps this at 2 or more: size tasks fit full groups, or one task takes what is left.
    this.group = Math.min(cfg.group, Math.floor(left / this.batch.length));
    this.figures = new Map(this.batch.map((id) => [id, this.run.figures?.figure(id) ?? null]));
    return true;
  }

  private stop(why: 'budget' | 'no-tasks'): false {
    this.run.state.stop = why;
    return false;
  }

  /** Rollouts: every task's group in parallel workspaces, while TaskPilot restocks the pool (frontier); results in rollout order. */
  async rollOut(): Promise<void> {
    const run = this.run;
    const { cfg } = run;
    if (cfg.curriculum === 'frontier' && !cfg.ablate.includes('restock')) {
      run.inFlight = this.batch.length * this.group; // restocking must leave room for them
      const t0 = performance.now();
      // One validation at a time beside the batch's rollouts; every worker once they are done.
      const workers = () => (run.inFlight > 0 ? 1 : cfg.workers);
      this.alongside = this.stocker
        .stock(this.n, rng(deriveSeed(cfg.seed, 'stock', this.n)), workers)
        .then(() => void (this.ms.synthesis += performance.now() - t0));
    }
    const t1 = performance.now();
    // A replayed retired task starts as a check of the probe's size (regression.ts).
    const jobs = this.batch.flatMap((id) =>
      Array.from({ length: this.reasons.get(id) === 'replay' ? checkSize(cfg.probe, this.group) : this.group }, (_, g) => ({ id, g })),
    );
    const got: Group<D> = new Array(jobs.length);
    let done = 0;
    run.inFlight = jobs.length;
    await inParallel(
      jobs.map((j, k) => ({ ...j, k })),
      cfg.workers,
      async ({ id, g, k }) => {
        got[k] = await run.runOne(run.task(id)!, deriveSeed(cfg.seed, 'rollout', this.n, id, g), { kind: 'train', step: this.n });
        run.batchDone = ++done;
        run.phase(this.n, 'rollouts', done, jobs.length);
      },
    );
    run.state.rolloutsUsed += jobs.length;
    run.batchDone = 0;
    run.inFlight = 0;
    this.results = new Map(this.batch.map((id) => [id, []]));
    jobs.forEach(({ id }, k) => this.results.get(id)!.push(got[k]!));
    // Restocking spends budget as it goes: it finishes before more rollouts are spent, so what each gets does not depend on timing.
    await this.alongside;
    const more: MoreRollouts = {
      workers: cfg.workers,
      budgetLeft: () => cfg.budget - run.state.rolloutsUsed,
      spend: () => void run.state.rolloutsUsed++,
      run: (id, i) => run.runOne(run.task(id)!, deriveSeed(cfg.seed, 'rollout', this.n, id, i), { kind: 'more', step: this.n }),
    };
    // Replay checks that held end there; the others become full groups. All-fail groups may gain rollouts (--extend).
    this.heldChecks = await settleReplays(
      this.results,
      this.batch.filter((id) => this.reasons.get(id) === 'replay'),
      { ...more, group: this.group },
    );
    this.groupIds = this.batch.filter((id) => !this.heldChecks.has(id));
    if (cfg.extend > 0) this.extended = await extendAllFail(new Map(this.groupIds.map((id) => [id, this.results.get(id)!])), { ...more, max: cfg.extend });
    this.ms.rollouts = performance.now() - t1;
    this.ms.probe = this.stocker.probeMs;
    this.ms.synthesis -= this.stocker.probeMs;
  }

  /**
   * Grades reach the curriculum: each sampled task's posterior takes its
   * group; the groups to learn from are the batch's and the admission probes'
   * that found tasks in band (same policy, mixed rewards).
   */
  grade(): void {
    const { pool, cfg } = this.run;
    const solvedAt = (this.run.state.solvedAt ??= {});
    for (const [id, rs] of this.results) {
      const rewards = rs.map((r) => r.reward);
      pool.record(id, rewards, this.n);
      noteSolved(solvedAt, id, rewards, this.n);
    }
    // Training groups go to the difficulty log with the features their task had when made (the model learns from probes only).
    for (const id of this.groupIds) {
      const x = this.run.difficulty.features.get(id);
      const { successes, failures } = outcomes(this.results.get(id)!.map((r) => r.reward));
      if (x) this.run.difficulty.model.observe(x, successes, failures, { kind: 'group', task: id });
    }
    // Without an admission probe, a task's first training group is what steers the controller.
    if (cfg.ablate.includes('probe'))
      for (const id of this.groupIds) if (this.reasons.get(id) === 'fresh') this.stocker.steer(this.run.task(id)!, this.results.get(id)!);
    this.probeGroups = this.stocker.takeGroups();
    if (cfg.curriculum === 'frontier') this.run.figures?.observe(this.learnedFrom());
  }

  private learnedFrom(): Group<D>[] {
    return [...this.groupIds.map((id) => this.results.get(id)!), ...this.probeGroups];
  }

  /** Advantages within each group, by the run's estimator; rollouts of a policy version older than the learner allows are dropped. */
  computeAdvantages(): void {
    const oldest = this.run.learner.policy().version - this.run.learner.maxStaleness;
    this.trained = this.learnedFrom().map((g) => {
      const fresh = g.filter((r) => r.policyVersion >= oldest);
      this.stale += g.length - fresh.length;
      return { ...scoreGroup(fresh, this.run.estimator), taskId: g[0]?.taskId ?? '' };
    });
  }

  /** The learner's update; then the tracked tasks' posteriors follow their figures (the embedded policy's replay and reach). */
  async update(): Promise<void> {
    const t0 = performance.now();
    this.run.deps.onGroups?.(this.n, this.trained);
    const res = await this.run.learner.update(this.trained, this.run.estimator);
    this.gradNorm = res.gradNorm;
    this.learnerFigures = res.metrics;
    const ids = new Set(this.trained.map((g) => g.taskId).filter((id) => id !== ''));
    this.reestimated = this.run.figures?.follow(this.run.pool, ids) ?? { moved: 0, retired: 0 };
    this.ms.update = performance.now() - t0;
  }

  /** Held-out figures every step; the solve rate every evalEvery steps and at the last. */
  async evaluate(): Promise<void> {
    const run = this.run;
    run.state.step = this.n;
    const t0 = performance.now();
    this.reach = await run.heldOutReach();
    const last = run.state.step >= run.cfg.steps || run.cfg.budget - run.state.rolloutsUsed < 2 || run.outOfTime();
    if (run.state.evalIds.length && (this.n % run.cfg.evalEvery === 0 || last)) {
      this.heldOut = await run.solveHeldOut();
      run.recordHeldOut(this.n, this.heldOut, this.reach);
      this.forgetting = await run.checkForgetting(this.n);
    }
    this.ms.eval = performance.now() - t0;
  }

  /** The step's metrics appended to metrics.jsonl and the store; the run state saved. */
  checkpoint(): StepMetrics {
    const run = this.run;
    const m = this.metrics();
    appendFileSync(join(run.deps.runDir, 'metrics.jsonl'), `${JSON.stringify(m)}\n`);
    const seen = run.difficulty.model.drain();
    if (seen.length) appendFileSync(join(run.deps.runDir, DIFFICULTY_LOG), seen.map((o) => `${JSON.stringify({ step: this.n, ...o })}\n`).join(''));
    run.deps.store?.addTrainMetrics(run.deps.runName, this.n, m);
    run.persist();
    run.emit({ kind: 'step', metrics: m });
    return m;
  }

  private metrics(): StepMetrics {
    const { state, pool, controller, cfg, reuse } = this.run;
    const sampled = this.groupIds.map((id) => this.results.get(id)!);
    const { meanReward, infraFailures } = batchStats([...this.results.values()]);
    const nonDegenerate = nonDegenerateCount(sampled);
    const graded = [...this.results.values(), ...this.probeGroups].flat();
    const tampering = graded.filter((r) => r.verdict === 'tampering').length;
    const scored = graded.filter((r) => r.reward !== null).length;
    const infraReasons = [...new Set(graded.filter((r) => r.reward === null).map((r) => r.reason ?? 'unknown'))].slice(0, 3);
    state.tampering = (state.tampering ?? 0) + tampering;
    state.probeRollouts = (state.probeRollouts ?? 0) + this.stocker.yield.probeRollouts;
    state.groups.total += this.groupIds.length;
    state.groups.degenerate += this.groupIds.length - nonDegenerate;
    state.groups.heldChecks = (state.groups.heldChecks ?? 0) + this.heldChecks.size;
    const knobs: Record<string, number> = {};
    for (const env of cfg.envs) knobs[env] = Math.round(controller.level(env) * 100) / 100;
    return {
      step: this.n,
      curriculum: cfg.curriculum,
      at: new Date().toISOString(),
      elapsedMs: Math.round(this.run.elapsedMs()),
      rollouts: state.rolloutsUsed,
      meanReward,
      groups: this.groupIds.length,
      batch: this.batch.map((id) => batchEntry(id, this.reasons.get(id)!, this.results.get(id)!, this.figures.get(id) ?? null, this.heldChecks.has(id))),
      nonDegenerate,
      nonDegenerateShare: this.groupIds.length ? nonDegenerate / this.groupIds.length : 1,
      heldChecks: this.heldChecks.size,
      probeGroups: this.probeGroups.length,
      extended: [...this.extended.values()].reduce((a, b) => a + b, 0),
      reestimated: this.reestimated,
      infraFailures,
      ...(infraReasons.length ? { infraReasons } : {}),
      tampering,
      tamperingShare: scored ? tampering / scored : 0,
      poolHistogram: pool.histogram(),
      poolCounts: pool.counts(),
      yield: { ...this.stocker.yield },
      knobs,
      ...(this.heldOut !== undefined
        ? { heldOutSolveRate: this.heldOut.rate, heldOutSolved: this.heldOut.solved, heldOutAttempts: this.heldOut.attempts }
        : {}),
      ...(this.reach !== undefined ? { heldOutReach: this.reach.mean } : {}),
      ...(this.forgetting ? { forgetting: { tried: this.forgetting.tried, solved: this.forgetting.solved } } : {}),
      gradNorm: this.gradNorm,
      ...(this.stale ? { stale: this.stale } : {}),
      ...(this.learnerFigures ? { learner: this.learnerFigures } : {}),
      ms: {
        synthesis: Math.round(this.ms.synthesis),
        probe: Math.round(this.ms.probe),
        rollouts: Math.round(this.ms.rollouts),
        update: Math.round(this.ms.update),
        eval: Math.round(this.ms.eval),
      },
      ...(this.run.deps.queue ? { queue: this.run.deps.queue.figures() } : {}),
      cache: {
        testHits: reuse.counts['agent-test'].hits - this.reuse0['agent-test'].hits,
        testMisses: reuse.counts['agent-test'].misses - this.reuse0['agent-test'].misses,
        verdictHits: reuse.counts.verdict.hits - this.reuse0.verdict.hits,
        verdictMisses: reuse.counts.verdict.misses - this.reuse0.verdict.misses,
        suiteHits: reuse.counts.suite.hits - this.reuse0.suite.hits,
        suiteMisses: reuse.counts.suite.misses - this.reuse0.suite.misses,
      },
    };
  }
}
