import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TaskPool } from '../../src/curriculum/pool.js';
import { mean } from '../../src/curriculum/posterior.js';
import { FEATURE_DIM } from '../../src/policy/features.js';
import { LinearPolicy, type Decision } from '../../src/policy/linear.js';
import { replayPassRate, replayRates, shiftedMean } from '../../src/train/replay.js';
import type { RolloutResult } from '../../src/train/rollout.js';
import { updatePolicy } from '../../src/train/update.js';

// Ten candidates with a private feature each; candidate 0 is the fix.
const feats = Array.from({ length: 10 }, (_, i) => ({ idx: [FEATURE_DIM - 1 - i], val: [1] }));
const pick = (i: number, undone = false): Decision => ({ feats, chosen: i, temperature: 1, ...(undone ? { undone } : {}) });
const rolloutOf = (taskId: string, reward: number | null, decisions: Decision[]): RolloutResult =>
  ({ taskId, reward, stopReason: 'submitted', steps: 1, decisions, ms: 0, verifyMs: 0, cached: false });

describe('replaying passing rollouts under the policy', () => {
  it('estimates 1 − (1 − q)^K from the kept repairs, ignoring undone ones and failing rollouts', () => {
    const policy = new LinearPolicy('zero'); // every candidate at q = 0.1
    const expected = 1 - 0.9 ** 10;
    assert.ok(Math.abs(replayPassRate(policy, rolloutOf('t', 1, [pick(3, true), pick(0)]))! - expected) < 1e-12);
    assert.ok(Math.abs(replayPassRate(policy, rolloutOf('t', 1, [pick(0), pick(1)]))! - expected ** 2) < 1e-12, 'two kept repairs: both needed');
    assert.equal(replayPassRate(policy, rolloutOf('t', 0, [pick(0)])), null);
    assert.equal(replayPassRate(policy, rolloutOf('t', null, [pick(0)])), null);
    assert.equal(replayPassRate(policy, rolloutOf('t', 1, [pick(0, true)])), null, 'nothing kept');
  });

  it('sees an update that learned from a task raise its estimate, and moves the posterior by as much', () => {
    const policy = new LinearPolicy('zero');
    const groups = [[rolloutOf('a', 1, [pick(5, true), pick(0)]), rolloutOf('a', 0, [pick(5, true), pick(6, true)])], [rolloutOf('b', 0, [pick(7, true)]), rolloutOf('b', 0, [pick(8, true)])]];
    const before = replayRates(policy, groups);
    assert.deepEqual([...before.keys()], ['a'], 'only tasks with a passing rollout');
    updatePolicy(policy, groups, 'rloo', 0.5);
    const after = replayRates(policy, groups).get('a')!;
    assert.ok(after > before.get('a')! + 0.1, `${before.get('a')} -> ${after}`);
    const moved = shiftedMean(0.5, before.get('a')!, after);
    assert.ok(moved > 0.5 && moved <= 0.98);
    assert.ok(Math.abs(shiftedMean(0.3, 0.4, 0.4) - 0.3) < 1e-12, 'no change, no move');
    assert.ok(shiftedMean(0.5, 0.6, 0.3) < 0.5);
    assert.equal(shiftedMean(0.9, 0.01, 1), 0.98, 'clamped');
  });

  it('pool.shift keeps the evidence strength, retires past the line, and leaves inactive tasks alone', () => {
    const pool = new TaskPool();
    pool.add({ taskId: 'a', env: 'e', familyKey: 'f', addedStep: 0, state: 'active', posterior: { alpha: 3, beta: 3, prior: { alpha: 1, beta: 1 } } });
    pool.shift('a', 0.75);
    const e = pool.get('a')!;
    assert.ok(Math.abs(mean(e.posterior) - 0.75) < 1e-12 && Math.abs(e.posterior.alpha + e.posterior.beta - 6) < 1e-12);
    assert.equal(e.state, 'active');
    pool.shift('a', 0.95);
    assert.equal(e.state, 'retired');
    pool.shift('a', 0.2);
    assert.ok(Math.abs(mean(e.posterior) - 0.95) < 1e-12, 'a retired task is not moved');
  });
});
