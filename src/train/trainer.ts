// The trainer: each step takes a batch of tasks from the curriculum, rolls
// out G attempts of each with the learner's current policy, grades them,
// scores each group's rollouts against each other, hands the groups to the
// learner, evaluates on held-out environments and checkpoints. Under the
// frontier curriculum TaskPilot restocks the pool alongside the rollouts.
// The trainer knows only the RL contract (rl/contract.ts): any learner fits.
import type { TrainConfig } from './config.js';
import { heldOutTasks } from './heldout.js';
import { TrainRun, type TrainDeps } from './run.js';
import type { RunState } from './state.js';
import { Step } from './step.js';
import { Stocker } from './stock.js';
import { mean } from '../curriculum/posterior.js';
import { knobKey } from '../curriculum/knobs.js';
import { taskKnobs } from './supply.js';

export type { TrainDeps, TrainEvent } from './run.js';
export type { GroupReason, StepMetrics } from './metrics.js';

export async function train<D>(cfg: TrainConfig, deps: TrainDeps<D>): Promise<RunState> {
  const run = new TrainRun(cfg, deps);
  const { state } = run;
  if (run.resumed) run.emit({ kind: 'resume', step: state.step, rollouts: state.rolloutsUsed });
  const stocker = await prepare(run);
  const firstStep = state.step + 1;
  state.stop = 'steps';
  while (state.step < cfg.steps) {
    if (cfg.budget - state.rolloutsUsed < 2) {
      state.stop = 'budget';
      break;
    }
    if (state.step >= firstStep && run.outOfTime()) {
      state.stop = 'time-limit';
      break;
    }
    if (run.deps.stopAsked?.()) {
      state.stop = 'interrupted';
      break;
    }
    const step = new Step(run, stocker, state.step + 1);
    await step.supplyTasks();
    if (!step.chooseBatch()) break;
    await step.rollOut();
    step.grade();
    step.computeAdvantages();
    await step.update();
    await step.evaluate();
    step.checkpoint();
  }
  // A run that ended between evaluations (no room for a group, nothing to train on): the final point is still measured.
  // An interrupted run stops as soon as it can: its next invocation measures.
  if (state.stop !== 'interrupted' && state.evalIds.length && state.step > 0 && state.heldOut.at(-1)?.step !== state.step) {
    run.recordHeldOut(state.step, await run.solveHeldOut(), await run.heldOutReach());
  }
  run.persist();
  run.finished();
  return state;
}

/** Before the first step: held-out tasks, the fixed task set (uniform, static), the resumed pool's figures, the untrained policy's held-out point. */
async function prepare<D>(run: TrainRun<D>): Promise<Stocker<D>> {
  const { cfg, state } = run;
  if (state.evalIds.length === 0 && cfg.evalTasks > 0) {
    state.evalIds = await heldOutTasks(cfg, run.evalSupply, (env) => run.phase(state.step, `held-out tasks: synthesizing for ${env}`));
  }
  if (run.resumed && cfg.curriculum === 'frontier' && run.figures) {
    const active = run.pool
      .all()
      .filter((e) => e.state === 'active')
      .map((e) => run.task(e.taskId))
      .filter((t) => t !== undefined);
    await run.figures.resume(active);
  }
  const stocker = new Stocker<D>({
    cfg,
    supply: run.supply,
    pool: run.pool,
    controller: run.controller,
    used: run.used,
    runOne: run.runOne,
    ...(run.figures ? { screen: (t) => run.figures!.screen(t) } : {}),
    difficulty: { ...run.difficulty, familyMean: (t) => mean(run.pool.families.prior(knobKey(taskKnobs(t)), run.state.step)) },
    spend: () => state.rolloutsUsed++,
    budgetLeft: () => run.budgetLeft(),
    phase: (step, text) => run.phase(step, text),
  });
  if (cfg.curriculum !== 'frontier' && state.fixedIds === null) {
    state.fixedIds = await stocker.fixedSet();
    // The static filter's probes come before any step's metrics: counted here.
    state.probeRollouts = (state.probeRollouts ?? 0) + stocker.yield.probeRollouts;
  }
  if (state.heldOut.length === 0 && state.evalIds.length) {
    run.recordHeldOut(0, await run.solveHeldOut(), await run.heldOutReach());
    run.persist();
  }
  return stocker;
}
