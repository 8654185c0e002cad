import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResultReuse, ReuseKind, VERIFIER_VERSION } from '../../src/grading/reuse.js';

describe('results reused by content', () => {
  const RUNS = new ReuseKind<{ passed: number }>('suite');
  const VERDICTS = new ReuseKind<string>('verdict');

  it('returns what was kept under the same key, and counts hits and misses by kind', () => {
    const store = new ResultReuse();
    const key = RUNS.key(['tree-digest', 'command']);
    assert.equal(RUNS.get(store, key), undefined);
    RUNS.set(store, key, { passed: 3 }, 10);
    assert.deepEqual(RUNS.get(store, key), { passed: 3 });
    assert.deepEqual(store.counts.suite, { hits: 1, misses: 1 });
    assert.deepEqual(store.counts.verdict, { hits: 0, misses: 0 });
  });

  it('waits for a result being computed for the same key instead of computing it again', async () => {
    const store = new ResultReuse();
    const key = RUNS.key(['same content']);
    let computed = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      computed++;
      await gate;
      return { passed: 5 };
    };
    const first = RUNS.through(store, key, compute, { keep: () => 10 });
    const second = RUNS.through(store, key, compute, { keep: () => 10 });
    release();
    const [a, b] = await Promise.all([first, second]);
    assert.equal(computed, 1);
    assert.deepEqual([a.reused, b.reused], [false, true]);
    assert.deepEqual(b.value, { passed: 5 });
    assert.deepEqual(store.counts.suite, { hits: 1, misses: 1 });
    assert.equal((await RUNS.through(store, key, compute, { keep: () => 10 })).reused, true, 'then kept');
  });

  it('a waiter computes its own when the awaited result is not kept or fails', async () => {
    const store = new ResultReuse();
    for (const outcome of ['timeout', 'throws'] as const) {
      const key = RUNS.key([outcome]);
      let calls = 0;
      const compute = async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 10));
        if (calls === 1 && outcome === 'throws') throw new Error('infrastructure');
        return { passed: calls === 1 ? -1 : 7 };
      };
      const keep = (v: { passed: number }) => (v.passed >= 0 ? 10 : null);
      const first = RUNS.through(store, key, compute, { keep }).catch((err: unknown) => err);
      const second = await RUNS.through(store, key, compute, { keep });
      await first;
      assert.equal(calls, 2, outcome);
      assert.deepEqual(second, { value: { passed: 7 }, reused: false });
    }
  });

  it('keys by kind, verifier version and every part', () => {
    assert.notEqual(RUNS.key(['a', 'b']), RUNS.key(['a', 'c']));
    assert.notEqual(RUNS.key(['ab']), RUNS.key(['a', 'b']), 'parts are separated');
    assert.notEqual(RUNS.key(['a']), VERDICTS.key(['a']));
    assert.ok(Number.isInteger(VERIFIER_VERSION) && VERIFIER_VERSION >= 1);
  });

  it('keeps stores apart: a result kept in one is not in another', () => {
    const a = new ResultReuse();
    const b = new ResultReuse();
    const key = VERDICTS.key(['x']);
    VERDICTS.set(a, key, 'pass', 1);
    assert.equal(VERDICTS.get(b, key), undefined);
    assert.equal(VERDICTS.get(a, key), 'pass');
  });

  it('drops the least recently used past its byte budget', () => {
    const store = new ResultReuse(100);
    const k = (n: number) => RUNS.key([String(n)]);
    RUNS.set(store, k(1), { passed: 1 }, 40);
    RUNS.set(store, k(2), { passed: 2 }, 40);
    assert.ok(RUNS.get(store, k(1)), 'touched: now the most recent');
    RUNS.set(store, k(3), { passed: 3 }, 40);
    assert.equal(RUNS.get(store, k(2)), undefined, 'the least recently used went');
    assert.ok(RUNS.get(store, k(1)) && RUNS.get(store, k(3)));
  });
});
