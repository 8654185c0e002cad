import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FEATURES_PER_POSITION, sequenceFeatures } from '../../src/tinker-dev/features.js';
import { TinyModel } from '../../src/tinker-dev/tiny-model.js';
import type { DevSampleParams } from '../../src/tinker-dev/backend.js';
import type { AdamParams, Datum, LossFn, LossFnConfig } from '../../src/tinker/types.js';
import { rng } from '../../src/util/rng.js';

interface Extra {
  weights?: number[];
  logprobs?: number[];
  advantages?: number[];
}

function datum(tokens: number[], targets: number[], extra: Extra = {}): Datum {
  const inputs: Datum['loss_fn_inputs'] = { target_tokens: { data: targets } };
  if (extra.weights) inputs.weights = { data: extra.weights };
  if (extra.logprobs) inputs.logprobs = { data: extra.logprobs };
  if (extra.advantages) inputs.advantages = { data: extra.advantages };
  return { model_input: { chunks: [{ type: 'encoded_text', tokens }] }, loss_fn_inputs: inputs };
}

const ADAM: AdamParams = { learning_rate: 0.05, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0 };
const params = (over: Partial<DevSampleParams> = {}): DevSampleParams => ({ maxTokens: 20, temperature: 1, topK: -1, topP: 1, seed: 7, stop: [], ...over });

function lossSum(model: TinyModel, data: Datum[], lossFn: LossFn, config?: LossFnConfig): number {
  return model.forwardBackward(data, lossFn, config, false).metrics['total_loss:sum']!;
}

function forwardLogprobs(model: TinyModel, d: Datum): number[] {
  return model.forwardBackward([d], 'cross_entropy', undefined, false).loss_fn_outputs[0]!.logprobs.data;
}

function closeTo(actual: number, expected: number, tol = 1e-9, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)), `${what} ${actual} != ${expected}`);
}

