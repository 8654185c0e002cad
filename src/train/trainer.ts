// The trainer: each step takes a batch of tasks from the curriculum, runs G
// rollouts of each in parallel workspaces, turns the verifier's rewards into
// advantages (degenerate groups filtered and counted), updates the embedded
// policy, and checkpoints. Under the frontier curriculum TaskPilot keeps the
// pool stocked alongside: tasks are synthesized at the knobs the difficulty
// controller proposes, probed with the current policy, and admitted when the
// probe shows 0 < p < 1.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DifficultyController } from '../curriculum/controller.js';
import { knobKey } from '../curriculum/knobs.js';
import { TaskPool, type SampleReason } from '../curriculum/pool.js';
import { isSuccess } from '../curriculum/probe.js';
import { buildEnvironment, type BuiltEnv } from '../env/build.js';
import type { LoadedEnv } from '../env/load.js';
import { EmbeddedAgent, MAX_ATTEMPTS, type Opening } from '../policy/agent.js';
import { LinearPolicy } from '../policy/linear.js';
import type { Runtime } from '../runtime/types.js';
import type { Store } from '../store/store.js';
import type { Task } from '../task/task.js';
import { pool as inParallel } from '../util/pool.js';
import { deriveSeed, rng, shuffle } from '../util/rng.js';
import type { VerifierReport } from '../verifier/verify.js';
import { batchSize, learnableSlots, type TrainConfig } from './config.js';
import { Openings, patchedFile } from './reach.js';
import { rolloutWithRetry, work, type MoreRollouts, type RolloutResult } from './rollout.js';
import { loadState, saveState, type HeldOutPoint, type RunState } from './state.js';
import { TaskSupply, taskKnobs } from './supply.js';
import { TestRunCache } from './test-cache.js';
import { updatePolicy } from './update.js';
import { PassRateTracker } from './replay.js';
import { isDegenerate } from './advantages.js';
import { Stocker } from './stock.js';
import { extendAllFail } from './extend.js';
import { checkSize, settleReplays } from './regression.js';
import { heldOutTasks, reachOfHeldOut, solveRate, type HeldOutReach, type SolveRate } from './heldout.js';

export interface TrainDeps {
  envs: Map<string, LoadedEnv>;
  runtime: Runtime;
  dataDir: string;
  runDir: string;
  /** Where synthesized tasks are kept (shared by runs that should reuse them). */
  bankDir: string;
  runName: string;
  store?: Store;
  /** Shared across runs in one process (a benchmark), else made per run. */
  verdicts?: Map<string, VerifierReport>;
  testRuns?: TestRunCache;
  onEvent?: (e: TrainEvent) => void;
  /** Sees the groups each update learns from, before it (benchmarks that study the gradient: bench/real-gradients.ts). */
  onGroups?: (step: number, groups: RolloutResult[][], policy: LinearPolicy) => void;
}

export type TrainEvent =
  | { kind: 'phase'; step: number; phase: string; done?: number; total?: number; /** Rollouts spent so far, the running batch's finished ones included. */ rollouts?: number }
  | { kind: 'step'; metrics: StepMetrics }
  | ({ kind: 'eval' } & HeldOutPoint)
  | { kind: 'resume'; step: number; rollouts: number };

/** Why a group's task was in the batch: the frontier sampler's reason, the fixed set of uniform / static, or the fallback when nothing was admitted yet. */
export type GroupReason = SampleReason | 'fixed' | 'fallback';

