import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heldOutLines, poolWords, PROGRESS_WIDTH, progressLine, stopLine } from '../../src/cli/train-report.js';
import { RunClock } from '../../src/cli/run-clock.js';
import { TRAIN_DEFAULTS, type TrainConfig } from '../../src/train/config.js';
import type { HeldOutPoint, RunState } from '../../src/train/state.js';
import { runState } from '../helpers/run-state.js';

const CFG: TrainConfig = { ...TRAIN_DEFAULTS, steps: 20, budget: 300, timeLimitMin: 11, heldOut: ['md-tokens'] };

function run(fields: Partial<RunState>): RunState {
  return runState(CFG, { step: 7, rolloutsUsed: 180, elapsedMs: 11.5 * 60_000, ...fields });
}

const tasks = Array.from({ length: 12 }, (_, i) => `t${i}`);
const point = (step: number, solved: number, reach: (i: number) => number): HeldOutPoint => {
  const byTask = Object.fromEntries(tasks.map((id, i) => [id, reach(i)]));
  const values = Object.values(byTask);
  return {
    step,
    rollouts: step * 20,
    solveRate: solved / 12,
    solved,
    attempts: 12,
    reach: values.reduce((a, b) => a + b, 0) / values.length,
    reachByTask: byTask,
  };
};

