import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TaskPool, frontierWeights, type PoolEntry } from '../../src/curriculum/pool.js';
import { mean } from '../../src/curriculum/posterior.js';
import { rng } from '../../src/util/rng.js';

/** An admitted, already-trained-on task whose posterior is confidently at p. */
function addAt(pool: TaskPool, id: string, p: number, extra: Partial<PoolEntry> = {}): PoolEntry {
  const post = { alpha: 1 + 98 * p, beta: 1 + 98 * (1 - p), prior: { alpha: 1, beta: 1 } };
  const e = pool.add({ taskId: id, env: 'env', familyKey: 'fam', addedStep: 0, state: 'active', posterior: post });
  Object.assign(e, { fresh: false, lastSampledStep: 0 }, extra);
  return e;
}

const bandOf = (id: string) => id.split('-')[0]!;

describe('TaskPool.sample (FRONTIER)', () => {
  it('prefers p ≈ 0.5 tasks over p ≈ 0.05 and p ≈ 0.95 ones', () => {
    const pool = new TaskPool();
    for (let i = 0; i < 10; i++)
      for (const [b, p] of [
        ['low', 0.05],
        ['mid', 0.5],
        ['high', 0.95],
      ] as const)
        addAt(pool, `${b}-${i}`, p);
    const json = pool.toJSON();
    const counts = (staleness: number) => {
      const copy = TaskPool.fromJSON(json);
      const random = rng(7);
      const count: Record<string, number> = { low: 0, mid: 0, high: 0 };
      for (let step = 1; step <= 500; step++) for (const s of copy.sample(4, step, random, { replay: 0, staleness })) count[bandOf(s.taskId)]!++;
      return count;
    };
    const plain = counts(0);
    assert.ok(plain.mid! > 4 * plain.low! && plain.mid! > 4 * plain.high!, JSON.stringify(plain));
    // Staleness moves some mass to neglected tasks, but the frontier still wins.
    const stale = counts(0.3);
    assert.ok(stale.mid! > 2 * stale.low! && stale.mid! > 2 * stale.high!, JSON.stringify(stale));
    assert.ok(stale.low! > plain.low! && stale.high! > plain.high!, 'staleness visits the neglected bands more');
  });

  it('reserves the fresh share for fresh admitted tasks, then marks them trained', () => {
    const pool = new TaskPool();
    for (let i = 0; i < 20; i++) addAt(pool, `old-${i}`, 0.5);
    for (let i = 0; i < 20; i++) addAt(pool, `new-${i}`, 0.97, { fresh: true, lastSampledStep: null });
    const batch = pool.sample(10, 1, rng(1), { replay: 0, freshShare: 0.3 });
    assert.equal(batch.filter((s) => s.reason === 'fresh').length, 3);
    assert.ok(batch.filter((s) => s.reason === 'fresh').every((s) => s.taskId.startsWith('new-')));
    for (const s of batch) assert.equal(pool.get(s.taskId)!.fresh, false);
    assert.equal(pool.get(batch[0]!.taskId)!.lastSampledStep, 1);
    const none = pool.sample(10, 2, rng(1), { replay: 0, freshShare: 0 });
    assert.equal(none.filter((s) => s.reason === 'fresh').length, 0);
  });

  it('raises a stale task’s chance', () => {
    const build = () => {
      const pool = new TaskPool();
      for (let i = 0; i < 10; i++) addAt(pool, `t-${i}`, 0.5, { lastSampledStep: i === 0 ? 0 : 99 });
      return pool.toJSON();
    };
    const json = build();
    const freq = (staleness: number) => {
      const random = rng(3);
      let hits = 0;
      for (let k = 0; k < 2000; k++) if (TaskPool.fromJSON(json).sample(1, 100, random, { staleness, replay: 0 })[0]!.taskId === 't-0') hits++;
      return hits / 2000;
    };
    assert.ok(freq(0.3) > 0.25, `stale: ${freq(0.3)}`);
    assert.ok(freq(0) < 0.15, `no staleness: ${freq(0)}`);
    const w = frontierWeights(TaskPool.fromJSON(json).all(), 100, { freshShare: 0, temperature: 0.3, staleness: 0.3, replay: 0, weighted: true });
    assert.ok(Math.abs(w.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.ok(w[0]! > 3 * w[1]!);
  });

  it('never repeats a task in a batch and returns fewer when the pool is short, without filling it with retired tasks', () => {
    const pool = new TaskPool();
    for (let i = 0; i < 3; i++) addAt(pool, `a-${i}`, 0.5);
    addAt(pool, 'r-0', 0.99, { state: 'retired' });
    pool.add({ taskId: 'p-0', env: 'env', familyKey: 'fam', addedStep: 0 }); // still probing: never sampled
    for (let seed = 1; seed <= 20; seed++) {
      const batch = pool.sample(10, seed, rng(seed));
      const ids = batch.map((s) => s.taskId);
      assert.equal(new Set(ids).size, ids.length);
      assert.ok(!ids.includes('p-0'));
      assert.deepEqual(ids.filter((id) => id.startsWith('a-')).sort(), ['a-0', 'a-1', 'a-2'], 'every active task');
      assert.ok(ids.length === 3 || (ids.length === 4 && batch.some((s) => s.reason === 'replay')), ids.join());
    }
    const onlyRetired = new TaskPool();
    addAt(onlyRetired, 'r-1', 0.99, { state: 'retired' });
    assert.deepEqual(onlyRetired.sample(2, 1, rng(1)), [], 'no active task: no batch (the trainer decides what then)');
  });
});

describe('TaskPool.record', () => {
  it('retires a reliably solved task after enough observations, and replay still samples it', () => {
    const pool = new TaskPool();
    addAt(pool, 'easy', 0.5, { posterior: { alpha: 60, beta: 1, prior: { alpha: 1, beta: 1 } } });
    pool.record('easy', [1, 1, 1, 1], 1);
    assert.equal(pool.get('easy')!.state, 'active', 'mean > 0.9 but only 4 observations');
    pool.record('easy', [1, 1, 1, null, 1], 2);
    assert.equal(pool.get('easy')!.observations, 8);
    assert.equal(pool.get('easy')!.state, 'retired');
    for (let i = 0; i < 30; i++) addAt(pool, `t-${i}`, 0.5);
    const random = rng(5);
    let replays = 0;
    let slots = 0;
    for (let step = 3; step < 303; step++) {
      const batch = pool.sample(4, step, random);
      slots += batch.length;
      replays += batch.filter((s) => s.reason === 'replay' && s.taskId === 'easy').length;
    }
    assert.ok(replays > 0.05 * slots && replays < 0.15 * slots, `${replays}/${slots}`);
  });

  it('takes a task that stays unsolved out of training after enough observations', () => {
    const pool = new TaskPool();
    addAt(pool, 'hard', 0.3, { posterior: { alpha: 1.5, beta: 2.5, prior: { alpha: 1, beta: 1 } } });
    pool.record('hard', [0, 0, 0, 0], 1);
    assert.equal(pool.get('hard')!.state, 'active', 'only 4 observations');
    for (let s = 2; s <= 6 && pool.get('hard')!.state === 'active'; s++) pool.record('hard', [0, 0, 0, 0], s);
    assert.equal(pool.get('hard')!.state, 'rejected');
    addAt(pool, 'other', 0.3);
    for (let step = 7; step < 20; step++)
      assert.deepEqual(
        pool.sample(2, step, rng(step)).map((x) => x.taskId),
        ['other'],
      );
  });

  it('retires on an all-pass training group and shelves on an all-fail one, even while the mean lags', () => {
    const pool = new TaskPool();
    // A probe's 1/4 and a neutral prior: after 8/8 the discounted mean is only ~0.8.
    for (const id of ['solved', 'failed', 'mixed', 'short']) addAt(pool, id, 0.5, { posterior: { alpha: 2, beta: 4, prior: { alpha: 1, beta: 1 } } });
    pool.record('solved', [1, 1, 1, 1, 1, 1, 1, 1], 1);
    assert.ok(mean(pool.get('solved')!.posterior) < 0.9);
    assert.equal(pool.get('solved')!.state, 'retired');
    pool.record('failed', [0, 0, 0, null, 0, 0, 0, 0], 1);
    assert.equal(pool.get('failed')!.state, 'rejected');
    pool.record('mixed', [1, 1, 1, 1, 1, 1, 1, 0], 1);
    assert.equal(pool.get('mixed')!.state, 'active', 'one failure: not decisive');
    pool.record('short', [1, 1, 1, 1], 1);
    assert.equal(pool.get('short')!.state, 'active', 'a group of 4 is too small to decide');
    const off = new TaskPool({ decisiveGroup: 0 });
    addAt(off, 'solved', 0.5, { posterior: { alpha: 2, beta: 4, prior: { alpha: 1, beta: 1 } } });
    off.record('solved', [1, 1, 1, 1, 1, 1, 1, 1], 1);
    assert.equal(off.get('solved')!.state, 'active', 'rule off: the mean alone decides');
  });

  it('keeps a task below the threshold active and reactivates a regressed retired task', () => {
    const pool = new TaskPool();
    addAt(pool, 'mid', 0.5);
    for (let s = 1; s <= 5; s++) pool.record('mid', [1, 0, 1, 0], s);
    assert.equal(pool.get('mid')!.state, 'active');
    addAt(pool, 'old', 0.95, { state: 'retired' });
    for (let s = 1; s <= 10 && pool.get('old')!.state === 'retired'; s++) pool.record('old', [0, 0, 0, 0], s);
    assert.equal(pool.get('old')!.state, 'active');
  });

  it('pools results per family into the prior of new tasks', () => {
    const pool = new TaskPool();
    pool.add({ taskId: 'a', env: 'e', familyKey: 'ops/b1', addedStep: 0, state: 'active' });
    assert.deepEqual([pool.get('a')!.posterior.alpha, pool.get('a')!.posterior.beta], [1, 1]);
    pool.record('a', [1, 1, 1, 1, 1, 1, 0, 1], 1);
    const b = pool.add({ taskId: 'b', env: 'e', familyKey: 'ops/b1', addedStep: 1 });
    assert.ok(mean(b.posterior) > 0.75);
    assert.ok(Math.abs(b.posterior.alpha + b.posterior.beta - 2) < 1e-12);
    assert.equal(mean(pool.add({ taskId: 'c', env: 'e', familyKey: 'other', addedStep: 1 }).posterior), 0.5);
    pool.record('a', [null, null], 2);
    assert.equal(pool.get('a')!.observations, 8);
    assert.throws(() => pool.add({ taskId: 'a', env: 'e', familyKey: 'x', addedStep: 3 }));
  });
});

describe('TaskPool bookkeeping', () => {
  it('histograms active means and counts states', () => {
    const pool = new TaskPool();
    addAt(pool, 'a', 0.05);
    addAt(pool, 'b', 0.55);
    addAt(pool, 'c', 0.57);
    addAt(pool, 'd', 1, { state: 'retired' });
    pool.add({ taskId: 'e', env: 'e', familyKey: 'f', addedStep: 0 });
    pool.setState('e', 'rejected');
    assert.deepEqual(pool.histogram(), [1, 0, 0, 0, 0, 2, 0, 0, 0, 0]);
    assert.deepEqual(pool.histogram(2), [1, 2]);
    assert.deepEqual(pool.counts(), { probing: 0, active: 3, retired: 1, rejected: 1 });
  });

  it('round-trips through JSON to identical subsequent samples', () => {
    const pool = new TaskPool();
    const random = rng(11);
    for (let i = 0; i < 40; i++)
      pool.add({ taskId: `t-${i}`, env: `env-${i % 3}`, familyKey: `f-${i % 4}`, addedStep: 0, state: i % 10 === 0 ? 'retired' : 'active' });
    for (let step = 1; step <= 20; step++)
      for (const s of pool.sample(6, step, random)) pool.record(s.taskId, [random() < 0.5 ? 1 : 0, random() < 0.5 ? 1 : 0], step);
    const copy = TaskPool.fromJSON(JSON.parse(JSON.stringify(pool.toJSON())));
    assert.deepEqual(copy.toJSON(), pool.toJSON());
    const [ra, rb] = [rng(99), rng(99)];
    for (let step = 21; step <= 30; step++) {
      const a = pool.sample(6, step, ra);
      assert.deepEqual(copy.sample(6, step, rb), a);
      for (const s of a) {
        pool.record(s.taskId, [1, 0, 1], step);
        copy.record(s.taskId, [1, 0, 1], step);
      }
    }
    assert.deepEqual(copy.toJSON(), pool.toJSON());
  });

  it('samples uniformly for the baselines', () => {
    const pool = new TaskPool();
    for (let i = 0; i < 10; i++) addAt(pool, `mid-${i}`, 0.5);
    for (let i = 0; i < 10; i++) addAt(pool, `high-${i}`, 0.99);
    pool.add({ taskId: 'probing', env: 'e', familyKey: 'f', addedStep: 0 });
    const random = rng(4);
    let high = 0;
    for (let k = 0; k < 500; k++) {
      const batch = pool.sampleUniform(4, random);
      assert.equal(new Set(batch.map((s) => s.taskId)).size, 4);
      assert.ok(!batch.some((s) => s.taskId === 'probing'));
      high += batch.filter((s) => s.taskId.startsWith('high')).length;
    }
    assert.ok(Math.abs(high / 2000 - 0.5) < 0.05, `${high}`);
    assert.equal(pool.get('mid-0')!.samples, 0, 'no step: nothing marked');
    assert.equal(pool.sampleUniform(50, random).length, 20);
  });
});

describe('TaskPool.sample without weighting (--ablate weighting)', () => {
  it('draws frontier tasks with equal chances whatever their pass rates', () => {
    const pool = new TaskPool();
    // One task at the frontier (p = 0.5), three far from it.
    [0.5, 0.05, 0.06, 0.95].forEach((p, i) => addAt(pool, `t${i}`, p));
    const counts = (weighted: boolean) => {
      const c = new Map<string, number>();
      const random = rng(5);
      for (let i = 0; i < 4000; i++) {
        const [s] = pool.sample(1, 1, random, { weighted, replay: 0, staleness: 0 });
        c.set(s!.taskId, (c.get(s!.taskId) ?? 0) + 1);
      }
      return c;
    };
    const weighted = counts(true);
    assert.ok(weighted.get('t0')! > 2000, `learnable task drawn ${weighted.get('t0')}/4000`);
    const flat = counts(false);
    for (let i = 0; i < 4; i++) assert.ok(Math.abs(flat.get(`t${i}`)! - 1000) < 150, `t${i} drawn ${flat.get(`t${i}`)}/4000`);
  });
});