export interface StepMetrics {
  step: number;
  curriculum: string;
  rollouts: number;
  meanReward: number;
  /** Groups of the sampled batch (replay checks that held are not groups); in-band probe groups also train (counted apart). */
  groups: number;
  /** Each sampled task: its id, why it was chosen (GroupReason), its passing / scored rollouts, the model's figure for it before them (replay.ts; absent when it has none), and `held` for a replay check that held (regression.ts). */
  batch: { taskId: string; reason: GroupReason; passed: number; scored: number; figure?: number; held?: true }[];
  /** Replays of retired tasks whose check held: every rollout of the probe's size passed, so no group was run (regression.ts). */
  heldChecks: number;
  probeGroups: number;
  /** Rollouts added to all-fail groups (--extend), in all. */
  extended: number;
  /** Active tasks whose posterior followed their figure after the update, and how many of them it retired (replay.ts). */
  reestimated: { moved: number; retired: number };
  nonDegenerate: number;
  nonDegenerateShare: number;
  infraFailures: number;
  /** Rollouts of the step (its groups and probes) judged tampering by the verifier: how often the policy tries to forge. */
  tampering: number;
  poolHistogram: number[];
  poolCounts: Record<string, number>;
  yield: { candidates: number; valid: number; probed: number; admitted: number; screened: number };
  knobs: Record<string, number>;
  heldOutSolveRate?: number;
  /** The held-out tasks' mean reach (heldout.ts): nearly free of sampling noise where the solve rate is a coarse sample; every step. */
  heldOutReach?: number;
  gradNorm: number;
  ms: { synthesis: number; probe: number; rollouts: number; update: number; eval: number };
  cache: { testHits: number; testMisses: number };
}

const EVAL_SEED = 7;

/** The sampled batch's mean reward (infrastructure failures left out) and infrastructure failures. */
function batchStats(groups: RolloutResult[][]): { meanReward: number; infraFailures: number } {
  const all = groups.flat().map((r) => r.reward);
  const rewards = all.filter((r): r is number => r !== null);
  return { meanReward: rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : 0, infraFailures: all.length - rewards.length };
}

/** Groups with mixed rewards. */
const nonDegenerateCount = (groups: RolloutResult[][]): number => groups.filter((rs) => !isDegenerate(rs.map((r) => r.reward))).length;

function groupSummary(taskId: string, reason: GroupReason, rs: RolloutResult[], figure: number | null, heldCheck: boolean): StepMetrics['batch'][number] {
  const scored = rs.filter((r) => r.reward !== null);
  return { taskId, reason, passed: scored.filter((r) => isSuccess(r.reward)).length, scored: scored.length, ...(figure !== null ? { figure } : {}), ...(heldCheck ? { held: true } : {}) };
}

