import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { loadState } from '../../src/train/state.js';
import { tempDir } from '../helpers/workspace.js';

/** Two small training runs on the JavaScript starters, so the test exercises chunks, resume, scoring and the report; the budget leaves room after a first step of about 24 rollouts. */
const TINY = {
  name: 'tiny',
  groups: [{ heldOut: 'md-tokens', train: ['durations'] }],
  seeds: [1],
  arms: [
    { name: 'frontier', curriculum: 'frontier', ablate: [] },
    { name: 'static', curriculum: 'static', ablate: [] },
  ],
  budget: 36,
  evalTasks: 2,
  evalAttempts: 1,
  evalEvery: 1,
  forgetting: 2,
  handwrittenAttempts: 1,
};

describe('frognano evidence', () => {
  it('runs a protocol in chunks: a chunk out of time leaves its run to resume, the next finishes it and reports', async () => {
    const dir = tempDir();
    const file = join(dir, 'tiny.json');
    writeFileSync(file, JSON.stringify(TINY));
    const out = join(dir, 'out');
    const base = ['--data-dir', join(dir, 'data'), 'evidence', 'run', '--protocol', file, '--out', out];
    // A chunk of about a second: the first run makes one step, checkpoints and stops.
    const first = await runCli([...base, '--hours', '0.0003']);
    assert.equal(first.code, 0, first.err);
    assert.match(first.err, /with 2 of 2 runs left: rerun the same command to continue/);
    const cellDir = join(out, 'runs', 'md-tokens.frontier.s1');
    assert.equal(loadState(cellDir)?.step, 1);
    assert.ok(!existsSync(join(cellDir, 'result.json')));

    const second = await runCli(base);
    assert.equal(second.code, 0, second.err);
    assert.match(second.err, /all 2 runs done/);
    assert.match(second.err, /cell 1\/2: md-tokens\.frontier\.s1/);
    assert.match(second.err, /md-tokens\.frontier\.s1 done: held-out \d+\.\d% \(\d+\/\d+\), hand-written .*, \d+\.\d min/);
    const result: unknown = JSON.parse(readFileSync(join(cellDir, 'result.json'), 'utf8'));
    const r = result as { rollouts: number; heldOut: unknown[]; handwritten: { attempts: number }; forgetting?: unknown[] };
    assert.ok(r.rollouts >= TINY.budget - 1 && r.rollouts <= TINY.budget, String(r.rollouts));
    // The held-out point of the untrained policy, then one per step.
    assert.ok(r.heldOut.length >= 2);
    // Hand-written bugs of md-tokens and durations, one attempt each (fewer only for infrastructure failures).
    assert.ok(r.handwritten.attempts > 0 && r.handwritten.attempts <= 6, String(r.handwritten.attempts));
    // Resumed, not started over: the metrics of step 1 from the first chunk are still there, once.
    const steps = readFileSync(join(cellDir, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { step: number }).step);
    assert.deepEqual(
      steps,
      steps.map((_, i) => i + 1),
    );
    assert.match(second.out, /protocol tiny: 2\/2 runs finished/);
    assert.match(second.out, /H1 frontier vs static, final held-out solve rate, frontier minus static: .* -> (supported|refuted|not shown)/);
    assert.ok(existsSync(join(out, 'held-out-md-tokens.svg')) && existsSync(join(out, 'report.txt')) && existsSync(join(out, 'results.json')));

    // A third run does nothing but report; a report alone reads the same results.
    const third = await runCli(base);
    assert.doesNotMatch(third.err, /cell \d/);
    const report = await runCli(['--data-dir', join(dir, 'data'), 'evidence', 'report', '--protocol', file, '--out', out]);
    assert.equal(report.out, second.out);
  });

  it("--held-out runs one machine's share: only the named groups' cells, counted among themselves", async () => {
    const dir = tempDir();
    const file = join(dir, 'two.json');
    writeFileSync(file, JSON.stringify({ ...TINY, name: 'two', groups: [...TINY.groups, { heldOut: 'lru-cache', train: ['durations'] }] }));
    const out = join(dir, 'out');
    const base = ['--data-dir', join(dir, 'data'), 'evidence', 'run', '--protocol', file, '--out', out];
    const r = await runCli([...base, '--held-out', 'lru-cache', '--hours', '0.0003']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /evidence two: 2 runs \(held out: lru-cache; 4 in the protocol\)/);
    assert.match(r.err, /cell 1\/2: lru-cache\.frontier\.s1 \(0 done; \d\d:\d\d:\d\d\)/);
    assert.match(r.err, /with 2 of 2 runs left/);
    assert.ok(!existsSync(join(out, 'runs', 'md-tokens.frontier.s1')), 'the other group was not started');
    const bad = await runCli([...base, '--held-out', 'lru-cache,csv-reader']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /csv-reader is not held out in protocol two/);
    assert.match(bad.err, /md-tokens, lru-cache/);
  });

  it('names what is wrong with a protocol file', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ ...TINY, seeds: [] }));
    const r = await runCli(['--data-dir', dir, 'evidence', 'run', '--protocol', file]);
    assert.equal(r.code, 2);
    assert.match(r.err, /is not a protocol/);
    assert.match(r.err, /seeds/);
    const missing = await runCli(['--data-dir', dir, 'evidence', 'run']);
    assert.match(missing.err, /evidence needs --protocol/);
  });
});