describe('train: what the summary says', () => {
  it('names why the run stopped and how to go on', () => {
    assert.match(
      stopLine(run({ stop: 'time-limit' }), CFG),
      /stopped by the time limit \(--time-limit 11 min\) after 7 steps of 20, 180 of 300 rollouts: run the same command again to continue/,
    );
    assert.match(stopLine(run({ stop: 'budget', step: 1 }), CFG), /rollout budget is spent \(after 1 step of 20.*larger --budget/);
    assert.match(stopLine(run({ stop: 'steps', step: 20 }), CFG), /finished all 20 steps/);
    assert.match(stopLine(run({ stop: 'no-tasks' }), CFG), /no task to train on/);
  });

  it('prints held-out rates with counts and intervals, and says learning is shown only when the paired interval is above 0', () => {
    const up = heldOutLines(run({ stop: 'time-limit', heldOut: [point(0, 1, (i) => 0.05 + 0.01 * i), point(7, 3, (i) => 0.12 + 0.01 * i)] }), CFG);
    assert.match(up[0]!, /8\.3% \(1\/12\) untrained -> 25\.0% \(3\/12\) trained \(95% intervals 1\.5% to 35\.4% and 8\.9% to 53\.2%\)/);
    assert.match(up[1]!, /\+7\.0 points \(95% interval \+7\.0 to \+7\.0, paired over 12 tasks\): learning shown/);
    const flat = heldOutLines(run({ stop: 'time-limit', heldOut: [point(0, 1, (i) => 0.1 * (i % 3)), point(1, 1, (i) => 0.1 * ((i + 1) % 3))] }), CFG);
    assert.match(flat[1]!, /no gain shown yet: it ran out of time after 7 steps; rerun to continue/);
    const none = heldOutLines(run({ heldOut: [point(0, 1, () => 0.1)] }), CFG);
    assert.match(none[1]!, /no training step finished/);
  });

  it('says how far past the time limit the run went, and that an interrupted run keeps every finished step', () => {
    assert.match(
      stopLine(run({ stop: 'time-limit' }), CFG, 14.9 * 60_000),
      /it ran 3\.9 min past the limit, finishing the step in flight and its evaluation \(no step starts after it\)/,
    );
    assert.doesNotMatch(stopLine(run({ stop: 'time-limit' }), CFG, 10 * 60_000), /past the limit/);
    assert.match(
      stopLine(run({ stop: 'interrupted' }), CFG),
      /stopped on request \(Ctrl-C or SIGTERM\) after 7 steps of 20.*every finished step is saved; run the same command again/,
    );
  });

  it('prints the pool in words with counts', () => {
    assert.equal(poolWords({ probing: 1, active: 8, retired: 3, rejected: 0 }), '12 tasks: 1 probing, 8 active, 3 retired');
    assert.equal(poolWords({ probing: 0, active: 0 }), '0 tasks');
  });

  it('keeps the progress line within 100 columns, the step and its phase first', () => {
    let now = 0;
    const clock = new RunClock(CFG, 60_000, 10, 1, () => now);
    const short = progressLine(
      { kind: 'phase', step: 2, phase: 'rollouts', done: 3, total: 16 },
      CFG,
      { reward: '0.25', held: '8.3% (1/12)', rollouts: 13 },
      clock,
    );
    assert.equal(short, 'step 2/20: rollouts 3/16 | 1.0 min | 13/300 rollouts | held-out 8.3% (1/12) | reward 0.25');
    now = 3_000_000;
    const wide = progressLine(
      { kind: 'phase', step: 123, phase: 'held-out tasks: synthesizing for semver-ranges-and-more', done: 120, total: 240 },
      { ...CFG, steps: 1000, budget: 100000 },
      { reward: '0.25', held: '100.0% (1200/1200)', rollouts: 12345 },
      clock,
    );
    assert.ok(wide.length <= PROGRESS_WIDTH, `${wide.length} columns: ${wide}`);
    // The default run's widest line in practice keeps its figures (the reward goes first: each step's own line prints it).
    const usual = progressLine(
      { kind: 'phase', step: 12, phase: 'probing semver-ranges.procedural__4f2a9c1e', done: 12, total: 16 },
      CFG,
      { reward: '0.42', held: '25.0% (3/12)', rollouts: 123 },
      clock,
    );
    assert.match(usual, /^step 12\/20: probing sem\.\.\. 12\/16 \| 51\.0 min \| 123\/300 rollouts \| held-out 25\.0% \(3\/12\)( \| reward 0\.42)?$/);
    assert.match(
      wide,
      /^step 123\/1000: held-out \.\.\. 120\/240 \| 51\.0 min \| 12345\/100000 rollouts \| held-out 100\.0% \(1200\/1200\)$/,
      'a field that does not fit is left out whole',
    );
  });
});

describe('train: the estimate to the end', () => {
  const cfg: TrainConfig = { ...CFG, steps: 4, budget: 1000, timeLimitMin: 0, evalEvery: 2, evalTasks: 8 };
  const MIN = 60_000;

  it('counts the steps left, the step in flight and the evaluations still to run, and counts down in between', () => {
    let now = 0;
    const clock = new RunClock(cfg, 0, 0, 0, () => now);
    clock.phase(0, 'held-out evaluation');
    assert.equal(clock.leftMs(), null, 'nothing to go on before a step has finished');
    now = 2 * MIN;
    clock.evalDone(); // the untrained policy's evaluation took 2 minutes
    clock.phase(1, 'rollouts');
    now = 3 * MIN;
    clock.stepDone({ rolloutsUsed: 10, evalMs: 0, evaluated: false });
    // 3 steps of a minute, and evaluations after steps 2 and 4 of 2 minutes each
    assert.equal(clock.leftMs(), 7 * MIN);
    now = 4 * MIN;
    assert.equal(clock.leftMs(), 6 * MIN);
    clock.phase(2, 'rollouts');
    now = 7 * MIN;
    clock.stepDone({ rolloutsUsed: 20, evalMs: 2 * MIN, evaluated: true });
    // step 2 took 3 minutes, 2 of them evaluating: 2 steps left (2 min) and the evaluation after step 4 (2 min)
    assert.equal(clock.leftMs(), 4 * MIN);
  });

  it('moves by no more than the step it learned from', () => {
    let now = 0;
    const clock = new RunClock({ ...cfg, steps: 20, evalTasks: 0 }, 0, 0, 0, () => now);
    clock.phase(1, 'rollouts');
    now = 10 * MIN;
    clock.stepDone({ rolloutsUsed: 10, evalMs: 0, evaluated: false });
    assert.equal(clock.leftMs(), 190 * MIN);
    clock.phase(2, 'rollouts');
    now = 10 * MIN + 6000; // a step of 6 seconds: the pace halves, but the estimate moves by 6 seconds only
    clock.stepDone({ rolloutsUsed: 20, evalMs: 0, evaluated: false });
    assert.equal(clock.leftMs(), 190 * MIN - 6000 - 6000);
  });

  it('lets a step start only before the time limit', () => {
    let now = 0;
    const clock = new RunClock({ ...cfg, steps: 100, timeLimitMin: 10, evalTasks: 0 }, 0, 0, 0, () => now);
    clock.phase(1, 'rollouts');
    now = 3 * MIN;
    clock.stepDone({ rolloutsUsed: 10, evalMs: 0, evaluated: false });
    // 7 minutes of room: steps start at 3, 6 and 9 minutes, the last ends at 12
    assert.equal(clock.leftMs(), 9 * MIN);
  });
});
