// The Tinker learner's small pure parts: names the server accepts, and the
// loss read under whatever name an engine reports it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkpointName, lossOf } from '../../src/lm/learner.js';
import { ForwardBackwardOutputSchema, ID_MAX_LENGTH, ID_PATTERN } from '../../src/tinker/wire.js';

describe('checkpointName', () => {
  it('turns any run name into one SkyRL accepts, keeping the version', () => {
    for (const run of ['default', 'my run.v2/α', 'x'.repeat(400)]) {
      const name = checkpointName(run, 12);
      assert.match(name, ID_PATTERN);
      assert.ok(name.length <= ID_MAX_LENGTH, `${name.length} characters`);
      assert.ok(name.endsWith('-v12'));
    }
    assert.equal(checkpointName('my run.v2', 3), 'my_run_v2-v3');
  });
});

describe('lossOf', () => {
  const out = (metrics: Record<string, unknown>, losses?: (number | null)[][]) =>
    ForwardBackwardOutputSchema.parse({
      loss_fn_output_type: 'scalar',
      loss_fn_outputs: (losses ?? [[]]).map((data) => (losses ? { elementwise_loss: { data } } : {})),
      metrics,
    });

  it("reads hosted Tinker's loss:sum, then SkyRL FSDP's total_loss:sum and pg_loss:sum", () => {
    assert.equal(lossOf(out({ 'loss:sum': 1.5, 'total_loss:sum': 9 })), 1.5);
    assert.equal(lossOf(out({ 'total_loss:sum': 2.5, 'pg_loss:sum': 9 })), 2.5);
    assert.equal(lossOf(out({ 'pg_loss:sum': 3.5 })), 3.5);
  });

  it("sums the per-token losses when no metric names it (SkyRL's JAX backend sends none)", () => {
    assert.equal(lossOf(out({}, [[0.5, 0.25], [1]])), 1.75);
    assert.equal(lossOf(out({})), undefined);
  });

  it('reads a null the server wrote for NaN as NaN, not as a malformed answer', () => {
    assert.ok(Number.isNaN(lossOf(out({}, [[null, 1]]))));
  });
});
