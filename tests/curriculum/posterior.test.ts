import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FamilyStats, decay, learnability, mean, observe, posterior, variance } from '../../src/curriculum/posterior.js';

const close = (a: number, b: number, eps = 1e-12) => assert.ok(Math.abs(a - b) < eps, `${a} ≉ ${b}`);

describe('Beta posterior', () => {
  it('discounts old evidence toward the prior, then adds the new counts', () => {
    let p = posterior({ alpha: 1, beta: 1 });
    p = observe(p, 3, 1, 0.5); // nothing to discount yet
    assert.deepEqual([p.alpha, p.beta], [4, 2]);
    p = observe(p, 0, 2, 0.5); // 1 + 3·0.5 = 2.5, 1 + 1·0.5 + 2 = 3.5
    assert.deepEqual([p.alpha, p.beta], [2.5, 3.5]);
    assert.deepEqual(p.prior, { alpha: 1, beta: 1 });
    const back = decay(p, 1e-9);
    close(back.alpha, 1, 1e-8);
    close(back.beta, 1, 1e-8);
    assert.deepEqual(observe(p, 0, 0, 1), p, 'discount 1 and no counts change nothing');
    assert.throws(() => observe(p, 1, 0, 0));
    assert.throws(() => observe(p, 1, 0, 1.5));
  });

  it('does not mutate its input', () => {
    const p = posterior();
    observe(p, 5, 5);
    assert.deepEqual([p.alpha, p.beta], [1, 1]);
  });

  it('computes mean, variance and expected learnability', () => {
    const b = { alpha: 3, beta: 7 };
    close(mean(b), 0.3);
    close(variance(b), 21 / (100 * 11));
    close(learnability(b), 21 / (10 * 11));
    close(learnability(b), mean(b) * (1 - mean(b)) - variance(b));
    // Peaks for a confident p = 0.5; tiny for confident extremes.
    assert.ok(learnability({ alpha: 50, beta: 50 }) > learnability({ alpha: 1, beta: 1 }));
    assert.ok(learnability({ alpha: 1, beta: 1 }) > learnability({ alpha: 95, beta: 5 }));
    close(learnability({ alpha: 95, beta: 5 }), learnability({ alpha: 5, beta: 95 }));
  });
});

describe('FamilyStats', () => {
  it('gives a neutral Beta(1, 1) prior without data', () => {
    assert.deepEqual(new FamilyStats().prior('x'), { alpha: 1, beta: 1 });
  });

  it('centres a fixed-strength prior on the pooled mean', () => {
    const fs = new FamilyStats(0.9, 2);
    fs.record('ops/b1', 8, 0, 0);
    fs.record('ops/b1', 7, 1, 0);
    const pr = fs.prior('ops/b1');
    close(pr.alpha + pr.beta, 2);
    close(mean(pr), 16 / 18);
    close(mean(fs.prior('other')), 0.5);
  });

  it('decays per elapsed step, not per record', () => {
    const a = new FamilyStats(0.5);
    a.record('k', 4, 0, 0);
    a.record('k', 4, 0, 0);
    assert.equal(a.at('k')!.successes, 8);
    assert.equal(a.at('k', 2)!.successes, 2);
    a.record('k', 0, 2, 1); // 8·0.5 = 4 successes survive one step
    assert.deepEqual(a.at('k'), { successes: 4, failures: 2, step: 1 });
  });

  it('round-trips through JSON', () => {
    const a = new FamilyStats(0.8, 3);
    a.record('k', 2, 3, 4);
    const b = FamilyStats.fromJSON(JSON.parse(JSON.stringify(a.toJSON())));
    assert.deepEqual(b.toJSON(), a.toJSON());
    assert.deepEqual(b.prior('k', 6), a.prior('k', 6));
  });
});