describe('TinyModel losses', () => {
  // A zero model with V = 4 gives every token logprob -ln 4.
  const LP = -Math.log(4);
  const d3 = datum([0, 1, 2], [1, 2, 3], { weights: [1, 0, 2], logprobs: [-1, -2, LP - Math.log(1.5)], advantages: [1, -1, 2] });
  const r0 = Math.exp(LP + 1); // ratio at token 0: e / 4 ≈ 0.68
  const r2 = 1.5; // ratio at token 2
  const zero = () => new TinyModel({ vocabSize: 4, specialIds: [0], seed: 1 });

  it('match a hand computation on a 3-token datum', () => {
    const cases: [LossFn, LossFnConfig | undefined, number[]][] = [
      ['cross_entropy', undefined, [-LP, 0, -2 * LP]],
      ['importance_sampling', undefined, [-r0 * 1, 0, -2 * r2 * 2]],
      // ppo: token 0 below the clip (0.68 < 0.8, A > 0): unclipped; token 2 above 1.2 with A > 0: clipped to 1.2.
      ['ppo', undefined, [-r0, 0, -2 * 1.2 * 2]],
      ['ppo', { clip_low_threshold: 0.5, clip_high_threshold: 2 }, [-r0, 0, -2 * r2 * 2]],
      // cispo: -w * clip(r, 0, 4) * A * logprob.
      ['cispo', undefined, [-r0 * 1 * LP, 0, -2 * r2 * 2 * LP]],
      // dppo: p - mu = 0.25 - 1/e (token 0) and 0.25 - 1/6 (token 2), inside 0.2: plain IS; delta_high 0.05 masks token 2.
      ['dppo', undefined, [-r0, 0, -2 * r2 * 2]],
      ['dppo', { delta_high: 0.05 }, [-r0, 0, 0]],
    ];
    // gspo: one ratio s for the datum, exp of the weighted mean log ratio, then ppo's rule.
    const s = Math.exp((Math.log(r0) + 2 * Math.log(r2)) / 3);
    cases.push(['gspo', undefined, [-Math.min(s, Math.min(1.2, Math.max(0.8, s))), 0, -2 * Math.min(2 * s, 2 * Math.min(1.2, Math.max(0.8, s)))]]);
    for (const [lossFn, config, expected] of cases) {
      const out = zero().forwardBackward([d3], lossFn, config, false);
      const got = out.loss_fn_outputs[0]!;
      got.logprobs.data.forEach((lp) => closeTo(lp, LP, 1e-12, `${lossFn} logprob`));
      expected.forEach((e, i) => closeTo(got.elementwise_loss.data[i]!, e, 1e-12, `${lossFn} ${JSON.stringify(config)} token ${i}`));
      closeTo(out.metrics['total_loss:sum']!, expected[0]! + expected[1]! + expected[2]!, 1e-12, `${lossFn} sum`);
      assert.equal(out.loss_fn_output_type, 'scalar');
    }
  });

  it('give gradients that agree with finite differences', () => {
    const V = 7;
    const make = () => new TinyModel({ vocabSize: V, specialIds: [0], seed: 3, buckets: 64, initScale: 0.4 });
    const random = rng(11);
    const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
    const tokens = [0, ...Array.from({ length: 9 }, () => 1 + Math.floor(random() * (V - 1)))];
    const targets = [...tokens.slice(1), 3];
    const weights = tokens.map((_, i) => (i === 2 ? 0 : pick([0.5, 1, 2])));
    const advantages = tokens.map(() => pick([-1.5, -0.5, 0.7, 2]));
    const current = forwardLogprobs(make(), datum(tokens, targets));
    // Sampling logprobs a little off the current ones: ratios 1.65, 1.05, 0.95, 0.61, away from every clip edge.
    const logprobs = current.map((lp) => lp + pick([-0.5, -0.05, 0.05, 0.5]));
    const data = [datum(tokens, targets, { weights, logprobs, advantages })];
    const h = 1e-6;

    // cispo and gspo stop the gradient through their coefficients, so their check differentiates
    // sum(coeff_i * logprob_i) with the coefficients held at their hand-computed values.
    const ratios = current.map((lp, i) => Math.exp(lp - logprobs[i]!));
    const logS = weights.reduce((acc, w, i) => acc + w * Math.log(ratios[i]!), 0) / weights.reduce((a, b) => a + b, 0);
    const s = Math.exp(logS);
    const coeffs: Partial<Record<LossFn, number[]>> = {
      cispo: weights.map((w, i) => -w * Math.min(4, ratios[i]!) * advantages[i]!),
      gspo: weights.map((w, i) => (s * advantages[i]! <= Math.min(1.2, Math.max(0.8, s)) * advantages[i]! ? -w * s * advantages[i]! : 0)),
    };
    const cases: [LossFn, LossFnConfig | undefined][] = [
      ['cross_entropy', undefined],
      ['importance_sampling', undefined],
      ['ppo', undefined],
      ['dppo', { delta_low: 0.03, delta_high: 0.03 }],
      ['cispo', undefined],
      ['gspo', undefined],
    ];
    for (const [lossFn, config] of cases) {
      const model = make();
      model.forwardBackward(data, lossFn, config, true);
      const rows = model.testOnlyGradientRows();
      assert.ok(rows.length > 0, `${lossFn}: no gradient`);
      const objective = (): number => {
        const c = coeffs[lossFn];
        if (!c) return lossSum(model, data, lossFn, config);
        return forwardLogprobs(model, data[0]!).reduce((acc, lp, i) => acc + c[i]! * lp, 0);
      };
      let checked = 0;
      for (const row of rows.slice(0, 6)) {
        for (const col of [0, 3, 5]) {
          const analytic = model.testOnlyGradient(row, col);
          model.testOnlyNudgeWeight(row, col, h);
          const up = objective();
          model.testOnlyNudgeWeight(row, col, -2 * h);
          const down = objective();
          model.testOnlyNudgeWeight(row, col, h);
          const numeric = (up - down) / (2 * h);
          assert.ok(Math.abs(numeric - analytic) <= 1e-6 + 1e-5 * Math.abs(analytic), `${lossFn} row ${row} col ${col}: ${analytic} vs ${numeric}`);
          if (analytic !== 0) checked++;
        }
      }
      assert.ok(checked >= 6, `${lossFn}: only ${checked} nonzero gradients checked`);
    }
  });

  it('ppo passes no gradient where the clipped branch is the minimum', () => {
    const lp = -Math.log(5);
    const gradRows = (ratio: number, advantage: number, config?: LossFnConfig): number => {
      const model = new TinyModel({ vocabSize: 5, specialIds: [0], seed: 1 });
      const q = lp - Math.log(ratio);
      model.forwardBackward([datum([0, 1], [1, 2], { logprobs: [q, q], advantages: [advantage, advantage] })], 'ppo', config, true);
      return model.testOnlyGradientRows().length;
    };
    assert.equal(gradRows(2, 1), 0, 'ratio 2 > 1.2 with A > 0');
    assert.equal(gradRows(0.5, -1), 0, 'ratio 0.5 < 0.8 with A < 0');
    assert.ok(gradRows(0.5, 1) > 0, 'ratio 0.5 with A > 0 is unclipped');
    assert.ok(gradRows(2, -1) > 0, 'ratio 2 with A < 0 is unclipped');
    assert.ok(gradRows(2, 1, { clip_low_threshold: 0.5, clip_high_threshold: 3 }) > 0, 'inside wider custom bounds');
  });

  it('importance_sampling raises a rewarded choice, and weight-0 tokens add no gradient', () => {
    const V = 16;
    const model = new TinyModel({ vocabSize: V, specialIds: [0], seed: 2 });
    const prompt = [0, 5, 6, 7];
    const choices = [8, 9, 10];
    const advantages = [1, -0.5, -0.5];
    const candidate = (c: number, i: number): Datum =>
      datum(prompt, [...prompt.slice(1), c], { weights: [0, 0, 0, 1], logprobs: [0, 0, 0, -Math.log(V)], advantages: [5, 5, 5, advantages[i]!] });
    const probOf = (c: number): number => Math.exp(forwardLogprobs(model, datum(prompt, [...prompt.slice(1), c]))[3]!);
    const before = choices.map(probOf);

    const out = model.forwardBackward(choices.map(candidate), 'importance_sampling', undefined, true);
    for (const o of out.loss_fn_outputs) assert.deepEqual(o.elementwise_loss.data.slice(0, 3), [0, 0, 0]);
    const features = sequenceFeatures(prompt, new Set([0]), model.buckets);
    const lastRows = [...new Set(features.slice(3 * FEATURES_PER_POSITION, 4 * FEATURES_PER_POSITION))].sort((a, b) => a - b);
    assert.deepEqual(model.testOnlyGradientRows(), lastRows, 'only the weighted position has gradient rows');
    model.optimStep(ADAM);
    const after = choices.map(probOf);
    assert.ok(after[0]! > before[0]!, `rewarded choice ${before[0]} -> ${after[0]}`);
    assert.ok(after[1]! < before[1]! && after[2]! < before[2]!, 'penalised choices fall');

    // A datum whose weights are all 0 leaves the gradient empty.
    const quiet = new TinyModel({ vocabSize: V, specialIds: [0], seed: 2 });
    quiet.forwardBackward(
      [datum(prompt, [...prompt.slice(1), 8], { weights: [0, 0, 0, 0], logprobs: [0, 0, 0, 0], advantages: [1, 1, 1, 1] })],
      'importance_sampling',
      undefined,
      true,
    );
    assert.deepEqual(quiet.testOnlyGradientRows(), []);
  });

  it('optim_step is AdamW: a first step moves each weight by lr against its gradient, and decay is decoupled', () => {
    // Weights read back from a checkpoint: row -> base64 little-endian float64s.
    const weightOf = (m: TinyModel, row: number, col: number): number => {
      const entry = (m.save(false) as { weights: [number, string][] }).weights.find(([r]) => r === row);
      return entry ? Buffer.from(entry[1], 'base64').readDoubleLE(col * 8) : 0;
    };
    const model = new TinyModel({ vocabSize: 4, specialIds: [0], seed: 1, buckets: 32 });
    model.forwardBackward([datum([0, 1], [1, 2])], 'cross_entropy', undefined, true);
    const rows = model.testOnlyGradientRows();
    const idle = [...Array(32).keys()].find((r) => !rows.includes(r))!;
    model.testOnlyNudgeWeight(idle, 1, 2); // a nonzero row without gradient: only weight decay moves it
    const grads = rows.map((r) => [0, 1, 2, 3].map((c) => model.testOnlyGradient(r, c)));
    const metrics = model.optimStep({ ...ADAM, learning_rate: 0.1, weight_decay: 0.5 });
    closeTo(metrics['skyrl.ai/grad_norm']!, Math.sqrt(grads.flat().reduce((a, g) => a + g * g, 0)), 1e-12, 'grad norm');
    // Step 1 from zero: m̂ = g, v̂ = g², so w = -lr * g / (|g| + eps).
    rows.forEach((r, k) =>
      [0, 1, 2, 3].forEach((c) => closeTo(weightOf(model, r, c), (-0.1 * grads[k]![c]!) / (Math.abs(grads[k]![c]!) + 1e-8), 1e-9, `row ${r} col ${c}`)),
    );
    closeTo(weightOf(model, idle, 1), 2 * (1 - 0.1 * 0.5), 1e-12, 'decayed row');
  });
});

