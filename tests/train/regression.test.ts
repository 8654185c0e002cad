import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSize, held, settleReplays } from '../../src/train/regression.js';
import { rolloutOf } from '../helpers/rollouts.js';

const r = (taskId: string, reward: number | null) => rolloutOf(taskId, reward);

/** Scripted groups: each task's rewards by rollout index; the first `first` already ran. */
function setup(budget: number, scripts: Record<string, (number | null)[]>, first = 4) {
  let spent = 0;
  const calls: [string, number][] = [];
  const groups = new Map(Object.entries(scripts).map(([id, rewards]) => [id, rewards.slice(0, first).map((x) => r(id, x))]));
  const run = async (id: string, i: number) => {
    calls.push([id, i]);
    // Later indices finish first: the group must still come back in index order.
    await new Promise((res) => setTimeout(res, 10 - i));
    return r(id, scripts[id]![i] ?? 0);
  };
  const settle = (replays: string[]) =>
    settleReplays(groups, replays, {
      group: 8,
      workers: 2,
      budgetLeft: () => budget - spent,
      spend: () => {
        spent++;
      },
      run,
    });
  return { groups, calls, settle, spent: () => spent };
}

describe('replay checks of retired tasks', () => {
  it('a check starts at the probe size, never above a group', () => {
    assert.equal(checkSize(4, 8), 4);
    assert.equal(checkSize(4, 3), 3);
  });

  it('a check holds when it scored and every scored rollout passed', () => {
    assert.equal(held([r('a', 1), r('a', 1)]), true);
    assert.equal(held([r('a', 1), r('a', null)]), true, 'an infrastructure failure is no failure');
    assert.equal(held([r('a', 1), r('a', 0)]), false);
    assert.equal(held([r('a', null)]), false, 'nothing scored proves nothing');
  });

  it('leaves checks that held, fills the others up to a full group in index order, and touches no other group', async () => {
    const s = setup(100, { kept: [1, 1, 1, 1], slipping: [1, 0, 1, 1, 0, 1, 1, 0], other: [0, 0, 0, 0] });
    const out = await s.settle(['kept', 'slipping']);
    assert.deepEqual([...out], ['kept']);
    assert.equal(s.groups.get('kept')!.length, 4, 'no group spent on a task that still holds');
    assert.deepEqual(
      s.groups.get('slipping')!.map((x) => x.reward),
      [1, 0, 1, 1, 0, 1, 1, 0],
    );
    assert.deepEqual(
      s.calls.map(([id]) => id),
      ['slipping', 'slipping', 'slipping', 'slipping'],
    );
    assert.equal(s.groups.get('other')!.length, 4, 'not a replay: not settled');
    assert.equal(s.spent(), 4, 'every fill-up rollout counted');
  });

  it('fills up only as far as the budget allows', async () => {
    const s = setup(3, { slipping: [0, 1, 1, 1, 1, 1, 1, 1] });
    assert.equal((await s.settle(['slipping'])).size, 0);
    assert.equal(s.spent(), 3);
    assert.equal(s.groups.get('slipping')!.length, 7);
  });
});
