// Tinker datums from hand-built token trajectories: one datum per rollout,
// input position i predicting token i+1, weight 1 exactly on the sampled
// tokens the loss mask trains, the sampler's logprobs and the advantage on
// them; nothing from a rollout without signal or reward; a history that was
// re-tokenized (sampled tokens not where their prompt ended) refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { episodeTokens, groupDatums, rolloutDatum, tokenFigures } from '../../src/lm/datums.js';
import type { Rollout, ScoredGroup, TokenTurn, Trajectory } from '../../src/rl/contract.js';

const EOT = 2;
const W = 'tinker://run/sampler_weights/v0';

/** A turn as LmActor leaves it: the transcript's turn plus the sampler's weights name. */
function turn(promptTokens: number[], sampledTokens: number[], logprobs: number[], lossMask = sampledTokens.map(() => 1)): TokenTurn {
  return { promptTokens, sampledTokens, logprobs, lossMask, weights: W };
}

// Turn 1: prompt [10 11 12], sampled [20 21] and the end-of-turn token the
// transcript appended unsampled (mask 0, logprob 0). Turn 2's prompt extends
// turn 1's prompt and sampled tokens with a tool result [30 31]; it samples
// [40 41] and is cut by the token limit (no end-of-turn).
const T1 = turn([10, 11, 12], [20, 21, EOT], [-0.1, -0.2, 0], [1, 1, 0]);
const T2 = turn([10, 11, 12, 20, 21, EOT, 30, 31], [40, 41], [-0.3, -0.4]);
const SEQUENCE = [10, 11, 12, 20, 21, EOT, 30, 31, 40, 41];
// Per target (tokens[1..9]): 11 12 20 21 EOT 30 31 40 41.
const TARGET_WEIGHTS = [0, 0, 1, 1, 0, 0, 0, 1, 1];
const TARGET_LOGPROBS = [0, 0, -0.1, -0.2, 0, 0, 0, -0.3, -0.4];

function rollout(
  turns: (TokenTurn | undefined)[],
  o: { reward?: number | null; stopReason?: Trajectory<TokenTurn>['stopReason']; taskId?: string } = {},
): Rollout<TokenTurn> {
  return {
    taskId: o.taskId ?? 'task-a',
    trajectory: { turns: turns.map((t) => (t ? { tools: ['Write'], learner: t } : { tools: [] })), stopReason: o.stopReason ?? 'submitted' },
    reward: o.reward === undefined ? 1 : o.reward,
    policyVersion: 0,
    steps: turns.length,
    ms: 0,
    verifyMs: 0,
    cached: false,
  };
}

function group(rollouts: Rollout<TokenTurn>[], advantages: (number | null)[], taskId = 'task-a'): ScoredGroup<TokenTurn> {
  return { taskId, rollouts, advantages, degenerate: false };
}

/** -0 and 0 compare unequal under deepStrictEqual; a weight of 0 times a negative advantage is -0. */
const plain = (xs: number[]) => xs.map((x) => x + 0);

describe('episodeTokens', () => {
  it("is the last turn's prompt plus its sampled tokens, with every turn's mask and logprobs at its offsets", () => {
    const ep = episodeTokens(rollout([T1, T2]))!;
    assert.deepEqual(ep.tokens, SEQUENCE);
    assert.deepEqual(ep.weights, [0, 0, 0, 1, 1, 0, 0, 0, 1, 1]);
    assert.deepEqual(ep.logprobs, [0, 0, 0, -0.1, -0.2, 0, 0, 0, -0.3, -0.4]);
  });

  it('skips turns without token data, and is undefined when there are none', () => {
    assert.deepEqual(episodeTokens(rollout([T1, undefined, T2]))?.tokens, SEQUENCE);
    assert.equal(episodeTokens(rollout([undefined])), undefined);
    assert.equal(episodeTokens(rollout([])), undefined);
  });

  it('refuses a history whose sampled tokens are not where their prompt ended (re-tokenized)', () => {
    // Turn 1 sampled [20 21 EOT]; the history turn 2 was prompted with holds them re-tokenized as [22 EOT].
    const retokenized = turn([10, 11, 12, 22, EOT, 30, 31], [40, 41], [-0.3, -0.4]);
    assert.throws(
      () => episodeTokens(rollout([T1, retokenized], { taskId: 'task-r' })),
      /rollout of task-r: a turn's sampled tokens are not where its prompt ends/,
    );
    // A turn whose sampled tokens run past the end of the final sequence.
    const shorter = turn([10, 11], [20], [-0.1]);
    assert.throws(() => episodeTokens(rollout([T1, shorter])), /not where its prompt ends/);
    // A history shifted by one token: same tokens, other offsets.
    const shifted = turn([9, 10, 11, 12, 20, 21, EOT, 30], [40], [-0.3]);
    assert.throws(() => episodeTokens(rollout([T1, shifted])), /not where its prompt ends/);
    assert.throws(() => rolloutDatum(rollout([T1, retokenized]), 1), /not where its prompt ends/);
  });
});

