// A chunk does not start a fresh cell it could not take to its first checkpoint in the time left: the estimate comes
// from the first step of cells already run (their metrics files, written here as a run of that length would leave them).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { firstStepEstimate, firstStepMinutesOf, waitsForNextChunk } from '../../src/evidence/pace.js';
import { cellDir, cellsOf } from '../../src/evidence/protocol.js';
import type { CellResult } from '../../src/evidence/result.js';
import { resultPath, runChunk } from '../../src/evidence/run.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { tinyTrainEnvs } from '../helpers/train-env.js';
import { smallProtocol } from '../helpers/protocol.js';
import { tempDir } from '../helpers/workspace.js';

const protocol = smallProtocol(
  'paced',
  [
    { heldOut: 'md-tokens', train: ['durations'] },
    { heldOut: 'lru-cache', train: ['durations'] },
    { heldOut: 'csv-reader', train: ['expr-eval'] },
  ],
  ['frontier', 'static'],
);

function ranFor(out: string, cellId: string, firstStepMin: number): void {
  const dir = cellDir(out, cellId);
  mkdirSync(dir, { recursive: true });
  const lines = [1, 2].map((step) => JSON.stringify({ step, elapsedMs: step * firstStepMin * 60_000, rollouts: step * 4 }));
  writeFileSync(join(dir, 'metrics.jsonl'), `${lines.join('\n')}\n`);
}

describe('evidence: pace of a fresh cell', () => {
  it('reads step 1 of a run, and nothing from a missing, partial or foreign file', () => {
    const out = tempDir('fn-pace-');
    ranFor(out, 'a', 2.5);
    assert.equal(firstStepMinutesOf(cellDir(out, 'a')), 2.5);
    assert.equal(firstStepMinutesOf(cellDir(out, 'missing')), null);
    mkdirSync(cellDir(out, 'partial'), { recursive: true });
    writeFileSync(join(cellDir(out, 'partial'), 'metrics.jsonl'), '{"step":1,"elapsed');
    assert.equal(firstStepMinutesOf(cellDir(out, 'partial')), null);
    mkdirSync(cellDir(out, 'foreign'), { recursive: true });
    writeFileSync(join(cellDir(out, 'foreign'), 'metrics.jsonl'), `${'x'.repeat(100_000)}\n`);
    assert.equal(firstStepMinutesOf(cellDir(out, 'foreign')), null);
  });

  it('takes the longest first step of the same curriculum: same held-out environment, else same language, else any', () => {
    const out = tempDir('fn-pace-');
    const cells = cellsOf(protocol);
    const byId = (id: string) => cells.find((c) => c.id === id)!;
    const language = (env: string) => (env === 'csv-reader' ? 'python' : 'javascript');
    const estimate = (id: string) => firstStepEstimate(byId(id), cells, (c) => cellDir(out, c.id), language);
    assert.equal(estimate('md-tokens.frontier.s2'), null, 'nothing has run');
    ranFor(out, 'md-tokens.frontier.s1', 9);
    ranFor(out, 'md-tokens.static.s1', 2);
    assert.deepEqual(estimate('md-tokens.frontier.s2'), { minutes: 9, from: 'md-tokens.frontier.s1' });
    assert.deepEqual(estimate('md-tokens.static.s2'), { minutes: 2, from: 'md-tokens.static.s1' }, 'static is timed on static');
    assert.deepEqual(estimate('lru-cache.frontier.s1'), { minutes: 9, from: 'md-tokens.frontier.s1' }, 'same language');
    assert.deepEqual(estimate('csv-reader.frontier.s1'), { minutes: 9, from: 'md-tokens.frontier.s1' }, 'any, for want of Python');
    ranFor(out, 'lru-cache.frontier.s1', 7);
    ranFor(out, 'csv-reader.frontier.s1', 12);
    assert.deepEqual(estimate('lru-cache.frontier.s2'), { minutes: 7, from: 'lru-cache.frontier.s1' }, 'its own environment first');
    assert.deepEqual(estimate('csv-reader.frontier.s2'), { minutes: 12, from: 'csv-reader.frontier.s1' });
  });

  it('holds back only a fresh cell: a resumed one checkpoints after its next step', () => {
    const out = tempDir('fn-pace-');
    const cells = cellsOf(protocol);
    const [first, second] = cells.filter((c) => c.group.heldOut === 'md-tokens' && c.arm.name === 'frontier');
    ranFor(out, first!.id, 9);
    const wait = (left: number) => waitsForNextChunk(second!, cells, out, () => 'javascript', left);
    assert.match(wait(5) ?? '', /^stopping with 5\.0 min left: md-tokens\.frontier\.s2 would need about 9\.0 min/);
    assert.equal(wait(10), null);
    mkdirSync(cellDir(out, second!.id), { recursive: true });
    writeFileSync(join(cellDir(out, second!.id), 'state.json'), '{}');
    assert.equal(wait(5), null);
  });

  it('stops a chunk before a fresh cell that would overrun, saying why, and starts nothing', async () => {
    const out = tempDir('fn-pace-');
    const small = smallProtocol('paced', [{ heldOut: 'tiny-text', train: ['tiny-stats'] }], ['frontier']);
    const [first] = cellsOf(small);
    ranFor(out, first!.id, 20);
    const done: CellResult = {
      schema: 'frognano.evidence-cell/v1',
      cell: first!.id,
      heldOutEnv: 'tiny-text',
      arm: 'frontier',
      seed: 1,
      rollouts: 12,
      stop: 'budget',
      heldOut: [{ step: 0, rollouts: 0, solveRate: 0, solved: 0, attempts: 1 }],
      final: { solved: 0, attempts: 1 },
      handwritten: { solved: 0, attempts: 0, byTask: {} },
      groups: 3,
      degenerate: 3,
      minutes: 25,
    };
    writeFileSync(resultPath(out, first!), JSON.stringify(done));
    const lines: string[] = [];
    const got = await runChunk(small, {
      envs: tinyTrainEnvs(),
      runtime: selectRuntime({ warn: () => {} }),
      outDir: out,
      handwritten: [],
      hours: 0.1,
      log: (l) => lines.push(l),
    });
    assert.equal(got.left, 1);
    assert.deepEqual(got.failed, []);
    assert.ok(!existsSync(cellDir(out, 'tiny-text.frontier.s2')), 'the second seed was not started');
    assert.ok(
      lines.some((l) => /^stopping with [\d.]+ min left: tiny-text\.frontier\.s2 would need about 20\.0 min .*as tiny-text\.frontier\.s1 took/.test(l)),
      lines.join('\n'),
    );
  });
});
