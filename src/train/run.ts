// A training run's context: what every stage of a step reads and changes.
// Made once per invocation from the saved state (or fresh): the learner and
// its figures, the task supplies, the curriculum's pool and controller, the
// budget accounting, and one rollout with retry for the current policy.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DifficultyController } from '../curriculum/controller.js';
import { TaskPool } from '../curriculum/pool.js';
import { buildEnvironment, type BuiltEnv } from '../env/build.js';
import type { LoadedEnv } from '../env/load.js';
import { estimator } from '../rl/advantages.js';
import type { AdvantageEstimator, Learner, PolicyFigures, Rollout, ScoredGroup } from '../rl/contract.js';
import { rolloutWithRetry, work, type AttemptDetail, type RolloutContext } from '../rl/rollout.js';
import { sharedReuse, type ResultReuse } from '../grading/reuse.js';
import type { Runtime } from '../runtime/types.js';
import type { Store } from '../store/store.js';
import { AttemptLog, type AttemptKind } from '../store/attempts.js';
import type { Task } from '../task/task.js';
import { errorMessage, UserError } from '../util/errors.js';
import { deriveSeed } from '../util/rng.js';
import type { TrainConfig } from './config.js';
import { solveRate, type HeldOutReach, type SolveRate } from './heldout.js';
import { repairRunLog, type StepMetrics } from './metrics.js';
import { loadState, saveState, STATE_SCHEMA, type HeldOutPoint, type RunState } from './state.js';
import { TaskSupply } from './supply.js';
import { keepAttempt } from './keep.js';
import { DIFFICULTY_LOG, DifficultyModel, GresoGate } from '../curriculum/difficulty.js';
import { checkForgetting, type ForgettingPoint } from './forgetting.js';
import type { JobQueue } from '../queue/client.js';
import type { ActorSpec } from '../queue/jobs.js';

export interface TrainDeps<D> {
  envs: Map<string, LoadedEnv>;
  runtime: Runtime;
  dataDir: string;
  runDir: string;
  /** Where synthesized tasks are kept (shared by runs that should reuse them). */
  bankDir: string;
  runName: string;
  /** What learns: the embedded policy (policy/learner.ts) or any other learner of the RL contract. */
  learner: Learner<D>;
  store?: Store;
  /** Disk budget in MiB for the attempts' trajectory files in the store (default DEFAULT_ATTEMPT_BUDGET_MB). */
  attemptBudgetMB?: number;
  /** Results reused by content (grading/reuse.ts); the process's shared store by default. */
  reuse?: ResultReuse;
  onEvent?: (e: TrainEvent) => void;
  /** Rollouts and candidate checks run by queue workers (src/queue) instead of in this process; none: in-process. */
  queue?: JobQueue;
  /** True once the user asked the run to stop (Ctrl-C): no further step starts. */
  stopAsked?: () => boolean;
  /** Sees the scored groups each update learns from, before it (bench/real-gradients.ts). */
  onGroups?: (step: number, groups: ScoredGroup<D>[]) => void;
}

export type TrainEvent =
  | {
      kind: 'phase';
      step: number;
      phase: string;
      done?: number;
      total?: number /** Rollouts spent so far, the running batch's finished ones included. */;
      rollouts?: number;
    }
  | { kind: 'step'; metrics: StepMetrics }
  | ({ kind: 'eval' } & HeldOutPoint)
  | { kind: 'resume'; step: number; rollouts: number }
  /** Something the run repaired or noticed on its own, for the user to know. */
  | { kind: 'notice'; text: string };

/** Why a rollout ran and in which step (kept with the attempt). */
export interface AttemptUse {
  kind: AttemptKind;
  step: number;
}

/** The seed of the held-out task supply: the same tasks for every run and curriculum. */
const EVAL_SEED = 7;

export class TrainRun<D> {
  readonly deps: TrainDeps<D>;
  readonly learner: Learner<D>;
  readonly estimator: AdvantageEstimator;
  readonly supply: TaskSupply;
  readonly evalSupply: TaskSupply;
  readonly pool: TaskPool;
  readonly controller: DifficultyController;
  readonly used: Set<string>;
  /** Predicts a task's pass rate before its rollouts (learned in every run; a gate may use it to skip probes). */
  readonly difficulty: { model: DifficultyModel; greso: GresoGate; features: Map<string, Map<string, number>> };
  readonly state: RunState;
  readonly resumed: boolean;
  readonly reuse: ResultReuse;
  readonly figures: PolicyFigures<D> | undefined;
  /** Every attempt with its trajectory, kept in the store (none without a store). */
  readonly attempts: AttemptLog | undefined;
  /** Rollouts of the running batch: finished (shown in progress) and in flight (kept out of the budget others see). */
  batchDone = 0;
  inFlight = 0;
  private readonly builts = new Map<string, Promise<BuiltEnv>>();
  private readonly started: number;
  /** The time limit counts per invocation; each makes at least one step, so a stopped run goes further when rerun. */
  readonly invoked = performance.now();