export async function train(cfg: TrainConfig, given: TrainDeps): Promise<RunState> {
  // Workspaces keep git directories by absolute path: a relative data directory would break them.
  const deps: TrainDeps = { ...given, dataDir: resolve(given.dataDir), runDir: resolve(given.runDir), bankDir: resolve(given.bankDir) };
  const onEvent = deps.onEvent ?? (() => {});
  const supply = new TaskSupply(deps.envs, { bankDir: deps.bankDir, dataDir: deps.dataDir, runtime: deps.runtime, seed: cfg.seed, families: cfg.families });
  const evalSupply = new TaskSupply(deps.envs, { bankDir: join(deps.bankDir, 'held-out'), dataDir: deps.dataDir, runtime: deps.runtime, seed: EVAL_SEED });
  const verdicts = deps.verdicts ?? new Map<string, VerifierReport>();
  const testRuns = deps.testRuns ?? new TestRunCache();
  const builts = new Map<string, Promise<BuiltEnv>>();
  const builtFor = (name: string) => {
    let b = builts.get(name);
    if (!b) builts.set(name, (b = buildEnvironment(deps.envs.get(name)!, { dataDir: deps.dataDir, runtime: deps.runtime })));
    return b;
  };
  for (const name of [...cfg.envs, ...cfg.heldOut]) if (!deps.envs.has(name)) throw new Error(`unknown environment "${name}"`);
  mkdirSync(deps.runDir, { recursive: true });

  const saved = loadState(deps.runDir);
  const policy = saved ? LinearPolicy.fromJSON(saved.policy) : new LinearPolicy();
  const taskPool = saved ? TaskPool.fromJSON(saved.pool) : new TaskPool();
  const controller = saved?.controller ? DifficultyController.fromJSON(saved.controller as never) : new DifficultyController({ target: cfg.target });
  const used = new Set(saved?.used ?? []);
  const state: RunState = saved ?? {
    schema: 'frognano.train-state/v1', config: cfg, step: 0, rolloutsUsed: 0, elapsedMs: 0, policy: policy.toJSON(), pool: taskPool.toJSON(),
    controller: controller.toJSON(), used: [], evalIds: [], fixedIds: null, heldOut: [], groups: { total: 0, degenerate: 0 },
  };
  state.config = cfg; // a resumed run may go further (steps, budget, time limit); the rest matches (cli/train.ts)
  let batchDone = 0; // rollouts of the running batch that finished (counted into the state when it ends)
  const emit = (e: TrainEvent) => onEvent(e.kind === 'phase' ? { ...e, rollouts: state.rolloutsUsed + batchDone } : e);
  if (saved) emit({ kind: 'resume', step: saved.step, rollouts: saved.rolloutsUsed });
  const started = performance.now() - state.elapsedMs;
  // The time limit counts from here, per invocation, and each invocation
  // makes at least one step, so a run it stopped always goes further when rerun.
  const invoked = performance.now();
  const taskOf = (id: string) => supply.task(id) ?? evalSupply.task(id);

  /** One rollout of a task with the current policy; infra failures retried once. */
  const runOne = async (task: Task, seed: number, greedy = false): Promise<RolloutResult> => {
    const built = await builtFor(task.env.name);
    const newAgent = (attempt: number) => new EmbeddedAgent(policy, { seed: deriveSeed(seed, attempt), greedy });
    return rolloutWithRetry(task, newAgent, { built, runtime: deps.runtime, dataDir: deps.dataDir, verdicts, testRuns });
  };

  // Held-out tasks: the same for every run and curriculum (fixed seed, shared bank).
  if (state.evalIds.length === 0 && cfg.evalTasks > 0) {
    state.evalIds = await heldOutTasks(cfg, evalSupply, (env) => emit({ kind: 'phase', step: state.step, phase: `held-out tasks: synthesizing for ${env}` }));
  }
  const evaluate = () =>
    solveRate(state.evalIds, cfg, taskOf, runOne, (done, total) => emit({ kind: 'phase', step: state.step, phase: 'held-out evaluation', done, total }));

  /** A single-bug task's opening: the agent's test run and reads up to its first choice (null when it cannot be told). */
  const openingOf = async (task: Task): Promise<Opening | null> => {
    // Several bugs take several repairs: the first choice says too little.
    if (task.knobs.bugs !== 1 || !patchedFile(task.fixPatch)) return null;
    const agent = new EmbeddedAgent(policy, { seed: deriveSeed(cfg.seed, 'screen', task.id), openingOnly: true });
    try {
      await work(task, agent, { built: await builtFor(task.env.name), runtime: deps.runtime, dataDir: deps.dataDir, testRuns });
    } catch {
      return null; // a probe or evaluation will meet the same trouble and count it
    }
    return agent.opening;
  };
  // Training tasks' openings, from their screens. Under --track all the
  // tracker re-reads their reach after every update (a softmax each), so
  // they are kept; otherwise each is dropped once screened.
  const openings = new Openings(cfg.seed, MAX_ATTEMPTS);
  const passRates = new PassRateTracker(policy, cfg.track, (id) => openings.reach(policy, id));
  /** A new task's reach for the current policy: its opening replayed up to the first choice (reach.ts). */
  const screen = async (task: Task): Promise<number | null> => {
    if (!openings.keep(task.id, task.fixPatch, await openingOf(task))) return null;
    const reach = openings.reach(policy, task.id);
    if (!passRates.readsEstimates) openings.drop(task.id);
    return reach;
  };
  const heldOutReach = reachOfHeldOut(() => state.evalIds.map(taskOf).filter((t): t is Task => t !== undefined), openingOf, cfg.workers, policy, EVAL_SEED);

  if (saved && cfg.curriculum === 'frontier' && passRates.readsEstimates) {
    // Resumed: the active tasks' openings again (they do not depend on the
    // weights), anchored at the saved weights as an unbroken run's would be.
    const active = taskPool.all().filter((e) => e.state === 'active').map((e) => taskOf(e.taskId)).filter((t): t is Task => t !== undefined);
    await inParallel(active, cfg.workers, async (t) => void openings.keep(t.id, t.fixPatch, await openingOf(t)));
    passRates.anchor(active.map((t) => t.id));
  }
  let inFlight = 0; // rollouts of the batch now running (counted when it ends)
  const stocker = new Stocker({
    cfg, supply, pool: taskPool, controller, used, runOne, screen,
    spend: () => state.rolloutsUsed++,
    budgetLeft: () => cfg.budget - state.rolloutsUsed - inFlight,
    phase: (step, text) => emit({ kind: 'phase', step, phase: text }),
  });
  if (cfg.curriculum !== 'frontier' && state.fixedIds === null) state.fixedIds = await stocker.fixedSet();

  /** A held-out evaluation's point: kept in the state and announced. */
  const recordHeldOut = (step: number, solved: SolveRate, reach: HeldOutReach | undefined): void => {
    const point: HeldOutPoint = {
      step, rollouts: state.rolloutsUsed, solveRate: solved.rate, solved: solved.solved, attempts: solved.attempts,
      ...(reach !== undefined ? { reach: reach.mean, reachByTask: reach.byTask } : {}),
    };
    state.heldOut.push(point);
    emit({ kind: 'eval', ...point });
  };

  if (state.heldOut.length === 0 && state.evalIds.length) {
    const rate = await evaluate();
    recordHeldOut(0, rate, await heldOutReach());
    persist();
  }

  function persist(): void {
    state.policy = policy.toJSON();
    state.pool = taskPool.toJSON();
    state.controller = controller.toJSON();
    state.used = [...used];
    state.elapsedMs = performance.now() - started;
    saveState(deps.runDir, state);
    policy.save(join(deps.runDir, 'policy.json'));
  }

  const metricsPath = join(deps.runDir, 'metrics.jsonl');
  const firstStep = state.step + 1;
  const outOfTime = () => cfg.timeLimitMin > 0 && performance.now() - invoked > cfg.timeLimitMin * 60_000;
  state.stop = 'steps';
  while (state.step < cfg.steps) {
    if (cfg.budget - state.rolloutsUsed < 2) { state.stop = 'budget'; break; }
    if (state.step >= firstStep && outOfTime()) { state.stop = 'time-limit'; break; }
    const step = state.step + 1;
    const random = rng(deriveSeed(cfg.seed, 'step', step));
    const ms = { synthesis: 0, probe: 0, rollouts: 0, update: 0, eval: 0 };
    stocker.reset();
    const hits0 = testRuns.hits, misses0 = testRuns.misses;

    let batch: string[];
    const reasons = new Map<string, GroupReason>();
    let alongside: Promise<void> = Promise.resolve();
    const t0 = performance.now();
    // Only when the pool has nothing to train on does training wait for synthesis.
    if (cfg.curriculum === 'frontier' && taskPool.counts().active < 1) await stocker.stock(step, random);
    const left = cfg.budget - state.rolloutsUsed;
    if (left < 2) { state.stop = 'budget'; break; } // one rollout is no group: the budget is spent
    const size = batchSize(cfg, left);
    if (cfg.curriculum === 'frontier') {
      const sampled = taskPool.sample(size, step, random);
      for (const s of sampled) reasons.set(s.taskId, s.reason);
      batch = sampled.map((s) => s.taskId);
    } else {
      const ids = state.fixedIds ?? [];
      batch = shuffle(ids, random).slice(0, size);
      for (const id of batch) {
        reasons.set(id, 'fixed');
        if (!taskPool.get(id)) taskPool.add({ taskId: id, env: taskOf(id)!.env.name, familyKey: knobKey(taskKnobs(taskOf(id)!)), addedStep: step, state: 'active' });
      }
    }
    if (batch.length === 0) {
      // Nothing admitted this far (an untrained policy fails most tasks): train on any probed task.
      batch = taskPool.sampleUniform(size, random, step, ['active', 'retired', 'rejected']).map((s) => s.taskId);
      for (const id of batch) reasons.set(id, 'fallback');
      if (batch.length === 0) { state.stop = 'no-tasks'; break; }
    }
    // batchSize keeps this at 2 or more: size tasks fit full groups, or one task takes what is left.
    const group = Math.min(cfg.group, Math.floor(left / batch.length));
    ms.synthesis = performance.now() - t0;
    if (cfg.curriculum === 'frontier') {
      // TaskPilot and the probes restock the pool while this step's rollouts run.
      inFlight = batch.length * group; // restocking must leave room for them
      const t0b = performance.now();
      alongside = stocker.stock(step, rng(deriveSeed(cfg.seed, 'stock', step))).then(() => {
        ms.synthesis += performance.now() - t0b;
      });
    }
    const figures = new Map(batch.map((id) => [id, passRates.figure(id)]));

    // Rollouts: every task's group in parallel workspaces.
    const t1 = performance.now();
    const results = new Map<string, RolloutResult[]>(batch.map((id) => [id, []]));
    // A replayed retired task starts as a check of the probe's size (regression.ts).
    const jobs = batch.flatMap((id) => Array.from({ length: reasons.get(id) === 'replay' ? checkSize(cfg.probe, group) : group }, (_, g) => ({ id, g })));
    let done = 0;
    inFlight = jobs.length;
    await inParallel(jobs, cfg.workers, async ({ id, g }) => {
      const res = await runOne(taskOf(id)!, deriveSeed(cfg.seed, 'rollout', step, id, g));
      results.get(id)!.push(res);
      batchDone = ++done;
      emit({ kind: 'phase', step, phase: 'rollouts', done, total: jobs.length });
    });
    state.rolloutsUsed += jobs.length;
    batchDone = 0;
    inFlight = 0;
    const more: MoreRollouts = {
      workers: cfg.workers, budgetLeft: () => cfg.budget - state.rolloutsUsed, spend: () => void state.rolloutsUsed++,
      run: (id, i) => runOne(taskOf(id)!, deriveSeed(cfg.seed, 'rollout', step, id, i)),
    };
    // Replay checks that held end there; the others become full groups.
    const heldChecks = await settleReplays(results, batch.filter((id) => reasons.get(id) === 'replay'), { ...more, group });
    const groupIds = batch.filter((id) => !heldChecks.has(id));
    const groupsOf = (ids: string[]) => ids.map((id) => results.get(id)!);
    // All-fail groups gain rollouts until one passes (extend.ts; off by default).
    const extended = cfg.extend > 0
      ? await extendAllFail(new Map(groupIds.map((id) => [id, results.get(id)!])), { ...more, max: cfg.extend })
      : new Map<string, number>();
    ms.rollouts = performance.now() - t1;
    await alongside;
    ms.probe = stocker.probeMs;
    ms.synthesis -= stocker.probeMs;

    // Posteriors take the groups' results; then the update. The controller
    // learns from admission probes only: it sets the knobs of new tasks, and a
    // training group is a task chosen for its pass rate and then trained on:
    // the all-pass group of a task the policy has just learned raised the
    // level by 0.75 rungs, though new tasks there were no easier.
    const t2 = performance.now();
    for (const [id, rs] of results) taskPool.record(id, rs.map((r) => r.reward), step);
    // The step's groups, and the groups of admission probes that found tasks in band (same policy, mixed rewards).
    const probeGroups = stocker.takeGroups();
    const trained = [...groupsOf(groupIds), ...probeGroups];
    if (cfg.curriculum === 'frontier') passRates.observe(trained);
    deps.onGroups?.(step, trained, policy);
    const gradNorm = updatePolicy(policy, trained, cfg.advantage, cfg.lr, cfg.credit, cfg.epochs, learnableSlots(cfg.learn));
    // Tracked active tasks: their posteriors move by what their figures say the update changed (replay.ts).
    const reestimated = passRates.follow(taskPool, new Set(trained.map((g) => g[0]?.taskId).filter((id): id is string => id !== undefined)));
    // Batch figures are about the sampled batch (probe groups are mixed by
    // construction); checks that held are not groups.
    const batchFigures = batchStats([...results.values()]);
    const nonDegenerate = nonDegenerateCount(groupsOf(groupIds));
    const tampering = [...results.values(), ...probeGroups].flat().filter((r) => r.verdict === 'tampering').length;
    state.tampering = (state.tampering ?? 0) + tampering;
    state.groups.total += groupIds.length;
    state.groups.degenerate += groupIds.length - nonDegenerate;
    state.groups.heldChecks = (state.groups.heldChecks ?? 0) + heldChecks.size;
    ms.update = performance.now() - t2;

    state.step = step;
    let heldOut: SolveRate | undefined;
    const t3 = performance.now();
    const reach = await heldOutReach(); // undefined without held-out tasks
    ms.eval += performance.now() - t3;
    const last = state.step >= cfg.steps || cfg.budget - state.rolloutsUsed < 2 || outOfTime();
    if (state.evalIds.length && (step % cfg.evalEvery === 0 || last)) {
      const t4 = performance.now();
      heldOut = await evaluate();
      recordHeldOut(step, heldOut, reach);
      ms.eval += performance.now() - t4;
    }
    const levels: Record<string, number> = {};
    for (const env of cfg.envs) levels[env] = Math.round(controller.level(env) * 100) / 100;
    const metrics: StepMetrics = {
      step, curriculum: cfg.curriculum, rollouts: state.rolloutsUsed, meanReward: batchFigures.meanReward,
      groups: groupIds.length, batch: batch.map((id) => groupSummary(id, reasons.get(id)!, results.get(id)!, figures.get(id) ?? null, heldChecks.has(id))), nonDegenerate, nonDegenerateShare: groupIds.length ? nonDegenerate / groupIds.length : 1,
      heldChecks: heldChecks.size, probeGroups: probeGroups.length, extended: [...extended.values()].reduce((a, b) => a + b, 0), reestimated, infraFailures: batchFigures.infraFailures, tampering,
      poolHistogram: taskPool.histogram(), poolCounts: taskPool.counts(), yield: { ...stocker.yield }, knobs: levels,
      ...(heldOut !== undefined ? { heldOutSolveRate: heldOut.rate } : {}), ...(reach !== undefined ? { heldOutReach: reach.mean } : {}),
      gradNorm, ms: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Math.round(v)])) as StepMetrics['ms'],
      cache: { testHits: testRuns.hits - hits0, testMisses: testRuns.misses - misses0 },
    };
    appendFileSync(metricsPath, `${JSON.stringify(metrics)}\n`);
    deps.store?.addTrainMetrics(deps.runName, step, metrics);
    persist();
    emit({ kind: 'step', metrics });
  }
  // A run that ended between evaluations (its last step found no room for a
  // group, or nothing to train on): the final point is still measured.
  if (state.evalIds.length && state.step > 0 && state.heldOut.at(-1)?.step !== state.step) {
    recordHeldOut(state.step, await evaluate(), await heldOutReach());
  }
  persist();
  return state;
}
