import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultWorkers, describeWorkers, machine, MEMORY_PER_WORKER_GIB } from '../../src/util/machine.js';

describe('workers sized from the machine', () => {
  it('one per core where memory holds them', () => {
    assert.equal(defaultWorkers({ cores: 2, memoryGiB: 24 }), 2);
    assert.equal(defaultWorkers({ cores: 16, memoryGiB: 128 }), 16);
  });

  it('fewer where memory would not hold one per core, never none', () => {
    assert.equal(defaultWorkers({ cores: 16, memoryGiB: 8 }), Math.floor((0.75 * 8) / MEMORY_PER_WORKER_GIB));
    assert.equal(defaultWorkers({ cores: 4, memoryGiB: 1 }), 1);
  });

  it('reads this machine: at least one core and some memory', () => {
    const m = machine();
    assert.ok(m.cores >= 1 && Number.isInteger(m.cores));
    assert.ok(m.memoryGiB > 0);
  });

  it('says where the count came from', () => {
    assert.equal(describeWorkers(2, false, { cores: 2, memoryGiB: 23.5 }), 'workers: 2 (from 2 cores, 23.5 GiB memory; --workers to change)');
    assert.match(describeWorkers(4, true, { cores: 1, memoryGiB: 2 }), /^workers: 4 \(set by --workers; this machine: 1 core, 2\.0 GiB memory\)$/);
  });
});
