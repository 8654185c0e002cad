import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stableTestName } from '../../src/report/types.js';

describe('stableTestName', () => {
  it('strips run-varying durations from the end of a name', () => {
    assert.equal(stableTestName('adds # time=12.345ms'), 'adds');
    assert.equal(stableTestName('adds #time=1.2s'), 'adds');
    assert.equal(stableTestName('adds (12ms)'), 'adds');
    assert.equal(stableTestName('adds (12 ms)'), 'adds');
    assert.equal(stableTestName('adds [1.2s]'), 'adds');
    assert.equal(stableTestName('adds (3ms) # time=4ms'), 'adds');
  });

  it('leaves names that merely contain numbers or durations as words', () => {
    for (const name of ['handles 12 items', 'times out after 100ms', 'retries (3 times)', 'case 1.2', 'adds (12ms) twice', '(12ms)']) {
      assert.equal(stableTestName(name), name);
    }
  });
});