  constructor(
    readonly cfg: TrainConfig,
    given: TrainDeps<D>,
  ) {
    // Workspaces keep git directories by absolute path: a relative data directory would break them.
    const deps = { ...given, dataDir: resolve(given.dataDir), runDir: resolve(given.runDir), bankDir: resolve(given.bankDir) };
    this.deps = deps;
    for (const name of [...cfg.envs, ...cfg.heldOut]) if (!deps.envs.has(name)) throw new Error(`unknown environment "${name}"`);
    mkdirSync(deps.runDir, { recursive: true });
    this.learner = deps.learner;
    this.estimator = estimator(cfg.advantage);
    const queue = deps.queue;
    if (queue && !this.learner.snapshot) throw new UserError(`the ${this.learner.kind} learner cannot act on queue workers yet`, 'train without --queue');
    const checkVia = queue ? { checkVia: (built: BuiltEnv, runs: { referenceRuns: number; candidateRuns: number }) => queue.checkFor(built, runs) } : {};
    this.supply = new TaskSupply(deps.envs, {
      bankDir: deps.bankDir,
      dataDir: deps.dataDir,
      runtime: deps.runtime,
      seed: cfg.seed,
      families: cfg.families,
      ...checkVia,
    });
    this.evalSupply = new TaskSupply(deps.envs, {
      bankDir: join(deps.bankDir, 'held-out'),
      dataDir: deps.dataDir,
      runtime: deps.runtime,
      seed: EVAL_SEED,
      ...checkVia,
    });
    this.reuse = deps.reuse ?? sharedReuse;

    const saved = loadState(deps.runDir);
    this.resumed = saved !== null;
    if (saved) this.restoreLearner(saved);
    for (const log of ['metrics.jsonl', DIFFICULTY_LOG])
      for (const text of repairRunLog(join(deps.runDir, log), saved?.step ?? 0)) this.emit({ kind: 'notice', text });
    this.pool = saved ? TaskPool.fromJSON(saved.pool) : new TaskPool();
    this.controller = saved ? DifficultyController.fromJSON(saved.controller) : new DifficultyController({ target: cfg.target });
    this.used = new Set(saved?.used ?? []);
    this.difficulty = {
      model: saved?.predictor ? DifficultyModel.fromJSON(saved.predictor) : new DifficultyModel(),
      greso: saved?.greso ? GresoGate.fromJSON(saved.greso) : new GresoGate(),
      features: new Map(),
    };
    this.state = saved ?? {
      schema: STATE_SCHEMA,
      config: cfg,
      step: 0,
      rolloutsUsed: 0,
      elapsedMs: 0,
      learner: { kind: this.learner.kind, state: this.learner.save() },
      pool: this.pool.toJSON(),
      controller: this.controller.toJSON(),
      used: [],
      evalIds: [],
      fixedIds: null,
      heldOut: [],
      groups: { total: 0, degenerate: 0 },
    };
    this.state.config = cfg; // a resumed run may go further (steps, budget, time limit); the rest matches (cli/train.ts)
    this.started = performance.now() - this.state.elapsedMs;
    this.attempts = deps.store ? new AttemptLog(deps.store, deps.dataDir, deps.attemptBudgetMB) : undefined;
    this.attempts?.runStarted(deps.runName, cfg, { step: this.state.step, rollouts: this.state.rolloutsUsed });
    this.figures = this.learner.figures?.({
      seed: cfg.seed,
      workers: cfg.workers,
      work: async (task, actor) => void (await work(task, actor, { ...(await this.context(task)), reuse: this.reuse })),
    });
  }

  private restoreLearner(saved: RunState): void {
    const fix = 'pass --fresh to start the run over, or pick another --run';
    if (saved.learner.kind !== this.learner.kind) {
      throw new UserError(`run "${this.deps.runName}" was trained by the ${saved.learner.kind} learner, not ${this.learner.kind}`, fix);
    }
    try {
      this.learner.restore(saved.learner.state);
    } catch (err) {
      throw new UserError(`run "${this.deps.runName}" cannot resume: ${errorMessage(err)}`, fix);
    }
  }

  emit(e: TrainEvent): void {
    this.deps.onEvent?.(e.kind === 'phase' ? { ...e, rollouts: this.state.rolloutsUsed + this.batchDone } : e);
  }

  phase(step: number, phase: string, done?: number, total?: number): void {
    this.emit({ kind: 'phase', step, phase, ...(done !== undefined ? { done, total } : {}) });
  }

  /** Rollouts of the budget left to new work: those spent and those of the batch in flight are taken. */
  budgetLeft(): number {
    return this.cfg.budget - this.state.rolloutsUsed - this.inFlight;
  }

  /** The run's training time so far, over all its invocations. */
  elapsedMs(): number {
    return performance.now() - this.started;
  }

  outOfTime(): boolean {
    return this.cfg.timeLimitMin > 0 && performance.now() - this.invoked > this.cfg.timeLimitMin * 60_000;
  }

  task(id: string): Task | undefined {
    return this.supply.task(id) ?? this.evalSupply.task(id);
  }