describe('TinyModel training and sampling', () => {
  it('memorises a fixed 40-token output with cross_entropy, reproduced by greedy sampling', () => {
    const V = 64;
    const model = new TinyModel({ vocabSize: V, specialIds: [0, 1, 2], seed: 5 });
    const random = rng(99);
    const prompt = [0, 10, 11, 12, 2];
    const output = [...Array.from({ length: 39 }, () => 3 + Math.floor(random() * (V - 3))), 1];
    const full = [...prompt, ...output];
    const d = datum(full.slice(0, -1), full.slice(1), { weights: full.slice(1).map((_, i) => (i < prompt.length - 1 ? 0 : 1)) });
    const greedy = () => model.sample(prompt, 1, params({ temperature: 0, maxTokens: 60, stop: [1] }))[0]!;
    let steps = 0;
    while (steps < 200 && greedy().tokens.join() !== output.join()) {
      model.forwardBackward([d], 'cross_entropy', undefined, true);
      model.optimStep(ADAM);
      steps++;
    }
    const seq = greedy();
    assert.deepEqual(seq.tokens, output, `not memorised after ${steps} steps`);
    assert.equal(seq.stop_reason, 'stop');
  });

  const trained = (): TinyModel => {
    const model = new TinyModel({ vocabSize: 20, specialIds: [0, 1], seed: 4, buckets: 256, initScale: 1 });
    model.forwardBackward([datum([0, 3, 4, 5, 6], [3, 4, 5, 6, 1])], 'cross_entropy', undefined, true);
    model.optimStep(ADAM);
    return model;
  };

  it('samples deterministically by seed, with stop tokens and max_tokens', () => {
    const model = trained();
    const a = model.sample([0, 3], 4, params({ maxTokens: 30 }));
    assert.deepEqual(model.sample([0, 3], 4, params({ maxTokens: 30 })), a);
    assert.notDeepEqual(model.sample([0, 3], 4, params({ maxTokens: 30, seed: 8 })), a);
    assert.ok(new Set(a.map((s) => s.tokens.join())).size > 1, 'the n samples differ');
    for (const s of a) {
      assert.equal(s.stop_reason, 'length');
      assert.equal(s.tokens.length, 30);
    }
    const greedy = model.sample([0, 3], 3, params({ temperature: 0 }));
    assert.ok(greedy.every((s) => s.tokens.join() === greedy[0]!.tokens.join()));
    assert.deepEqual(model.sample([0, 3], 1, params({ topK: 1 }))[0]!.tokens, greedy[0]!.tokens);
    const stopAt = a[0]!.tokens[5]!;
    const stopped = model.sample([0, 3], 1, params({ maxTokens: 30, stop: [stopAt] }))[0]!;
    assert.equal(stopped.stop_reason, 'stop');
    assert.equal(stopped.tokens.at(-1), stopAt);
    assert.equal(stopped.tokens.indexOf(stopAt), stopped.tokens.length - 1);
    assert.deepEqual(model.sample([0, 3], 1, params({ maxTokens: 0 })), [{ tokens: [], logprobs: [], stop_reason: 'length' }]);
  });

  it('returns sample logprobs equal to the forward logprobs of the same tokens (raw model, temperature 1)', () => {
    const model = trained();
    const prompt = [0, 3, 4];
    for (const s of model.sample(prompt, 3, params({ temperature: 0.7, topK: 5, topP: 0.9, maxTokens: 25 }))) {
      const lps = forwardLogprobs(model, datum([...prompt, ...s.tokens.slice(0, -1)], [...prompt.slice(1), ...s.tokens]));
      s.logprobs!.forEach((lp, i) => closeTo(lp ?? Number.NaN, lps[prompt.length - 1 + i]!, 1e-12, `token ${i}`));
    }
  });

  it('forward_backward on a 3000-token datum at V = 300 takes well under a second', (t) => {
    const V = 300;
    const model = new TinyModel({ vocabSize: V, specialIds: [0, 1], seed: 1 });
    const random = rng(3);
    const seq = Array.from({ length: 3001 }, (_, i) => (i % 200 === 0 ? 1 : 2 + Math.floor(random() * (V - 2))));
    const d = datum(seq.slice(0, -1), seq.slice(1));
    const times: number[] = [];
    for (let r = 0; r < 4; r++) {
      const start = performance.now();
      model.forwardBackward([d], 'cross_entropy', undefined, true);
      times.push(performance.now() - start);
      model.optimStep(ADAM);
    }
    t.diagnostic(`forward_backward ms: ${times.map((x) => x.toFixed(0)).join(', ')}`);
    assert.ok(Math.min(...times.slice(1)) < 1000);
  });
});

