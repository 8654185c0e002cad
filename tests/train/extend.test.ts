import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allFail, extendAllFail } from '../../src/train/extend.js';
import { rolloutOf } from '../helpers/rollouts.js';

const r = (taskId: string, reward: number | null) => rolloutOf(taskId, reward);

/** A scripted task: the rewards of its rollouts by index (beyond the script: fail). */
function setup(budget: number, scripts: Record<string, (number | null)[]>, max = 8) {
  let spent = 0;
  const calls: [string, number][] = [];
  const groups = new Map(Object.entries(scripts).map(([id, rewards]) => [id, rewards.slice(0, 4).map((x) => r(id, x))]));
  const run = async (id: string, i: number) => {
    calls.push([id, i]);
    return r(id, scripts[id]![i] ?? 0);
  };
  const go = () =>
    extendAllFail(groups, {
      max,
      workers: 2,
      budgetLeft: () => budget - spent,
      spend: () => {
        spent++;
      },
      run,
    });
  return { groups, calls, go, spent: () => spent };
}

describe('extending all-fail groups', () => {
  it('adds waves to an all-fail group until one passes, continuing its indices, and leaves other groups alone', async () => {
    const s = setup(100, { hard: [0, 0, 0, 0, 0, 0, 1, 0], mixed: [0, 1, 0, 0], easy: [1, 1, 1, 1] });
    const added = await s.go();
    assert.deepEqual([...added], [['hard', 4]], 'two waves of two: the pass came at index 6');
    assert.deepEqual(s.calls, [
      ['hard', 4],
      ['hard', 5],
      ['hard', 6],
      ['hard', 7],
    ]);
    assert.equal(s.groups.get('hard')!.length, 8);
    assert.ok(!allFail(s.groups.get('hard')!));
    assert.equal(s.groups.get('mixed')!.length, 4);
    assert.equal(s.spent(), 4, 'every added rollout counted');
  });

  it('stops at max and at the budget, and never extends a group with no scored rollout', async () => {
    const capped = setup(100, { never: [0, 0, 0, 0] }, 3);
    assert.deepEqual([...(await capped.go())], [['never', 3]]);
    const poor = setup(3, { never: [0, 0, 0, 0] });
    await poor.go();
    assert.equal(poor.spent(), 3);
    assert.equal(poor.groups.get('never')!.length, 7);
    const infra = setup(100, { broken: [null, null, null, null] });
    assert.equal((await infra.go()).size, 0);
    assert.equal(allFail([r('x', null), r('x', 0)]), true);
    assert.equal(allFail([r('x', null)]), false);
  });
});
