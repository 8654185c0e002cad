// The trainer: each step takes a batch of tasks from the curriculum, runs G
// rollouts of each in parallel workspaces, turns the verifier's rewards into
// advantages (degenerate groups filtered and counted), updates the embedded
// policy, and checkpoints. Under the frontier curriculum TaskPilot keeps the
// pool stocked alongside: tasks are synthesized at the knobs the difficulty
// controller proposes, probed with the current policy, and admitted when the
// probe shows 0 < p < 1.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DifficultyController } from '../curriculum/controller.js';
import { knobKey, LADDER, OPERATOR_FAMILIES, type Knobs } from '../curriculum/knobs.js';
import { mean } from '../curriculum/posterior.js';
import { TaskPool } from '../curriculum/pool.js';
import { Probe } from '../curriculum/probe.js';
import { buildEnvironment, type BuiltEnv } from '../env/build.js';
import type { LoadedEnv } from '../env/load.js';
import { EmbeddedAgent } from '../policy/agent.js';
import { FEATURE_DIM } from '../policy/features.js';
import { LinearPolicy } from '../policy/linear.js';
import type { Runtime } from '../runtime/types.js';
import type { Store } from '../store/store.js';
import type { Task } from '../task/task.js';
import { pool as inParallel } from '../util/pool.js';
import { deriveSeed, rng } from '../util/rng.js';
import type { VerifierReport } from '../verifier/verify.js';
import { advantages, isDegenerate } from './advantages.js';
import type { TrainConfig } from './config.js';
import { rollout, type RolloutResult } from './rollout.js';
import { loadState, saveState, type RunState } from './state.js';
import { TaskSupply, taskKnobs } from './supply.js';
import { TestRunCache } from './test-cache.js';

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
}

export type TrainEvent =
  | { kind: 'phase'; step: number; phase: string; done?: number; total?: number }
  | { kind: 'step'; metrics: StepMetrics }
  | { kind: 'eval'; step: number; rollouts: number; solveRate: number }
  | { kind: 'resume'; step: number; rollouts: number };

export interface StepMetrics {
  step: number;
  curriculum: string;
  rollouts: number;
  meanReward: number;
  groups: number;
  nonDegenerate: number;
  nonDegenerateShare: number;
  infraFailures: number;
  poolHistogram: number[];
  poolCounts: Record<string, number>;
  yield: { candidates: number; valid: number; probed: number; admitted: number };
  knobs: Record<string, number>;
  heldOutSolveRate?: number;
  gradNorm: number;
  ms: { synthesis: number; probe: number; rollouts: number; update: number; eval: number };
  cache: { testHits: number; testMisses: number };
}

const EVAL_SEED = 7;

