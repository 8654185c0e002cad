import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TaskPool } from '../../src/curriculum/pool.js';
import { mean } from '../../src/curriculum/posterior.js';
import { FEATURE_DIM } from '../../src/policy/features.js';
import { LinearPolicy, type Decision } from '../../src/policy/linear.js';
import { FIGURE_SOLVED, followFigure, PassRateTracker, replayPassRate, shiftedMean } from '../../src/policy/replay.js';
import { rolloutOf as made } from '../helpers/rollouts.js';
import { updatePolicy as update } from '../../src/policy/update.js';
import { estimator, scoreGroup } from '../../src/rl/advantages.js';
import type { Rollout } from '../../src/rl/contract.js';
import type { EmbeddedTurn } from '../../src/policy/decisions.js';

// Ten candidates with a private feature each; candidate 0 is the fix.
const feats = Array.from({ length: 10 }, (_, i) => ({ idx: [FEATURE_DIM - 1 - i], val: [1] }));
const pick = (i: number, undone = false): Decision => ({ feats, chosen: i, temperature: 1, ...(undone ? { undone } : {}) });
const rolloutOf = (taskId: string, reward: number | null, decisions: Decision[]) => made(taskId, reward, decisions);

/** The update as the trainer calls it: groups scored by RLOO first. */
const updatePolicy = (policy: LinearPolicy, groups: Rollout<EmbeddedTurn>[][], _method: 'rloo', lr: number) =>
  update(
    policy,
    groups.map((g) => scoreGroup(g, estimator('rloo'))),
    estimator('rloo'),
    lr,
  );

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
    const groups = [
      [rolloutOf('a', 1, [pick(5, true), pick(0)]), rolloutOf('a', 0, [pick(5, true), pick(6, true)])],
      [rolloutOf('b', 0, [pick(7, true)]), rolloutOf('b', 0, [pick(8, true)])],
    ];
    const tracker = new PassRateTracker(policy);
    tracker.observe(groups);
    assert.equal(tracker.size, 1, 'only tasks with a passing rollout');
    updatePolicy(policy, groups, 'rloo', 0.5);
    const moves = tracker.moves();
    assert.deepEqual([...moves.keys()], ['a']);
    const { before, after } = moves.get('a')!;
    assert.ok(Math.abs(before - (1 - 0.9 ** 10)) < 1e-12, 'anchored at the weights before the update');
    assert.ok(after > before + 0.1, `${before} -> ${after}`);
    assert.equal(tracker.moves().get('a')!.before, after, 'the anchor moves to the estimate it reported');
    const moved = shiftedMean(0.5, before, after);
    assert.ok(moved > 0.5 && moved <= 0.98);
    assert.ok(Math.abs(shiftedMean(0.3, 0.4, 0.4) - 0.3) < 1e-12, 'no change, no move');
    assert.ok(shiftedMean(0.5, 0.6, 0.3) < 0.5);
    assert.equal(shiftedMean(0.9, 0.01, 1), 0.98, 'clamped');
  });

  it('re-scores a tracked task after updates that did not train on it', () => {
    // Task c's fix is candidate 0; a later update learns candidate 0 from task d only.
    const policy = new LinearPolicy('zero');
    const tracker = new PassRateTracker(policy);
    tracker.observe([[rolloutOf('c', 1, [pick(0)]), rolloutOf('c', 0, [pick(4, true)])]]);
    tracker.moves(); // no update yet: no change
    const d = [[rolloutOf('d', 1, [pick(0)]), rolloutOf('d', 0, [pick(2, true)])]];
    tracker.observe(d);
    updatePolicy(policy, d, 'rloo', 0.5);
    const c = tracker.moves().get('c')!;
    assert.ok(c.after > c.before + 0.05, `${c.before} -> ${c.after}`);
  });

  it('re-anchors an observed task with no pass now on its older examples, and keeps only the newest two', () => {
    const policy = new LinearPolicy('zero');
    const tracker = new PassRateTracker(policy);
    tracker.observe([[rolloutOf('e', 1, [pick(2)])]]);
    tracker.observe([[rolloutOf('e', 1, [pick(0)]), rolloutOf('e', 1, [pick(1)])]]);
    updatePolicy(policy, [[rolloutOf('x', 1, [pick(1)]), rolloutOf('x', 0, [pick(3, true)])]], 'rloo', 0.5);
    tracker.observe([[rolloutOf('e', 0, [pick(6, true)])]]);
    const e = tracker.moves().get('e')!;
    assert.equal(e.before, e.after, 'anchored at the current weights when observed');
    // The examples are picks 0 and 1 (the newer group's); the older pick 2 was dropped.
    const expected = (replayPassRate(policy, rolloutOf('e', 1, [pick(0)]))! + replayPassRate(policy, rolloutOf('e', 1, [pick(1)]))!) / 2;
    assert.ok(Math.abs(e.after - expected) < 1e-12, `${e.after} vs ${expected}`);
    assert.notEqual(
      replayPassRate(policy, rolloutOf('e', 1, [pick(2)])),
      replayPassRate(policy, rolloutOf('e', 1, [pick(1)])),
      'the dropped example would change the figure',
    );
  });

  it('prefers the estimator a task has (its reach) to its examples, tracks tasks with no pass, and moves only the wanted ones', () => {
    const policy = new LinearPolicy('zero');
    const reach = new Map([
      ['r', 0.2],
      ['s', 0.5],
    ]);
    const tracker = new PassRateTracker(policy, 'all', (id) => reach.get(id) ?? null);
    tracker.observe([
      [rolloutOf('r', 1, [pick(0)]), rolloutOf('r', 0, [pick(1, true)])],
      [rolloutOf('s', 0, [pick(1, true)])],
      [rolloutOf('x', 0, [pick(1, true)])],
    ]);
    assert.equal(tracker.size, 2, 'x has neither a reach nor a passing rollout');
    assert.equal(tracker.figure('r'), 0.2);
    reach.set('r', 0.6).set('s', 0.1);
    const moves = tracker.moves((id) => id !== 's');
    assert.deepEqual([...moves], [['r', { before: 0.2, after: 0.6 }]]);
    assert.deepEqual(tracker.moves().get('s'), { before: 0.5, after: 0.1 }, 'an unwanted task keeps its anchor');
    tracker.moves(
      () => true,
      (id) => id === 's',
    );
    assert.equal(tracker.size, 1, 'a forgotten task leaves');
    tracker.anchor(['s', 'x']);
    assert.equal(tracker.size, 2, 'anchored again from its reach; x has no figure');
  });

  it('followFigure: retires at a solved figure, shifts on a change, leaves an unchanged figure and inactive tasks alone', () => {
    const pool = new TaskPool();
    const add = (id: string, state: 'active' | 'retired' = 'active') =>
      pool.add({ taskId: id, env: 'e', familyKey: 'f', addedStep: 0, state, posterior: { alpha: 3, beta: 3, prior: { alpha: 1, beta: 1 } } });
    add('solved');
    add('up');
    add('same');
    add('old', 'retired');
    assert.equal(followFigure(pool, 'solved', { before: FIGURE_SOLVED, after: FIGURE_SOLVED }), 'retired', 'a solved figure retires even unchanged');
    assert.equal(pool.get('solved')!.state, 'retired');
    assert.equal(followFigure(pool, 'up', { before: 0.2, after: 0.4 }), 'moved');
    assert.ok(Math.abs(mean(pool.get('up')!.posterior) - shiftedMean(0.5, 0.2, 0.4)) < 1e-12);
    assert.equal(followFigure(pool, 'same', { before: 0.3, after: 0.3 }), 'unchanged');
    assert.equal(followFigure(pool, 'old', { before: 0.1, after: 0.95 }), 'unchanged');
    assert.equal(followFigure(pool, 'missing', { before: 0.1, after: 0.95 }), 'unchanged');
    assert.equal(followFigure(pool, 'up', { before: 0.2, after: 0.89 }), 'retired', 'past the pool line by the shift');
    add('capped');
    assert.equal(followFigure(pool, 'capped', { before: 0.95, after: 0.95 }, Infinity), 'unchanged', 'no solved line: an unchanged figure leaves it');
  });

  it('follow: under trained only the tasks trained on move, by their examples, with no solved line; under all every active task moves by its reach and retires at the line', () => {
    const policy = new LinearPolicy('zero');
    const poolOf = () => {
      const pool = new TaskPool();
      for (const id of ['p', 'q', 'gone'])
        pool.add({ taskId: id, env: 'e', familyKey: 'f', addedStep: 0, state: 'active', posterior: { alpha: 3, beta: 3, prior: { alpha: 1, beta: 1 } } });
      return pool;
    };
    const reach = new Map([
      ['p', 0.3],
      ['q', 0.3],
      ['gone', 0.3],
    ]);
    const groups = [[rolloutOf('p', 1, [pick(0)])], [rolloutOf('q', 1, [pick(1)])], [rolloutOf('gone', 1, [pick(2)])]];
    const trainedTracker = new PassRateTracker(policy, 'trained', (id) => reach.get(id) ?? null);
    const allTracker = new PassRateTracker(policy, 'all', (id) => reach.get(id) ?? null);
    assert.equal(trainedTracker.readsEstimates, false);
    assert.equal(allTracker.readsEstimates, true);
    trainedTracker.observe(groups);
    allTracker.observe(groups);
    assert.equal(trainedTracker.figure('p'), replayPassRate(policy, groups[0]![0]!), 'trained: the estimator is not read');
    updatePolicy(policy, [groups[0]!.concat(rolloutOf('p', 0, [pick(5, true)]))], 'rloo', 0.5); // learns candidate 0 (task p's)
    reach.set('p', 0.95).set('q', 0.5);

    const tPool = poolOf();
    tPool.setState('gone', 'rejected');
    assert.deepEqual(trainedTracker.follow(tPool, new Set(['p'])), { moved: 1, retired: 0 });
    assert.ok(mean(tPool.get('p')!.posterior) > 0.5, 'p rose by its replayed example');
    assert.equal(mean(tPool.get('q')!.posterior), 0.5, 'q was not trained on');
    assert.equal(trainedTracker.size, 2, 'the rejected task is forgotten');

    const aPool = poolOf();
    assert.deepEqual(allTracker.follow(aPool, new Set(['p'])), { moved: 2, retired: 1 }, 'p retired, q moved, gone unchanged (its reach stayed)');
    assert.equal(aPool.get('p')!.state, 'retired', 'reach 0.95: solved');
    assert.ok(Math.abs(mean(aPool.get('q')!.posterior) - shiftedMean(0.5, 0.3, 0.5)) < 1e-12, 'q followed its reach though not trained on');
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
