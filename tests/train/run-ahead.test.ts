import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Task } from '../../src/task/task.js';
import { TRAIN_DEFAULTS } from '../../src/train/config.js';
import { RunAhead } from '../../src/train/run-ahead.js';
import { rolloutOf } from '../helpers/rollouts.js';
import { bareStocker } from '../helpers/stock.js';
import { bareTask } from '../helpers/task.js';

const task = bareTask;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A scripted rollout: its reward is a function of its seed alone, as a real rollout's is of its seed and the policy. */
const rewardOf = (seed: number) => (seed % 3 === 0 ? 1 : 0);

/** Probes of several tasks, with run-ahead on idle workers or without; what reaches the pool, the store and the budget. */
async function probes(runAhead: boolean, idle = true) {
  const kept: number[] = [];
  const made: number[] = [];
  let running = 0;
  let most = 0;
  const make = async (t: Task, seed: number) => {
    made.push(seed);
    most = Math.max(most, ++running);
    await sleep(1 + (seed % 7));
    running--;
    return rolloutOf(t.id, rewardOf(seed));
  };
  const { s, pool, controller, spent } = bareStocker({
    cfg: { ...TRAIN_DEFAULTS, workers: 2 },
    budget: 500,
    runOne: async (t, seed) => {
      kept.push(seed);
      return make(t, seed);
    },
    ...(runAhead
      ? { runAhead: { tryOne: async (t: Task, seed: number) => ({ res: await make(t, seed), keep: () => void kept.push(seed) }), idle: () => idle } }
      : {}),
  });
  const ids = Array.from({ length: 9 }, (_, k) => `t${k}`);
  const verdicts = await s.probeAll(ids.map(task), 1);
  await (s as unknown as { ahead?: RunAhead<unknown> }).ahead?.settle();
  return {
    outcome: { verdicts, pool: JSON.stringify(pool.toJSON()), controller: JSON.stringify(controller.toJSON()), spent: spent(), kept: [...kept].sort() },
    made,
    most,
    running,
    counts: s.runAheadCounts,
  };
}

describe('probe rollouts run ahead on idle workers', () => {
  it('give the same verdicts, pool, controller, budget and stored attempts as probes without it', async () => {
    const without = await probes(false);
    const ahead = await probes(true);
    assert.deepEqual(ahead.outcome, without.outcome);
    assert.ok(ahead.counts.ahead > 0, 'some rollouts started ahead');
    // Those dropped unread were made but never kept nor counted.
    assert.equal(ahead.made.length, without.made.length + ahead.counts.dropped);
    // Ahead only into a free worker; a probe's own next rollout never waits for a dropped one to finish.
    assert.ok(ahead.most <= 2 * 2, `at most twice the workers' count at once (${ahead.most})`);
    assert.equal(ahead.running, 0, 'every dropped rollout finished before settle returned');
  });

  it('start nothing ahead while workers are busy with other work', async () => {
    const busy = await probes(true, false);
    assert.deepEqual(busy.counts, { ahead: 0, dropped: 0 });
    assert.deepEqual(busy.outcome, (await probes(false)).outcome);
  });

  it('a failed rollout fails the probe that reads it, and one dropped unread fails nothing', async () => {
    const ra = new RunAhead<unknown>(
      () => 3,
      () => true,
    );
    const p = ra.probe(async (i) => {
      await sleep(i === 0 ? 5 : 1);
      if (i >= 1) throw new Error(`rollout ${i} broke`);
      return { res: rolloutOf('a', 1), keep: () => {} };
    }, 4);
    assert.equal((await p.read(0)).reward, 1);
    await assert.rejects(p.read(1), /rollout 1 broke/);
    p.close();
    await ra.settle();
    assert.ok(ra.counts.ahead >= 2);
  });
});