describe('rolloutDatum', () => {
  it('inputs tokens[0..n-2], targets tokens[1..n-1], weight 1 on trained sampled targets only, logprobs and advantages aligned', () => {
    const d = rolloutDatum(rollout([T1, T2]), 0.5)!;
    assert.deepEqual(d.model_input, { chunks: [{ type: 'encoded_text', tokens: SEQUENCE.slice(0, -1) }] });
    const f = d.loss_fn_inputs;
    assert.deepEqual(f.target_tokens, { data: SEQUENCE.slice(1), dtype: 'int64' });
    assert.deepEqual(f.weights, { data: TARGET_WEIGHTS, dtype: 'float32' });
    assert.deepEqual(f.logprobs, { data: TARGET_LOGPROBS, dtype: 'float32' });
    assert.deepEqual(f.advantages, { data: TARGET_WEIGHTS.map((w) => (w ? 0.5 : 0)), dtype: 'float32' });
    // The unsampled end-of-turn token of turn 1 is a target, weighted 0.
    const eot = f.target_tokens.data.indexOf(EOT);
    assert.equal(f.weights!.data[eot], 0);
    assert.equal(f.advantages!.data[eot], 0);
    // Every array the loss reads has one entry per input position.
    for (const k of ['target_tokens', 'weights', 'logprobs', 'advantages'] as const) assert.equal(f[k]!.data.length, SEQUENCE.length - 1, k);
  });

  it('carries a negative advantage on the weighted targets only', () => {
    const f = rolloutDatum(rollout([T1, T2]), -1.25)!.loss_fn_inputs;
    assert.deepEqual(plain(f.advantages!.data), [0, 0, -1.25, -1.25, 0, 0, 0, -1.25, -1.25]);
  });

  it('honours a loss mask of 0 on a sampled token', () => {
    const masked = turn(T2.promptTokens, [40, 41], [-0.3, -0.4], [0, 1]);
    const f = rolloutDatum(rollout([T1, masked]), 1)!.loss_fn_inputs;
    assert.deepEqual(f.weights!.data, [0, 0, 1, 1, 0, 0, 0, 0, 1]);
    assert.deepEqual(f.advantages!.data, [0, 0, 1, 1, 0, 0, 0, 0, 1]);
  });

  it('gives none for a rollout with nothing to train on', () => {
    assert.equal(rolloutDatum(rollout([]), 1), undefined, 'no token turns');
    assert.equal(rolloutDatum(rollout([turn([], [7], [-0.1])]), 1), undefined, 'one token: no target');
    assert.equal(rolloutDatum(rollout([turn([1, 2], [EOT], [0], [0])]), 1), undefined, 'no weighted target');
  });
});

describe('groupDatums', () => {
  it('one datum per rollout with a reward and a non-zero advantage, in group order', () => {
    const a = rollout([T1, T2], { reward: 1 });
    const b = rollout([turn([10, 11, 12], [50, 51], [-0.5, -0.6])], { reward: 0 });
    const zero = rollout([T1, T2], { reward: 0.5 });
    const infra = rollout([T1, T2], { reward: null, stopReason: 'infra-error' });
    const g2 = rollout([turn([10], [60, 61], [-0.7, -0.8])], { reward: 0, taskId: 'task-b' });
    const datums = groupDatums([group([a, zero, b, infra], [0.5, 0, -0.5, null]), group([g2], [-1], 'task-b')]);
    assert.equal(datums.length, 3);
    assert.deepEqual(
      datums.map((d) => d.loss_fn_inputs.target_tokens.data),
      [SEQUENCE.slice(1), [11, 12, 50, 51], [60, 61]],
    );
    assert.deepEqual(plain(datums[1]!.loss_fn_inputs.advantages!.data), [0, 0, -0.5, -0.5]);
    assert.deepEqual(datums[2]!.loss_fn_inputs.advantages!.data, [-1, -1]);
  });

  it('never trains on a null-reward rollout, even one given an advantage', () => {
    const infra = rollout([T1, T2], { reward: null, stopReason: 'infra-error' });
    assert.deepEqual(groupDatums([group([infra], [1])]), []);
    assert.deepEqual(groupDatums([group([infra, infra], [null, undefined as unknown as null])]), []);
  });

  it('gives none for zero advantages (a degenerate group)', () => {
    const r = rollout([T1, T2]);
    assert.deepEqual(groupDatums([{ ...group([r, r], [0, 0]), degenerate: true }]), []);
  });
});

describe('tokenFigures', () => {
  it("counts the episodes' tokens, the sampled tokens and the share cut by the token or context limit", () => {
    const rs = [
      rollout([T1, T2], { stopReason: 'turn-token-limit' }), // 10 tokens, 3 + 2 sampled
      rollout([turn([10, 11, 12], [50, 51], [-0.5, -0.6])], { stopReason: 'context-limit' }), // 5 tokens, 2 sampled
      rollout([turn([10], [60, EOT], [-0.7, 0], [1, 0])], { stopReason: 'submitted' }), // 3 tokens, 2 sampled
      rollout([], { reward: null, stopReason: 'infra-error' }), // nothing
      rollout([turn([10], [70], [-0.1])], { stopReason: 'step-limit' }), // 2 tokens, 1 sampled
    ];
    const f = tokenFigures([group(rs.slice(0, 2), [1, -1]), group(rs.slice(2), [0, null, 0], 'task-b')]);
    assert.deepEqual(f, {
      tokens: 20,
      sampledTokens: 10,
      meanResponseTokens: 2,
      truncationShare: 2 / 5,
      rollouts: 5,
      truncated: 2,
    });
  });

  it('is all zeros for no rollouts', () => {
    assert.deepEqual(tokenFigures([]), { tokens: 0, sampledTokens: 0, meanResponseTokens: 0, truncationShare: 0, rollouts: 0, truncated: 0 });
  });
});
