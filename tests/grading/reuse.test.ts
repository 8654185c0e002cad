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
