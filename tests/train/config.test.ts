import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchSize } from '../../src/train/config.js';

describe('batchSize near the end of the budget', () => {
  const cfg = { batch: 2, group: 8 };
  it('takes the whole batch while the budget allows full groups', () => {
    assert.equal(batchSize(cfg, 300), 2);
    assert.equal(batchSize(cfg, 16), 2);
  });
  it('takes fewer tasks at full groups rather than every task at a small group, and always one', () => {
    assert.equal(batchSize(cfg, 15), 1);
    assert.equal(batchSize(cfg, 8), 1);
    assert.equal(batchSize(cfg, 3), 1);
    assert.equal(batchSize({ batch: 4, group: 4 }, 9), 2);
  });
});
