import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pool } from '../../src/util/pool.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('pool', () => {
  it('starts items in order with at most `workers` in flight', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    await pool([0, 1, 2, 3, 4, 5, 6], 3, async (i) => {
      started.push(i);
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(most, 3);
  });

  it('a limit given as a function is asked again as items finish, so it can grow', async () => {
    let limit = 1;
    let running = 0;
    const most: number[] = [];
    await pool(
      Array.from({ length: 8 }, (_, i) => i),
      () => limit,
      async (i) => {
        most[i] = ++running;
        if (i === 2) limit = 3;
        await tick();
        running--;
      },
    );
    assert.equal(Math.max(...most.slice(0, 3)), 1, 'one at a time while the limit was 1');
    assert.equal(Math.max(...most.slice(3)), 3, 'three once it grew');
  });

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = [];
    await assert.rejects(
      pool([0, 1, 2, 3, 4], 1, async (i) => {
        started.push(i);
        await tick();
        if (i === 1) throw new Error('broken item');
      }),
      /broken item/,
    );
    await tick();
    assert.deepEqual(started, [0, 1]);
  });

  it('resolves at once for no items', async () => {
    await pool([], 2, async () => assert.fail('never called'));
  });
});
