import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Task } from '../../src/task/task.js';
import { checkForgetting, noteSolved } from '../../src/train/forgetting.js';
import { rolloutOf } from '../helpers/rollouts.js';

describe('forgetting', () => {
  it('a task is solved at the first step its group passes at least half the time, and only then', () => {
    const at: Record<string, number> = {};
    noteSolved(at, 'a', [1, 0, 0, 0], 1);
    noteSolved(at, 'b', [null, null], 1);
    assert.deepEqual(at, {});
    noteSolved(at, 'a', [1, 1, 0, null], 2);
    noteSolved(at, 'a', [1, 1, 1, 1], 3);
    assert.deepEqual(at, { a: 2 });
  });

  it('tries up to k tasks solved before the step, the same seed each time, and records each one by its age', async () => {
    const solvedAt = { old: 1, mid: 3, now: 5, lost: 2 };
    const seeds: number[] = [];
    const runOne = async (t: Task, seed: number) => {
      seeds.push(seed);
      return rolloutOf(t.id, t.id === 'lost' ? 0 : t.id === 'mid' ? null : 1);
    };
    const taskOf = (id: string) => ({ id }) as unknown as Task;
    const p = (await checkForgetting(solvedAt, 5, 120, { k: 10, seed: 1, workers: 2 }, taskOf, runOne))!;
    // 'now' was solved at this very step: not yet a re-try. 'mid' failed for infrastructure: not counted.
    assert.equal(p.tried, 2);
    assert.equal(p.solved, 1);
    assert.deepEqual(p.byAge, [
      [3, 0],
      [4, 1],
    ]);
    assert.equal(p.rollouts, 120);
    const again = (await checkForgetting(solvedAt, 5, 120, { k: 10, seed: 1, workers: 1 }, taskOf, runOne))!;
    assert.deepEqual(again, p);
    assert.deepEqual(seeds.slice(0, 3).sort(), seeds.slice(3).sort(), 'the same seeds at every check');
    const one = (await checkForgetting(solvedAt, 5, 120, { k: 1, seed: 1, workers: 1 }, taskOf, runOne))!;
    assert.equal(one.byAge.length, 1);
    assert.equal(await checkForgetting({}, 5, 0, { k: 3, seed: 1, workers: 1 }, taskOf, runOne), null);
  });
});