describe('TinyModel checkpoints and clones', () => {
  const V = 12;
  const make = () => new TinyModel({ vocabSize: V, specialIds: [0], seed: 6, buckets: 128 });
  const d = datum([0, 3, 4, 5, 6, 7], [3, 4, 5, 6, 7, 8]);
  const step = (m: TinyModel) => {
    m.forwardBackward([d], 'cross_entropy', undefined, true);
    m.optimStep(ADAM);
  };

  it('save/load round-trips weights and optimizer state through JSON', () => {
    const a = make();
    for (let i = 0; i < 3; i++) step(a);
    const saved = JSON.parse(JSON.stringify(a.save(true))) as unknown;
    const b = make();
    b.load(saved, true);
    assert.deepEqual(forwardLogprobs(b, d), forwardLogprobs(a, d));
    step(a);
    step(b);
    assert.deepEqual(b.save(true), a.save(true), 'the same next step: the Adam moments and step count came back');

    const fresh = make();
    fresh.load(a.save(false), false);
    assert.deepEqual(forwardLogprobs(fresh, d), forwardLogprobs(a, d));
    step(a);
    step(fresh);
    assert.notDeepEqual(forwardLogprobs(fresh, d), forwardLogprobs(a, d), 'without the optimizer the step differs');
    assert.throws(() => make().load(a.save(false), true), /no optimizer state/);
  });

  it('rejects a checkpoint of another shape or with broken rows', () => {
    const saved = make().save(true) as Record<string, unknown>;
    assert.throws(() => new TinyModel({ vocabSize: V + 1, specialIds: [0], seed: 6, buckets: 128 }).load(saved, true), /another shape/);
    assert.throws(() => make().load({ ...saved, format: 'x' }, true), /format/);
    assert.throws(() => make().load({ ...saved, weights: [[500, '']] }, true), /row index 500/);
    assert.throws(() => make().load({ ...saved, weights: [[1, 'AAAA']] }, true), /base64 of 12 float64/);
    assert.throws(() => make().load(null, true), /must be an object/);
  });

  it('clone is a frozen deep copy', () => {
    const a = make();
    step(a);
    const c = a.clone();
    assert.deepEqual(forwardLogprobs(c, d), forwardLogprobs(a, d));
    assert.deepEqual(c.sample([0, 3], 2, params()), a.sample([0, 3], 2, params()));
    const before = forwardLogprobs(c, d);
    step(a);
    assert.deepEqual(forwardLogprobs(c, d), before, 'training the original leaves the clone');
    assert.throws(() => c.forwardBackward([d], 'cross_entropy', undefined, true), /frozen/);
    assert.throws(() => c.optimStep(ADAM), /frozen/);
    assert.throws(() => c.load(a.save(false), false), /frozen/);
  });
});

