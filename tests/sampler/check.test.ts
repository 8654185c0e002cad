import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSample, SamplerFault, type RawSample, type SamplerFaultKind } from '../../src/sampler/check.js';

function faultOf(raw: RawSample): SamplerFault {
  try {
    checkSample(raw);
  } catch (err) {
    assert.ok(err instanceof SamplerFault, `expected a SamplerFault, got ${String(err)}`);
    return err;
  }
  assert.fail('checkSample accepted a bad sample');
}

function rejects(raw: RawSample, kind: SamplerFaultKind, mentions: RegExp): void {
  const fault = faultOf(raw);
  assert.equal(fault.kind, kind);
  assert.match(fault.message, mentions);
  assert.match(fault.message, /infrastructure failure, not the model's fault/);
}

describe('checkSample', () => {
  it('passes a good sample through as a copy', () => {
    const tokens = [5, 6, 7];
    const logprobs = [-0.1, -2, -0.01];
    const sample = checkSample({ tokens, logprobs, stopReason: 'stop' });
    assert.deepEqual(sample, { tokens: [5, 6, 7], logprobs: [-0.1, -2, -0.01], stopReason: 'stop' });
    tokens.push(8);
    assert.equal(sample.tokens.length, 3, 'not aliased to the input');
  });

  it('accepts a single 0.0 among other logprobs: a token the model was sure of', () => {
    const sample = checkSample({ tokens: [1, 2, 3], logprobs: [-0.3, 0, -1.2], stopReason: 'length' });
    assert.deepEqual(sample.logprobs, [-0.3, 0, -1.2]);
  });

  it('accepts a one-token sequence with logprob 0 (an immediate, certain stop)', () => {
    assert.deepEqual(checkSample({ tokens: [2], logprobs: [0], stopReason: 'stop' }).logprobs, [0]);
  });

  it('clamps rounding noise just above 0 to 0, but not more', () => {
    assert.deepEqual(checkSample({ tokens: [1, 2], logprobs: [5e-7, -1], stopReason: 'stop' }).logprobs, [0, -1]);
    rejects({ tokens: [1, 2], logprobs: [1e-3, -1], stopReason: 'stop' }, 'bad-logprob', /logprob 0 .* is 0\.001/);
  });

  it('rejects missing logprobs', () => {
    rejects({ tokens: [1, 2], logprobs: null, stopReason: 'stop' }, 'missing-logprobs', /2 tokens without logprobs/);
    rejects({ tokens: [1, 2], logprobs: undefined, stopReason: 'stop' }, 'missing-logprobs', /without logprobs/);
    rejects({ tokens: [1, 2, 3], logprobs: [-1, null, -1], stopReason: 'stop' }, 'missing-logprobs', /no logprob for token 1 of 3 \(id 2\)/);
  });

  it('rejects a count mismatch', () => {
    rejects({ tokens: [1, 2, 3], logprobs: [-1, -1], stopReason: 'length' }, 'length-mismatch', /3 tokens but 2 logprobs/);
  });

  it('rejects an all-zero sequence of more than one token as a zero fill', () => {
    rejects({ tokens: [1, 2], logprobs: [0, 0], stopReason: 'stop' }, 'zero-logprobs', /all 2 logprobs are exactly 0/);
    rejects({ tokens: [1, 2, 3, 4], logprobs: [0, -0, 0, 0], stopReason: 'length' }, 'zero-logprobs', /zero fill/);
  });

  it('rejects NaN, infinities and positive logprobs', () => {
    rejects({ tokens: [1, 2], logprobs: [-1, Number.NaN], stopReason: 'stop' }, 'bad-logprob', /logprob 1 \(token id 2\) is NaN/);
    rejects({ tokens: [1, 2], logprobs: [Number.POSITIVE_INFINITY, -1], stopReason: 'stop' }, 'bad-logprob', /is Infinity/);
    rejects({ tokens: [1, 2], logprobs: [Number.NEGATIVE_INFINITY, -1], stopReason: 'stop' }, 'bad-logprob', /is -Infinity/);
    rejects({ tokens: [1], logprobs: [0.5], stopReason: 'stop' }, 'bad-logprob', /finite number ≤ 0/);
  });

  it('rejects token ids that are not non-negative integers', () => {
    rejects({ tokens: [1, -3], logprobs: [-1, -1], stopReason: 'stop' }, 'bad-token', /token 1 is -3/);
    rejects({ tokens: [1.5], logprobs: [-1], stopReason: 'stop' }, 'bad-token', /token 0 is 1\.5/);
    rejects({ tokens: [Number.NaN], logprobs: [-1], stopReason: 'stop' }, 'bad-token', /not a non-negative integer/);
  });

  it('rejects an empty sample', () => {
    rejects({ tokens: [], logprobs: [], stopReason: 'stop' }, 'empty', /no tokens/);
  });
});