  private async context(task: Task): Promise<RolloutContext> {
    let built = this.builts.get(task.env.name);
    const env = this.deps.envs.get(task.env.name)!;
    if (!built) this.builts.set(task.env.name, (built = buildEnvironment(env, { dataDir: this.deps.dataDir, runtime: this.deps.runtime })));
    return { built: await built, runtime: this.deps.runtime, dataDir: this.deps.dataDir };
  }

  /** One rollout of a task by the current policy version; an infrastructure failure is retried once. The attempt is kept in the store. */
  readonly runOne = async (task: Task, seed: number, use: AttemptUse): Promise<Rollout<D>> => {
    let detail: AttemptDetail = {};
    let res: Rollout<D>;
    if (this.deps.queue) ({ res, detail } = await this.runQueued(this.deps.queue, task, seed));
    else {
      const ctx = { ...(await this.context(task)), reuse: this.reuse, keep: (d: AttemptDetail) => void (detail = d) };
      const policy = this.learner.policy();
      res = await rolloutWithRetry(task, (attempt) => policy.actor({ seed: deriveSeed(seed, attempt) }), ctx, policy.version);
    }
    if (this.attempts) {
      const heldOut = this.evalSupply.task(task.id) !== undefined;
      const dir = (heldOut ? this.evalSupply : this.supply).dir(task.id);
      keepAttempt(this.attempts, { run: this.deps.runName, task, heldOut, use, res, detail, dir });
    }
    return res;
  };

  private published?: { version: number; spec: Promise<ActorSpec> };

  /** The same rollout on a queue's worker, with the current policy version published for it; a failed job is an infrastructure failure. */
  private async runQueued(queue: JobQueue, task: Task, seed: number): Promise<{ res: Rollout<D>; detail: AttemptDetail }> {
    const version = this.learner.policy().version;
    if (this.published?.version !== version) this.published = { version, spec: Promise.resolve(this.learner.snapshot!()).then((s) => queue.policy(s)) };
    const got = await queue.rollout<D>(task, await this.published.spec, seed, { version, retrySeed: 'derived' });
    return { res: got.rollout, detail: got.detail };
  }

  /** The held-out solve rate of the current policy (the same seeds at every evaluation). */
  solveHeldOut(): Promise<SolveRate> {
    const step = this.state.step;
    return solveRate(
      this.state.evalIds,
      this.cfg,
      (id) => this.task(id),
      (task, seed) => this.runOne(task, seed, { kind: 'eval', step }),
      (done, total) => this.phase(this.state.step, 'held-out evaluation', done, total),
    );
  }

  /** Training tasks solved before this step tried again (cfg.forgetting of them); the point is kept in the state. */
  async checkForgetting(step: number): Promise<ForgettingPoint | null> {
    const point = await checkForgetting(
      this.state.solvedAt ?? {},
      step,
      this.state.rolloutsUsed,
      { k: this.cfg.forgetting, seed: this.cfg.seed, workers: this.cfg.workers },
      (id) => this.task(id),
      (task, seed) => this.runOne(task, seed, { kind: 'eval', step }),
    );
    if (point) (this.state.forgetting ??= []).push(point);
    return point;
  }

  /** The held-out tasks' mean figure (the learner's own estimate; undefined without figures or tasks). */
  async heldOutReach(): Promise<HeldOutReach | undefined> {
    if (!this.figures) return undefined;
    return this.figures.heldOut(this.state.evalIds.map((id) => this.task(id)).filter((t): t is Task => t !== undefined));
  }

  /** A held-out evaluation's point: kept in the state and announced. */
  recordHeldOut(step: number, solved: SolveRate, reach: HeldOutReach | undefined): void {
    const point: HeldOutPoint = {
      step,
      rollouts: this.state.rolloutsUsed,
      solveRate: solved.rate,
      solved: solved.solved,
      attempts: solved.attempts,
      ...(reach !== undefined ? { reach: reach.mean, reachByTask: reach.byTask } : {}),
    };
    this.state.heldOut.push(point);
    this.emit({ kind: 'eval', ...point });
    this.attempts?.runProgress(this.deps.runName, { step, rollouts: this.state.rolloutsUsed });
  }

  /** Saves the state after a finished step (atomically) and the learner's export. */
  persist(): void {
    const s = this.state;
    s.learner = { kind: this.learner.kind, state: this.learner.save() };
    s.pool = this.pool.toJSON();
    s.controller = this.controller.toJSON();
    s.used = [...this.used];
    s.predictor = this.difficulty.model.toJSON();
    s.greso = this.difficulty.greso.toJSON();
    s.elapsedMs = performance.now() - this.started;
    saveState(this.deps.runDir, s);
    this.learner.exportTo?.(this.deps.runDir);
    this.attempts?.runProgress(this.deps.runName, { step: s.step, rollouts: s.rolloutsUsed });
  }

  /** The run's invocation ended: the store says why. */
  finished(): void {
    this.attempts?.runProgress(this.deps.runName, { step: this.state.step, rollouts: this.state.rolloutsUsed }, this.state.stop ?? 'steps');
  }
}