describe('TinyModel input checks', () => {
  const model = () => new TinyModel({ vocabSize: 10, specialIds: [0], seed: 1 });
  it('throws clear errors for bad datums and leaves no partial gradient', () => {
    const m = model();
    const good = datum([0, 1], [1, 2]);
    const bad: [Datum, RegExp][] = [
      [datum([0, 10], [1, 2]), /input token 10 at 1 is outside the vocabulary/],
      [datum([0, -1], [1, 2]), /input token -1/],
      [datum([0, 1.5], [1, 2]), /input token 1.5/],
      [datum([0, 1], [1, 12]), /target token 12 at 1/],
      [datum([0, 1], [1]), /target_tokens has 1 values for 2 input tokens/],
      [datum([0, 1], [1, 2], { weights: [1] }), /weights has 1 values/],
      [datum([], []), /no tokens/],
    ];
    for (const [d, message] of bad) assert.throws(() => m.forwardBackward([good, d], 'cross_entropy', undefined, true), message);
    assert.deepEqual(m.testOnlyGradientRows(), []);
    assert.throws(() => m.forwardBackward([good], 'ppo', undefined, true), /needs loss_fn_inputs.logprobs/);
    assert.throws(() => m.forwardBackward([datum([0, 1], [1, 2], { logprobs: [0, 0] })], 'importance_sampling', undefined, true), /advantages/);
    assert.throws(() => m.forwardBackward([good], 'ppo_critic', undefined, true), /ppo_critic.*not supported by the dev model/);
    assert.throws(() => m.forwardBackward([good], 'ppo', { delta_low: 0.1 }, true), /not accepted by loss_fn 'ppo'/);
    assert.throws(() => m.forwardBackward([good], 'cross_entropy', { clip_low_threshold: 0.1 }, true), /accepted: none/);
    assert.throws(() => m.sample([0, 10], 1, params()), /prompt token 10/);
    assert.throws(() => m.sample([0], 0, params()), /num_samples/);
    assert.throws(() => m.optimStep({ ...ADAM, beta1: 1 }), /invalid adam_params/);
    assert.throws(() => new TinyModel({ vocabSize: 10, specialIds: [10], seed: 1 }), /special id 10/);
  });
});
