// metrics.jsonl after a crash between a step's metrics line and its saved state.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dropMetricsAfter } from '../../src/train/metrics.js';
import { tempDir } from '../helpers/workspace.js';

describe('dropMetricsAfter', () => {
  it('drops the lines of steps after the saved one, keeping the rest as they were', () => {
    const path = join(tempDir('fn-metrics-'), 'metrics.jsonl');
    writeFileSync(path, '{"step":1,"a":1}\n{"step":2,"a":2}\n{"step":3,"a":3}\n');
    dropMetricsAfter(path, 2);
    assert.equal(readFileSync(path, 'utf8'), '{"step":1,"a":1}\n{"step":2,"a":2}\n');
    dropMetricsAfter(path, 2);
    assert.equal(readFileSync(path, 'utf8'), '{"step":1,"a":1}\n{"step":2,"a":2}\n');
  });

  it('leaves a missing file missing and keeps lines it cannot read', () => {
    const dir = tempDir('fn-metrics-');
    dropMetricsAfter(join(dir, 'none.jsonl'), 0);
    const path = join(dir, 'metrics.jsonl');
    writeFileSync(path, 'not json\n{"step":5}\n');
    dropMetricsAfter(path, 1);
    assert.equal(readFileSync(path, 'utf8'), 'not json\n');
  });
});
