import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { advantages, isDegenerate } from '../../src/rl/advantages.js';

function near(actual: (number | null)[], expected: (number | null)[], eps = 1e-5) {
  assert.equal(actual.length, expected.length);
  actual.forEach((a, i) => {
    const e = expected[i]!;
    if (e === null) assert.equal(a, null);
    else assert.ok(a !== null && Math.abs(a - e) < eps, `[${i}] ${a} ≉ ${e}`);
  });
}

const sq = (xs: (number | null)[]) => xs.reduce<number>((s, x) => s + (x ?? 0) ** 2, 0);

describe('advantages', () => {
  const r = [1, 0, 0, 0];
  it('GRPO normalises by the population std', () => {
    const std = Math.sqrt(0.1875);
    near(advantages(r, 'grpo'), [0.75 / std, -0.25 / std, -0.25 / std, -0.25 / std]);
    assert.ok(Math.abs(sq(advantages(r, 'grpo')) - 4) < 1e-4, 'ΣA² = G');
  });

  it('Dr. GRPO subtracts the mean only: ΣA² = G·p(1-p)', () => {
    near(advantages(r, 'dr-grpo'), [0.75, -0.25, -0.25, -0.25]);
    assert.ok(Math.abs(sq(advantages([1, 1, 0, 0], 'dr-grpo')) - 4 * 0.25) < 1e-12);
  });

  it('RLOO subtracts the mean of the others', () => {
    near(advantages(r, 'rloo'), [1, -1 / 3, -1 / 3, -1 / 3]);
    near(advantages([0.5, 1, 0], 'rloo'), [0, 0.75, -0.75]);
    near(advantages([1], 'rloo'), [0]);
  });

  it('leaves null rewards out of the group instead of scoring them 0', () => {
    near(advantages([1, null, 0], 'dr-grpo'), [0.5, null, -0.5]);
    near(advantages([1, null, 0], 'rloo'), [1, null, -1]);
    near(advantages([1, null, 1], 'grpo'), [0, null, 0]);
    near(advantages([null, null], 'grpo'), [null, null]);
  });

  it('gives zeros on a degenerate group', () => {
    for (const m of ['grpo', 'dr-grpo', 'rloo'] as const) near(advantages([1, 1, 1], m), [0, 0, 0]);
  });
});

describe('isDegenerate', () => {
  it('detects groups without signal', () => {
    assert.equal(isDegenerate([1, 1, 1, 1]), true);
    assert.equal(isDegenerate([0, 0]), true);
    assert.equal(isDegenerate([1, null, 1]), true);
    assert.equal(isDegenerate([1, null]), true);
    assert.equal(isDegenerate([]), true);
    assert.equal(isDegenerate([1, 0]), false);
    assert.equal(isDegenerate([0, null, 1]), false);
  });
});
