import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heldOutLines, progressLine, RunClock, stopLine } from '../../src/cli/train-report.js';
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

  it('shows elapsed time and an estimate to the end on the progress line', () => {
    let now = 0;
    const clock = new RunClock(CFG, 60_000, 10, 1, () => now);
    now = 60_000; // a minute into this invocation, 3 rollouts done: the 11-minute limit is nearer than the budget
    const line = progressLine(
      { kind: 'phase', step: 2, phase: 'rollouts', done: 3, total: 16 },
      CFG,
      { reward: '0.25', held: '8.3% (1/12)', rollouts: 13 },
      clock,
    );
    assert.equal(line, 'step 2/20 | 2.0 min, about 10.0 min left | rollouts 13/300 | reward 0.25 | held-out 8.3% (1/12) | rollouts 3/16');
    clock.stepDone(); // one step in two minutes, 18 left: the limit (9 min, plus the step in flight) still comes first
    now = 120_000;
    assert.match(
      progressLine({ kind: 'phase', step: 3, phase: 'synthesizing' }, CFG, { reward: '0.25', held: '-', rollouts: 30 }, clock),
      /3\.0 min, about 11\.0 min left/,
    );
    const noEstimate = new RunClock({ ...CFG, timeLimitMin: 0 }, 0, 0);
    assert.doesNotMatch(progressLine({ kind: 'phase', step: 1, phase: 'synthesizing' }, CFG, { reward: '-', held: '-', rollouts: 0 }, noEstimate), /left/);
  });
});
