import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FEATURE_DIM, priorWeights, type Sparse } from '../../src/policy/features.js';
import { LinearPolicy, type Decision, type PolicyCheckpoint } from '../../src/policy/linear.js';
import { rng } from '../../src/util/rng.js';
import { tempDir } from '../helpers/workspace.js';

/** A few candidates over overlapping features, some shared, one hashed-looking slot far out. */
const FEATS: Sparse[] = [
  { idx: [0, 3, 40], val: [1, 0.5, 1] },
  { idx: [1, 3], val: [1, 2] },
  { idx: [2, 40, FEATURE_DIM - 1], val: [0.25, 1, 1] },
  { idx: [], val: [] },
  { idx: [0, 1, 2], val: [-1, 1, 0.5] },
];
const SLOTS = [0, 1, 2, 3, 40, FEATURE_DIM - 1];

function randomWeights(p: LinearPolicy, seed: number): void {
  const r = rng(seed);
  for (const i of SLOTS) p.w[i] = (r() - 0.5) * 3;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('LinearPolicy.probabilities', () => {
  it('is uniform at zero weights', () => {
    const p = new LinearPolicy('zero');
    for (const x of p.probabilities(FEATS)) assert.ok(Math.abs(x - 1 / FEATS.length) < 1e-12);
  });

  it('sums to 1 and follows exp(w·φ/T)', () => {
    const p = new LinearPolicy();
    randomWeights(p, 3);
    for (const T of [1, 0.5, 2]) {
      const probs = p.probabilities(FEATS, T);
      assert.ok(Math.abs(sum(probs) - 1) < 1e-12, `T=${T}`);
      const logit = (f: Sparse) => f.idx.reduce((s, i, k) => s + p.w[i]! * f.val[k]!, 0) / T;
      // Ratios of probabilities are exp of logit differences.
      assert.ok(Math.abs(Math.log(probs[0]! / probs[1]!) - (logit(FEATS[0]!) - logit(FEATS[1]!))) < 1e-9);
    }
  });

  it('stays finite with huge logits', () => {
    const p = new LinearPolicy();
    p.w[0] = 5000;
    const probs = p.probabilities(FEATS);
    assert.ok(probs.every(Number.isFinite));
    assert.ok(Math.abs(sum(probs) - 1) < 1e-12);
    assert.ok(Number.isFinite(p.logprob({ feats: FEATS, chosen: 4, temperature: 1 })));
  });
});

describe('LinearPolicy starting weights', () => {
  it('starts at the prior, which a zero gradient leaves in place (decay pulls toward it, not toward 0)', () => {
    const p = new LinearPolicy();
    assert.deepEqual([...p.w], [...priorWeights()]);
    assert.ok(
      p.w.some((w) => w !== 0),
      'the prior has weight somewhere',
    );
    for (let i = 0; i < 20; i++) p.update(new Float64Array(FEATURE_DIM), 0.5);
    assert.deepEqual([...p.w], [...priorWeights()]);
  });

  it('decays a moved weight back toward its start', () => {
    const p = new LinearPolicy();
    const slot = p.w.findIndex((w) => w !== 0);
    p.w[slot] = p.w0[slot]! + 5;
    p.update(new Float64Array(FEATURE_DIM), 0.5);
    assert.ok(p.w[slot]! < p.w0[slot]! + 5 && p.w[slot]! > p.w0[slot]!);
  });
});

describe('LinearPolicy gradient', () => {
  for (const temperature of [1, 0.7]) {
    it(`accumulate matches a finite-difference gradient of log π(chosen) (T=${temperature})`, () => {
      const p = new LinearPolicy();
      randomWeights(p, 11);
      for (let chosen = 0; chosen < FEATS.length; chosen++) {
        const d: Decision = { feats: FEATS, chosen, temperature };
        const grad = new Float64Array(FEATURE_DIM);
        p.accumulate(d, 1, grad);
        const h = 1e-5;
        for (const i of SLOTS) {
          const w0 = p.w[i]!;
          p.w[i] = w0 + h;
          const up = p.logprob(d);
          p.w[i] = w0 - h;
          const down = p.logprob(d);
          p.w[i] = w0;
          const fd = (up - down) / (2 * h);
          assert.ok(Math.abs(grad[i]! - fd) < 1e-6, `chosen ${chosen}, slot ${i}: ${grad[i]} vs ${fd}`);
        }
        // Nothing outside the features' slots.
        grad.forEach((g, i) => {
          if (!SLOTS.includes(i)) assert.equal(g, 0, `slot ${i}`);
        });
      }
    });
  }

  it('scales and adds into the gradient it is given', () => {
    const p = new LinearPolicy();
    randomWeights(p, 5);
    const d: Decision = { feats: FEATS, chosen: 2, temperature: 1 };
    const once = new Float64Array(FEATURE_DIM);
    p.accumulate(d, 1, once);
    const twice = new Float64Array(FEATURE_DIM);
    p.accumulate(d, -0.5, twice);
    p.accumulate(d, 2.5, twice);
    for (const i of SLOTS) assert.ok(Math.abs(twice[i]! - 2 * once[i]!) < 1e-12);
  });

  it('update steps with positive advantage on one candidate raise its probability; negative lowers it', () => {
    const p = new LinearPolicy();
    const d: Decision = { feats: FEATS, chosen: 2, temperature: 1 };
    const start = p.probabilities(FEATS)[2]!;
    let last = start;
    for (let k = 0; k < 5; k++) {
      const grad = new Float64Array(FEATURE_DIM);
      p.accumulate(d, 1, grad);
      const norm = p.update(grad, 0.5);
      assert.ok(norm > 0 && Number.isFinite(norm));
      const now = p.probabilities(FEATS)[2]!;
      assert.ok(now > last, `step ${k}: ${now} <= ${last}`);
      last = now;
    }
    assert.ok(last > 2 * start, `after 5 steps ${last}`);
    assert.equal(p.step, 5);

    const q = new LinearPolicy();
    const grad = new Float64Array(FEATURE_DIM);
    q.accumulate(d, -1, grad);
    q.update(grad, 0.5);
    assert.ok(q.probabilities(FEATS)[2]! < start);
  });

  it("a step is about lr long and keeps the gradient's direction (weights with a tiny gradient barely move)", () => {
    const p = new LinearPolicy('zero');
    const grad = new Float64Array(FEATURE_DIM);
    grad[3] = 10;
    grad[7] = -1;
    grad[11] = 1e-3;
    p.update(grad, 0.5, 0);
    const len = Math.hypot(...p.w);
    assert.ok(Math.abs(len - 0.5) < 0.01, `step length ${len}`);
    assert.ok(Math.abs(p.w[3]! / p.w[7]! + 10) < 1e-9, 'relative sizes kept');
    assert.ok(Math.abs(p.w[11]!) < 1e-3, `a tiny gradient moves its weight a little, not by lr: ${p.w[11]}`);
    assert.equal(p.w[5], 0, 'no gradient, no move');
  });
});

describe('LinearPolicy.choose', () => {
  it('is deterministic for a seed and returns the exact log-probability', () => {
    const p = new LinearPolicy();
    randomWeights(p, 2);
    const run = (seed: number) => {
      const r = rng(seed);
      return Array.from({ length: 30 }, () => p.choose(FEATS, r));
    };
    const a = run(42);
    assert.deepEqual(run(42), a);
    assert.notDeepEqual(
      run(43).map((c) => c.index),
      a.map((c) => c.index),
    );
    const probs = p.probabilities(FEATS);
    for (const c of a) assert.ok(Math.abs(c.logprob - Math.log(probs[c.index]!)) < 1e-12);
  });

  it('samples in proportion to the probabilities, and greedy takes the most probable', () => {
    const p = new LinearPolicy();
    randomWeights(p, 9);
    const probs = p.probabilities(FEATS);
    const r = rng(1);
    const counts = new Array(FEATS.length).fill(0);
    const n = 4000;
    for (let k = 0; k < n; k++) counts[p.choose(FEATS, r).index]++;
    counts.forEach((c, i) => assert.ok(Math.abs(c / n - probs[i]!) < 0.04, `candidate ${i}: ${c / n} vs ${probs[i]}`));
    const g = p.choose(FEATS, () => 0.999999, 1, true);
    assert.equal(g.index, probs.indexOf(Math.max(...probs)));
  });
});

describe('LinearPolicy checkpoints', () => {
  it('round-trips weights and optimizer state through save and load', () => {
    const p = new LinearPolicy();
    const d: Decision = { feats: FEATS, chosen: 1, temperature: 1 };
    for (let k = 0; k < 3; k++) {
      const grad = new Float64Array(FEATURE_DIM);
      p.accumulate(d, 1, grad);
      p.update(grad, 0.05);
    }
    const path = join(tempDir('fn-policy-'), 'policy.json');
    p.save(path);
    const q = LinearPolicy.load(path);
    assert.deepEqual([...q.w], [...p.w]);
    assert.equal(q.step, 3);
    assert.deepEqual(q.toJSON(), p.toJSON());
    // The optimizer state came along: the next step is the same on both.
    for (const x of [p, q]) {
      const grad = new Float64Array(FEATURE_DIM);
      x.accumulate(d, 1, grad);
      x.update(grad, 0.05);
    }
    assert.deepEqual([...q.w], [...p.w]);
  });

  it('continues a checkpoint of the per-coordinate optimizer with the sum of its second moments', () => {
    const p = new LinearPolicy();
    const c = p.toJSON();
    c.adam.v = c.adam.v.map((_, i) => (i === 3 ? 0.5 : i === 9 ? 0.25 : 0));
    c.adam.t = 4;
    const q = LinearPolicy.fromJSON(c);
    assert.ok(q.toJSON().adam.v.every((x) => x === 0.75));
    assert.equal(LinearPolicy.fromJSON(q.toJSON()).toJSON().adam.v[0], 0.75, 'a checkpoint of this optimizer loads as it is');
  });

  it('refuses a checkpoint of the wrong dimension, feature version or schema, saying what it expected', () => {
    const path = join(tempDir('fn-policy-'), 'policy.json');
    new LinearPolicy().save(path);
    const good = JSON.parse(readFileSync(path, 'utf8')) as PolicyCheckpoint;
    const cases: [string, PolicyCheckpoint][] = [
      ['dimension', { ...good, weights: good.weights.slice(1) }],
      ['feature version', { ...good, featureVersion: good.featureVersion + 1 }],
      ['schema', { ...good, schema: 'someone-else/v9' as PolicyCheckpoint['schema'] }],
    ];
    for (const [what, bad] of cases) {
      writeFileSync(path, JSON.stringify(bad));
      assert.throws(() => LinearPolicy.load(path), new RegExp(`not a checkpoint of this embedded policy version.*expected ${FEATURE_DIM} weights`), what);
    }
  });
});
