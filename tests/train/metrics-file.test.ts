// A run's JSONL logs (metrics.jsonl, difficulty.jsonl) made consistent with its
// saved state before a resumed run appends: after a crash between a step's
// line and its state, after a write cut off by a kill or a full disk, and
// with a damaged line that must not be guessed at.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repairRunLog } from '../../src/train/metrics.js';
import { StateError } from '../../src/util/errors.js';
import { tempDir } from '../helpers/workspace.js';

describe('repairRunLog', () => {
  it('drops the lines of steps after the saved one, keeping the rest as they were', () => {
    const path = join(tempDir('fn-metrics-'), 'metrics.jsonl');
    writeFileSync(path, '{"step":1,"a":1}\n{"step":2,"a":2}\n{"step":3,"a":3}\n');
    assert.deepEqual(repairRunLog(path, 2), [`${path}: dropped 1 line of steps after the saved step 2`]);
    assert.equal(readFileSync(path, 'utf8'), '{"step":1,"a":1}\n{"step":2,"a":2}\n');
    assert.deepEqual(repairRunLog(path, 2), [], 'a consistent file is left alone');
    assert.equal(readFileSync(path, 'utf8'), '{"step":1,"a":1}\n{"step":2,"a":2}\n');
  });

  it('drops a last line cut off mid-write, and says so', () => {
    const dir = tempDir('fn-metrics-');
    assert.deepEqual(repairRunLog(join(dir, 'none.jsonl'), 0), []);
    assert.equal(existsSync(join(dir, 'none.jsonl')), false, 'a missing file stays missing');
    const path = join(dir, 'metrics.jsonl');
    writeFileSync(path, '{"step":1}\n{"step":2,"rew');
    assert.deepEqual(repairRunLog(path, 2), [`${path}: dropped line 2, cut off mid-write`]);
    assert.equal(readFileSync(path, 'utf8'), '{"step":1}\n');
    assert.deepEqual(readdirSync(dir), ['metrics.jsonl'], 'no temporary file left behind');
  });

  it('refuses a damaged line elsewhere with its number, changing nothing', () => {
    const path = join(tempDir('fn-metrics-'), 'metrics.jsonl');
    const text = '{"step":1}\nnot json at all\n{"step":2}\n';
    writeFileSync(path, text);
    assert.throws(
      () => repairRunLog(path, 2),
      (err: unknown) =>
        err instanceof StateError &&
        /metrics\.jsonl line 2 is not a JSON object: "not json at all"/.test(err.message) &&
        /remove or correct that line/.test(err.hint ?? ''),
    );
    assert.equal(readFileSync(path, 'utf8'), text);
  });
});
