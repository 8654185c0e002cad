import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pairedGain, rate, wilson } from '../../src/util/stats.js';

describe('rates and intervals', () => {
  it('prints a share with its counts', () => {
    assert.equal(rate(3, 12), '25.0% (3/12)');
    assert.equal(rate(0, 5), '0.0% (0/5)');
    assert.equal(rate(0, 0), '-');
  });

  it('gives the Wilson interval: inside [0, 1], around the share, narrower with more trials', () => {
    const [lo, hi] = wilson(3, 12);
    // Known values for 3 of 12 at 95%: about 0.089 to 0.532.
    assert.ok(Math.abs(lo - 0.0889) < 0.001 && Math.abs(hi - 0.5323) < 0.001, `${lo} ${hi}`);
    const [lo0, hi0] = wilson(0, 12);
    assert.equal(lo0, 0);
    assert.ok(hi0 > 0.2 && hi0 < 0.3);
    const [loBig, hiBig] = wilson(300, 1200);
    assert.ok(hiBig - loBig < hi - lo);
    assert.deepEqual(wilson(0, 0), [0, 1]);
  });

  it('bounds a paired gain: above 0 when every item improved, around 0 when items moved both ways', () => {
    const up = pairedGain([0.1, 0.2, 0.05, 0.3], [0.2, 0.35, 0.1, 0.4]);
    assert.ok(up && up.low > 0 && up.high <= 0.15 + 1e-9 && Math.abs(up.mean - 0.1) < 1e-9, JSON.stringify(up));
    const mixed = pairedGain([0.2, 0.2, 0.2, 0.2], [0.4, 0.0, 0.3, 0.1]);
    assert.ok(mixed && mixed.low < 0 && mixed.high > 0, JSON.stringify(mixed));
    assert.deepEqual(pairedGain([0.1, 0.2], [0.3, 0.1]), pairedGain([0.1, 0.2], [0.3, 0.1]), 'seeded: the same on every call');
    assert.equal(pairedGain([], []), null);
  });
});
