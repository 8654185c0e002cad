import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Probe } from '../../src/curriculum/probe.js';

function run(rewards: (number | null)[], k = 4): Probe {
  const p = new Probe(k);
  for (const r of rewards) if (!p.done) p.add(r);
  return p;
}

describe('admission probe', () => {
  it('stops as soon as it has seen a success and a failure', () => {
    const p = run([1, 0, 1, 1]);
    assert.equal(p.done, true);
    assert.equal(p.verdict, 'admit');
    assert.equal(p.rollouts, 2);
    assert.equal(run([1, 1, 0, 1]).rollouts, 3);
    assert.throws(() => p.add(1), /done/);
  });

  it('needs all k rollouts for a one-sided result', () => {
    const p = new Probe(4);
    for (let i = 0; i < 3; i++) p.add(1);
    assert.equal(p.done, false);
    assert.equal(p.verdict, null);
    p.add(1);
    assert.equal(p.verdict, 'too-easy');
    assert.equal(p.successes, 4);
    assert.equal(run([0, 0, 0, 0]).verdict, 'too-hard');
    assert.equal(run([0, 0], 2).verdict, 'too-hard');
  });

  it('does not count infrastructure failures as failures', () => {
    const p = run([1, null, null, 1, 1]);
    assert.equal(p.done, false);
    assert.equal(p.infraFailures, 2);
    assert.equal(p.failures, 0);
    p.add(1);
    assert.equal(p.verdict, 'too-easy');
    assert.equal(p.passRate, 1);
  });

  it('rejects a bad size', () => {
    assert.throws(() => new Probe(0));
  });
});
