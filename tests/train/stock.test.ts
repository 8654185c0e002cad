import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DifficultyController } from '../../src/curriculum/controller.js';
import { TaskPool } from '../../src/curriculum/pool.js';
import type { Task } from '../../src/task/task.js';
import { TRAIN_DEFAULTS } from '../../src/train/config.js';
import { REACH_FLOOR } from '../../src/train/reach.js';
import type { RolloutResult } from '../../src/train/rollout.js';
import { Stocker, type StockDeps } from '../../src/train/stock.js';
import type { TaskSupply } from '../../src/train/supply.js';

const task = (id: string) => ({ id, env: { name: 'e' }, knobs: { bugs: 1, hint: 'full', visibility: 'visible', families: ['operations'] } }) as unknown as Task;

function stocker(screen: StockDeps['screen'], rewards: number[], budgetLeft = 100, supply = {} as TaskSupply) {
  const pool = new TaskPool();
  const controller = new DifficultyController({ target: 0.5 });
  let spent = 0, ran = 0;
  const runOne = async (t: Task): Promise<RolloutResult> =>
    ({ taskId: t.id, reward: rewards[ran++ % rewards.length]!, stopReason: 'submitted', steps: 1, decisions: [], ms: 0, verifyMs: 0, cached: false });
  const s = new Stocker({
    cfg: TRAIN_DEFAULTS, supply, pool, controller, used: new Set(), runOne, ...(screen ? { screen } : {}),
    spend: () => { spent++; }, budgetLeft: () => budgetLeft - spent, phase: () => {},
  });
  return { s, pool, controller, spent: () => spent };
}

describe('Stocker.probe with a reach screen', () => {
  it('rejects a task below the reach floor without a rollout, and the controller hears a failed probe', async () => {
    const { s, pool, controller, spent } = stocker(async () => REACH_FLOOR / 2, [1, 0]);
    const failuresHeard = () => JSON.stringify(controller.toJSON()).match(/"operations",\{"alpha":[\d.]+,"beta":([\d.]+)/)?.[1];
    assert.equal(await s.probe(task('low'), 1), 'too-hard');
    assert.equal(spent(), 0, 'no rollout spent');
    assert.equal(pool.get('low')?.state, 'rejected');
    assert.equal(s.yield.screened, 1);
    // The family's Beta(1, 1) prior took the probe's worth of failures.
    assert.equal(Number(failuresHeard()), 1 + TRAIN_DEFAULTS.probe);
  });

  it('probes as usual when the reach is above the floor or cannot be told', async () => {
    for (const reach of [0.5, null]) {
      const { s, pool, spent } = stocker(async () => reach, [1, 0]);
      assert.equal(await s.probe(task('mid'), 1), 'admit');
      assert.equal(spent(), 2, 'mixed results after two rollouts');
      assert.equal(pool.get('mid')?.state, 'active');
      assert.equal(s.yield.screened, 0);
    }
  });
});

describe('Stocker.stock near the end of the budget', () => {
  // A supply that makes two fresh tasks per call.
  let made = 0;
  const supply = {
    yield: { candidates: 0, valid: 0 }, families: () => ['operations'],
    take: async () => [task(`t${made++}`), task(`t${made++}`)],
  } as unknown as TaskSupply;
  const { probe, batch, group } = TRAIN_DEFAULTS;

  for (const [left, probes] of [[2 * probe + batch * group - 1, false], [2 * probe + batch * group, true]] as const) {
    it(`${probes ? 'probes' : 'does not probe'} with ${left} rollouts left (room for a try's probes and the next full batch: ${2 * probe + batch * group})`, async () => {
      const { s, pool, spent } = stocker(undefined, [1, 0], left, supply);
      pool.add({ taskId: 'trainable', env: 'e', familyKey: 'f', addedStep: 0, state: 'active' });
      await s.stock(1, () => 0.5);
      assert.equal(spent() > 0, probes, `${spent()} rollouts spent`);
      assert.ok(spent() <= left);
    });
  }

  it('with nothing to train on, probes down to the last rollout', async () => {
    const { s, spent } = stocker(undefined, [0], 3, supply);
    await s.stock(1, () => 0.5);
    assert.equal(spent(), 3);
  });
});

describe('Stocker.probe cut short', () => {
  it('by the budget after a pass: too easy (what it saw); before any rollout: unjudged, left out of the pool and handed back', async () => {
    const { s, pool, spent } = stocker(undefined, [1], 1);
    const used = (s as unknown as { d: StockDeps }).d.used;
    used.add('a').add('b');
    assert.equal(await s.probe(task('a'), 1), 'too-easy');
    assert.equal(spent(), 1);
    // Added retired; its one pass leaves the mean (2/3) under the reactivation line, so the pool keeps it trainable.
    assert.ok(['retired', 'active'].includes(pool.get('a')!.state), pool.get('a')!.state);
    assert.equal(pool.get('a')!.observations, 1);
    assert.equal(await s.probe(task('b'), 1), null);
    assert.equal(pool.get('b'), undefined);
    assert.ok(!used.has('b') && used.has('a'));
  });

  it('by infrastructure failures after a pass: too hard, not replayed as solved', async () => {
    let n = 0;
    const { s, pool } = stocker(undefined, [0], 100);
    (s as unknown as { d: StockDeps }).d.runOne = async (t) =>
      ({ taskId: t.id, reward: n++ === 0 ? 1 : null, stopReason: 'submitted', steps: 1, decisions: [], ms: 0, verifyMs: 0, cached: false });
    assert.equal(await s.probe(task('flaky'), 1), 'too-hard');
    assert.equal(pool.get('flaky')?.state, 'rejected');
    assert.equal(n, 2 * TRAIN_DEFAULTS.probe, 'out of tries');
  });
});