export async function train(cfg: TrainConfig, deps: TrainDeps): Promise<RunState> {
  const emit = deps.onEvent ?? (() => {});
  const supply = new TaskSupply(deps.envs, { bankDir: deps.bankDir, dataDir: deps.dataDir, runtime: deps.runtime, seed: cfg.seed });
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
  if (saved) emit({ kind: 'resume', step: saved.step, rollouts: saved.rolloutsUsed });
  const started = performance.now() - state.elapsedMs;
  const tasks = new Map<string, Task>();
  const taskOf = (id: string) => tasks.get(id) ?? supply.task(id) ?? evalSupply.task(id);

  /** One rollout of a task with the current policy; infra failures retried once. */
  const runOne = async (task: Task, seed: number, greedy = false): Promise<RolloutResult> => {
    const built = await builtFor(task.env.name);
    let res: RolloutResult | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const agent = new EmbeddedAgent(policy, { seed: deriveSeed(seed, attempt), greedy });
      res = await rollout(task, agent, { built, runtime: deps.runtime, dataDir: deps.dataDir, verdicts, testRuns });
      if (res.reward !== null) break;
    }
    return res!;
  };

  // Held-out tasks: the same for every run and curriculum (fixed seed, shared bank).
  if (state.evalIds.length === 0 && cfg.evalTasks > 0) {
    for (const env of cfg.heldOut) {
      // Single bugs of the operation family, visible tests: what a policy of this design can learn to fix.
      emit({ kind: 'phase', step: state.step, phase: `held-out tasks: synthesizing for ${env}` });
      const got = await evalSupply.take(env, { bugs: 1, hint: 'full', visibility: 'visible', family: 'operations' }, cfg.evalTasks, new Set());
      state.evalIds.push(...got.map((t) => t.id));
    }
  }

  const evaluate = async (): Promise<number> => {
    const jobs = state.evalIds.flatMap((id) => Array.from({ length: cfg.evalRollouts }, (_, r) => ({ id, r })));
    let sum = 0, n = 0, done = 0;
    await inParallel(jobs, cfg.workers, async ({ id, r }) => {
      const task = taskOf(id);
      if (!task) return;
      const res = await runOne(task, deriveSeed('eval', id, r));
      if (res.reward !== null) { sum += res.reward; n++; }
      emit({ kind: 'phase', step: state.step, phase: 'held-out evaluation', done: ++done, total: jobs.length });
    });
    return n ? sum / n : 0;
  };

  /** Admission probe: up to k rollouts, stopping once both outcomes are seen. */
  const probe = async (task: Task, step: number) => {
    const p = new Probe(cfg.probe);
    const rewards: number[] = [];
    for (let i = 0; !p.done && i < cfg.probe * 2; i++) {
      const res = await runOne(task, deriveSeed(cfg.seed, 'probe', task.id, i));
      state.rolloutsUsed++;
      p.add(res.reward);
      if (res.reward !== null) rewards.push(res.reward);
    }
    const verdict = p.verdict ?? 'too-hard';
    const entry = { taskId: task.id, env: task.env.name, familyKey: knobKey(taskKnobs(task)), addedStep: step };
    taskPool.add({ ...entry, state: verdict === 'admit' ? 'active' : verdict === 'too-easy' ? 'retired' : 'rejected' });
    taskPool.record(task.id, rewards, step);
    controller.update(task.env.name, { successes: p.successes, failures: p.failures, family: taskKnobs(task).family });
    return verdict;
  };

  const yieldNow = { candidates: 0, valid: 0, probed: 0, admitted: 0 };
  let probeMs = 0;
  /** Frontier: synthesize at the controller's knobs and probe until the pool holds enough active tasks. */
  const stockPool = async (step: number, random: () => number) => {
    let tries = 0;
    // Enough active tasks for a batch whatever it takes (bounded); beyond that,
    // a few fresh tasks per step toward poolTarget, so probing never crowds out training.
    const wanted = () => {
      const active = taskPool.counts().active;
      return active < cfg.batch ? tries < 3 * cfg.envs.length : active < cfg.poolTarget && tries < Math.ceil(cfg.batch / 2);
    };
    while (wanted() && state.rolloutsUsed < cfg.budget) {
      tries++;
      const env = cfg.envs[(step * 3 + tries) % cfg.envs.length]!;
      const knobs = controller.propose(env, random);
      emit({ kind: 'phase', step, phase: `synthesizing ${env} at ${knobKey(knobs)}` });
      const before = { ...supply.yield };
      const fresh = await supply.take(env, knobs, 2, used);
      yieldNow.candidates += supply.yield.candidates - before.candidates;
      yieldNow.valid += supply.yield.valid - before.valid;
      for (const t of fresh) used.add(t.id);
      const t0 = performance.now();
      await inParallel(fresh, cfg.workers, async (t) => {
        emit({ kind: 'phase', step, phase: `probing ${t.id}` });
        yieldNow.probed++;
        if ((await probe(t, step)) === 'admit') yieldNow.admitted++;
      });
      probeMs += performance.now() - t0;
    }
  };

  /** Uniform and static: a fixed set of tasks at uniformly random knobs, made once. */
  if (cfg.curriculum !== 'frontier' && state.fixedIds === null) {
    const random = rng(deriveSeed(cfg.seed, 'fixed'));
    const ids: string[] = [];
    for (const env of cfg.envs) {
      for (let i = 0; i < cfg.initialTasks; i++) {
        const rung = LADDER[Math.floor(random() * LADDER.length)]!;
        const knobs: Knobs = { ...rung, family: OPERATOR_FAMILIES[Math.floor(random() * OPERATOR_FAMILIES.length)]! };
        emit({ kind: 'phase', step: 0, phase: `synthesizing ${env} at ${knobKey(knobs)}` });
        for (const t of await supply.take(env, knobs, 1, used)) { used.add(t.id); ids.push(t.id); }
      }
    }
    if (cfg.curriculum === 'static') {
      // Filtered once against the initial checkpoint: only tasks it solves sometimes stay.
      const kept: string[] = [];
      await inParallel(ids, cfg.workers, async (id) => {
        emit({ kind: 'phase', step: 0, phase: `static filter: probing ${id}` });
        if ((await probe(supply.task(id)!, 0)) === 'admit') kept.push(id);
      });
      state.fixedIds = kept.sort();
    } else state.fixedIds = ids;
  }

  if (state.heldOut.length === 0 && state.evalIds.length) {
    const t0 = performance.now();
    const rate = await evaluate();
    state.heldOut.push({ step: 0, rollouts: state.rolloutsUsed, solveRate: rate });
    emit({ kind: 'eval', step: 0, rollouts: state.rolloutsUsed, solveRate: rate });
    void t0;
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
  while (state.step < cfg.steps && state.rolloutsUsed < cfg.budget) {
    if (cfg.timeLimitMin > 0 && performance.now() - started > cfg.timeLimitMin * 60_000) break;
    const step = state.step + 1;
    const random = rng(deriveSeed(cfg.seed, 'step', step));
    const ms = { synthesis: 0, probe: 0, rollouts: 0, update: 0, eval: 0 };
    Object.assign(yieldNow, { candidates: 0, valid: 0, probed: 0, admitted: 0 });
    probeMs = 0;
    const hits0 = testRuns.hits, misses0 = testRuns.misses;

    // The batch.
    let batch: string[];
    let alongside: Promise<void> = Promise.resolve();
    if (cfg.curriculum === 'frontier') {
      // Only when the pool cannot fill a batch does training wait for synthesis;
      // otherwise TaskPilot and the probes restock it while this step's rollouts run.
      const t0 = performance.now();
      if (taskPool.counts().active < cfg.batch) await stockPool(step, random);
      batch = taskPool.sample(cfg.batch, step, random).map((s) => s.taskId);
      const t0b = performance.now();
      ms.synthesis = t0b - t0;
      alongside = stockPool(step, rng(deriveSeed(cfg.seed, 'stock', step))).then(() => {
        ms.synthesis += performance.now() - t0b;
      });
    } else {
      const ids = state.fixedIds ?? [];
      batch = [...ids].sort(() => random() - 0.5).slice(0, cfg.batch);
      for (const id of batch) if (!taskPool.get(id)) taskPool.add({ taskId: id, env: taskOf(id)!.env.name, familyKey: knobKey(taskKnobs(taskOf(id)!)), addedStep: step, state: 'active' });
    }
    if (batch.length === 0) {
      // Nothing admitted this far (an untrained policy fails most tasks): train on any probed task.
      batch = taskPool.sampleUniform(cfg.batch, random, step, ['active', 'retired', 'rejected']).map((s) => s.taskId);
      if (batch.length === 0) break;
    }
    const left = cfg.budget - state.rolloutsUsed;
    const group = Math.max(2, Math.min(cfg.group, Math.floor(left / batch.length)));

    // Rollouts: every task's group in parallel workspaces.
    const t1 = performance.now();
    const results = new Map<string, RolloutResult[]>(batch.map((id) => [id, []]));
    const jobs = batch.flatMap((id) => Array.from({ length: group }, (_, g) => ({ id, g })));
    let done = 0;
    await inParallel(jobs, cfg.workers, async ({ id, g }) => {
      const res = await runOne(taskOf(id)!, deriveSeed(cfg.seed, 'rollout', step, id, g));
      results.get(id)!.push(res);
      emit({ kind: 'phase', step, phase: 'rollouts', done: ++done, total: jobs.length });
    });
    state.rolloutsUsed += jobs.length;
    ms.rollouts = performance.now() - t1;
    await alongside;
    ms.probe = probeMs;
    ms.synthesis -= probeMs;

    // Advantages, degenerate groups, the update.
    const t2 = performance.now();
    const grad = new Float64Array(FEATURE_DIM);
    let nonDegenerate = 0, infra = 0, rewardSum = 0, rewardN = 0, contributing = 0;
    const scaled: [RolloutResult, number][] = [];
    for (const [id, rs] of results) {
      const rewards = rs.map((r) => r.reward);
      infra += rewards.filter((r) => r === null).length;
      for (const r of rewards) if (r !== null) { rewardSum += r; rewardN++; }
      taskPool.record(id, rewards, step);
      const valid = rewards.filter((r): r is number => r !== null);
      if (cfg.curriculum === 'frontier') controller.update(taskOf(id)!.env.name, { successes: valid.filter((r) => r > 0.5).length, failures: valid.filter((r) => r <= 0.5).length, family: taskKnobs(taskOf(id)!).family });
      if (isDegenerate(rewards)) continue;
      nonDegenerate++;
      advantages(rewards, cfg.advantage).forEach((a, i) => { if (a) scaled.push([rs[i]!, a]); });
    }
    for (const [r, a] of scaled) {
      if (r.decisions.length) contributing++;
      for (const d of r.decisions) policy.accumulate(d, a, grad);
    }
    const total = jobs.length || 1;
    for (let i = 0; i < grad.length; i++) grad[i]! /= total;
    const gradNorm = scaled.length ? policy.update(grad, cfg.lr) : 0;
    void contributing;
    state.groups.total += batch.length;
    state.groups.degenerate += batch.length - nonDegenerate;
    ms.update = performance.now() - t2;

    state.step = step;
    let heldOutSolveRate: number | undefined;
    const last = state.step >= cfg.steps || state.rolloutsUsed >= cfg.budget || (cfg.timeLimitMin > 0 && performance.now() - started > cfg.timeLimitMin * 60_000);
    if (state.evalIds.length && (step % cfg.evalEvery === 0 || last)) {
      const t3 = performance.now();
      heldOutSolveRate = await evaluate();
      state.heldOut.push({ step, rollouts: state.rolloutsUsed, solveRate: heldOutSolveRate });
      emit({ kind: 'eval', step, rollouts: state.rolloutsUsed, solveRate: heldOutSolveRate });
      ms.eval = performance.now() - t3;
    }
    const levels: Record<string, number> = {};
    for (const env of cfg.envs) levels[env] = Math.round(controller.level(env) * 100) / 100;
    const metrics: StepMetrics = {
      step, curriculum: cfg.curriculum, rollouts: state.rolloutsUsed, meanReward: rewardN ? rewardSum / rewardN : 0,
      groups: batch.length, nonDegenerate, nonDegenerateShare: nonDegenerate / batch.length, infraFailures: infra,
      poolHistogram: taskPool.histogram(), poolCounts: taskPool.counts(), yield: { ...yieldNow }, knobs: levels,
      ...(heldOutSolveRate !== undefined ? { heldOutSolveRate } : {}),
      gradNorm, ms: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Math.round(v)])) as StepMetrics['ms'],
      cache: { testHits: testRuns.hits - hits0, testMisses: testRuns.misses - misses0 },
    };
    appendFileSync(metricsPath, `${JSON.stringify(metrics)}\n`);
    deps.store?.addTrainMetrics(deps.runName, step, metrics);
    persist();
    emit({ kind: 'step', metrics });
  }
  persist();
  void mean;
  return state;
}
