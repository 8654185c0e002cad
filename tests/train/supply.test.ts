import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Knobs } from '../../src/curriculum/knobs.js';
import { starterEnvs } from '../../src/env/load.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { readTasks } from '../../src/task/io.js';
import type { Task } from '../../src/task/task.js';
import { TaskSupply, taskKnobs } from '../../src/train/supply.js';
import { tinyTrainEnvs } from '../helpers/train-env.js';
import { tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });
const KNOBS: Knobs = { bugs: 1, hint: 'full', visibility: 'visible', family: 'operations' };

/** Each task directory's files, to tell whether any was rewritten. */
function snapshot(bank: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of readdirSync(bank))
    for (const f of ['task.json', 'instruction.md', 'bug.patch', 'tests.json']) out.set(`${d}/${f}`, readFileSync(join(bank, d, f), 'utf8'));
  return out;
}

describe('TaskSupply', () => {
  const envs = tinyTrainEnvs();
  const root = tempDir('fn-supply-');
  const opts = { bankDir: join(root, 'bank'), dataDir: join(root, 'data'), runtime, seed: 3 };
  let supply: TaskSupply;
  let first: Task[];

  before(async () => {
    supply = new TaskSupply(envs, opts);
    first = await supply.take('tiny-stats', KNOBS, 2, new Set());
  });

  it('synthesizes validated tasks at the knobs asked for and writes each to the bank at once', () => {
    assert.equal(first.length, 2);
    assert.ok(supply.yield.candidates >= 6, JSON.stringify(supply.yield));
    assert.ok(supply.yield.valid >= 2 && supply.yield.valid <= supply.yield.candidates);
    const onDisk = new Map(readTasks(opts.bankDir).map((t) => [t.id, t]));
    assert.equal(onDisk.size, supply.yield.valid);
    assert.equal(supply.size, onDisk.size);
    for (const t of first) {
      assert.equal(t.env.name, 'tiny-stats');
      assert.deepEqual(taskKnobs(t), KNOBS);
      assert.ok(t.FAIL_TO_PASS.length > 0);
      assert.equal(onDisk.get(t.id)?.bugPatch, t.bugPatch);
      assert.equal(supply.task(t.id), t);
    }
    assert.deepEqual(
      first.map((t) => t.id),
      [...first.map((t) => t.id)].sort(),
      'a stable order',
    );
  });

  it('serves the bank before synthesizing, and never a task in `used`', async () => {
    const candidates = supply.yield.candidates;
    const again = await supply.take('tiny-stats', KNOBS, 2, new Set());
    assert.deepEqual(
      again.map((t) => t.id),
      first.map((t) => t.id),
    );
    assert.equal(supply.yield.candidates, candidates, 'no synthesis while the bank has enough');
    const used = new Set(first.map((t) => t.id));
    const next = await supply.take('tiny-stats', KNOBS, 1, used);
    for (const t of next) assert.ok(!used.has(t.id));
    assert.deepEqual(await supply.take('no-such-env-in-bank', KNOBS, 0, used), []);
    await assert.rejects(supply.take('no-such-env', KNOBS, 1, used), /unknown environment no-such-env/);
  });

  it('reads the bank back in a new supply (a resumed run) without synthesizing', async () => {
    const resumed = new TaskSupply(envs, opts);
    assert.equal(resumed.size, readTasks(opts.bankDir).length);
    const got = await resumed.take('tiny-stats', KNOBS, 2, new Set());
    assert.deepEqual(
      got.map((t) => t.id),
      first.map((t) => t.id),
    );
    assert.equal(resumed.yield.candidates, 0);
    assert.equal(resumed.task(first[0]!.id)?.instruction, first[0]!.instruction);
  });

  it('does not re-validate or rewrite a bug the bank already holds when it synthesizes again', async () => {
    const before = snapshot(opts.bankDir);
    const resumed = new TaskSupply(envs, opts);
    // Everything in the bank is used, so it must synthesize: with the same seed it meets the same bugs again.
    const used = new Set(readTasks(opts.bankDir).map((t) => t.id));
    const fresh = await resumed.take('tiny-stats', KNOBS, 2, used);
    assert.ok(resumed.yield.candidates > 0, 'it synthesized');
    for (const t of fresh) assert.ok(!used.has(t.id));
    const after = snapshot(opts.bankDir);
    for (const [file, content] of before) assert.equal(after.get(file), content, `${file} was rewritten`);
    const patches = readTasks(opts.bankDir).map((t) => t.bugPatch);
    assert.equal(new Set(patches).size, patches.length, 'one directory per bug');
  });
});

describe('taskKnobs', () => {
  it("offers only the operator families TaskPilot can apply to the environment's language", () => {
    const starters = new TaskSupply(new Map(starterEnvs().map((e) => [e.spec.name, e])), {
      bankDir: join(tempDir('fn-families-'), 'bank'),
      dataDir: tempDir('fn-families-data-'),
      runtime,
      seed: 1,
    });
    assert.deepEqual(starters.families('lru-cache'), ['operations', 'control', 'removal'], 'class operators are Python only');
    assert.deepEqual(starters.families('csv-reader'), ['operations', 'control', 'removal', 'class']);
    assert.throws(() => starters.families('no-such-env'), /unknown environment no-such-env/);
  });

  it('offers only the families it was given, and says so when none of them applies', () => {
    const envs = new Map(starterEnvs().map((e) => [e.spec.name, e]));
    const dirs = () => ({ bankDir: join(tempDir('fn-families-'), 'bank'), dataDir: tempDir('fn-families-data-'), runtime, seed: 1 });
    assert.deepEqual(new TaskSupply(envs, { ...dirs(), families: ['control', 'operations'] }).families('lru-cache'), ['operations', 'control']);
    assert.throws(() => new TaskSupply(envs, { ...dirs(), families: ['class'] }).families('lru-cache'), /no operator family of class applies to lru-cache/);
  });

  it("reads a task's knob setting: bugs capped at 4, its first family, operations when none", () => {
    const t = (knobs: Task['knobs']) => ({ knobs }) as Task;
    assert.deepEqual(taskKnobs(t({ bugs: 6, hint: 'minimal', visibility: 'hidden', families: ['control', 'operations'] })), {
      bugs: 4,
      hint: 'minimal',
      visibility: 'hidden',
      family: 'control',
    });
    assert.deepEqual(taskKnobs(t({ bugs: 1, hint: 'symptom', visibility: 'visible', families: [] })), {
      bugs: 1,
      hint: 'symptom',
      visibility: 'visible',
      family: 'operations',
    });
  });
});
