import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildEnvironment } from '../../src/env/build.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { fromRecord, toSweBench, toSweSmith } from '../../src/task/formats.js';
import { readTask, readTasks } from '../../src/task/io.js';
import { agentWorkspace } from '../../src/grading/agent-view.js';
import type { Task } from '../../src/task/task.js';
import { reversePatch, revalidate } from '../../src/taskpilot/revalidate.js';
import { synthesize, type SynthStats } from '../../src/taskpilot/synth.js';
import { makeJsEnv, nodeTests } from '../helpers/env.js';
import { oracleModel } from '../../src/eval/oracle.js';
import { referenceFiles } from '../../src/task/reference.js';
import { ScriptedModel } from '../../src/model/scripted.js';
import { rollout } from '../../src/rl/rollout.js';
import { tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });

const STATS = `export function mean(xs) {
  let total = 0;
  for (const x of xs) {
    total += x;
  }
  return xs.length > 0 ? total / xs.length : 0;
}

export function clamp(x, lo, hi) {
  if (x < lo) {
    return lo;
  } else if (x > hi) {
    return hi;
  }
  return x;
}

export function range(n, step) {
  const out = [];
  for (let i = 0; i < n; i += step) {
    out.push(i * 2);
  }
  return out;
}
`;

const STATS_TESTS = nodeTests(
  {
    'mean of several': "const m = await import('../src/stats.js'); assert.equal(m.mean([1, 2, 6]), 3);",
    'mean of none': "const m = await import('../src/stats.js'); assert.equal(m.mean([]), 0);",
    'clamp below': "const m = await import('../src/stats.js'); assert.equal(m.clamp(-5, 0, 10), 0);",
    'clamp above': "const m = await import('../src/stats.js'); assert.equal(m.clamp(50, 0, 10), 10);",
    'clamp inside': "const m = await import('../src/stats.js'); assert.equal(m.clamp(5, 0, 10), 5);",
    'range by two': "const m = await import('../src/stats.js'); assert.deepEqual(m.range(5, 2), [0, 4, 8]);",
    'range by one': "const m = await import('../src/stats.js'); assert.deepEqual(m.range(3, 1), [0, 2, 4]);",
  },
  'stats',
);

describe('synth end to end on a small environment', () => {
  const env = makeJsEnv({ 'src/stats.js': STATS, 'tests/stats.test.js': STATS_TESTS }, {}, 'toy-stats');
  const dataDir = tempDir();
  const outDir = join(dataDir, 'tasks');
  let stats: SynthStats;
  let tasks: Task[];
  const progress: { done: number; planned: number }[] = [];

  before(async () => {
    stats = await synthesize({
      envs: [env],
      n: 8,
      strategies: ['procedural', 'combine'],
      workers: 2,
      seed: 1,
      hint: 'symptom',
      visibility: 'hidden',
      outDir,
      dataDir,
      runtime,
      referenceRuns: 2,
      candidateRuns: 2,
      onProgress: (s) => progress.push({ done: s.done, planned: s.planned }),
    });
    tasks = readTasks(outDir);
  });

  it('counts every candidate by strategy and operator, and writes the valid ones', () => {
    const proc = stats.byStrategy.procedural!;
    assert.equal(proc.candidates, 8);
    assert.ok(proc.valid > 0, JSON.stringify(stats.byStrategy));
    const opTotal = Object.entries(stats.byOperator)
      .filter(([k]) => !k.startsWith('combine'))
      .reduce((n, [, c]) => n + c.candidates, 0);
    assert.equal(opTotal, 8);
    assert.equal(tasks.length, stats.tasks.length);
    assert.equal(stats.errors.length, 0, stats.errors.join('\n'));
  });

  it('keeps every rejected candidate with its outcome and a reason in words', () => {
    const rejected = Object.values(stats.byStrategy).reduce((n, c) => n + c.candidates - c.valid, 0);
    assert.equal(stats.rejections.length, rejected);
    for (const r of stats.rejections) {
      assert.ok(stats.byEnv[r.env]!.outcomes[r.outcome]! > 0, `${r.outcome} is counted`);
      assert.ok(r.detail.length > 3 && r.detail !== r.outcome, `a reason in words: ${r.detail}`);
    }
  });

  it('reports progress that never runs backwards, combinations counted in the plan from the start', () => {
    assert.ok(progress.length > 0);
    for (let i = 1; i < progress.length; i++) {
      const [a, b] = [progress[i - 1]!, progress[i]!];
      assert.ok(b.done / b.planned >= a.done / a.planned, `${a.done}/${a.planned} then ${b.done}/${b.planned}`);
    }
    assert.ok(progress[0]!.planned >= 8 + 1, 'the first report already counts combinations');
    assert.equal(progress.at(-1)!.done, progress.at(-1)!.planned);
  });

  it('writes self-describing task directories with provenance and knobs', () => {
    const t = tasks.find((x) => x.provenance.strategy === 'procedural')!;
    const dir = join(outDir, t.id);
    for (const f of ['task.json', 'instruction.md', 'bug.patch', 'fix.patch', 'tests.json', 'environment.json']) assert.ok(existsSync(join(dir, f)), f);
    assert.equal(t.provenance.edits.length, 1);
    assert.ok(t.provenance.edits[0]!.operator && t.provenance.edits[0]!.line > 0);
    assert.equal(t.provenance.seeds.length, 1);
    assert.equal(t.knobs.hint, 'symptom');
    assert.ok(t.FAIL_TO_PASS.length > 0 && t.PASS_TO_PASS.length > 0);
    assert.doesNotMatch(t.instruction, /stats > /, 'a symptom instruction names no test');
    assert.deepEqual(readTask(dir), t);
  });

  it('hides the failing tests from the agent and keeps the bug in one fresh commit', async () => {
    const t = tasks.find((x) => x.knobs.visibility === 'hidden')!;
    assert.deepEqual(t.hiddenFiles, ['tests/stats.test.js']);
    const built = await buildEnvironment(env, { dataDir, runtime });
    const ws = await agentWorkspace(t, built, runtime, dataDir);
    try {
      assert.equal(existsSync(join(ws.root, 'tests/stats.test.js')), false);
      assert.notEqual(readFileSync(join(ws.root, 'src/stats.js'), 'utf8'), STATS);
    } finally {
      ws.dispose();
    }
  });

  it('a full scripted episode fixes a synthesized task and earns reward 1; doing nothing earns 0', async () => {
    const t = tasks.find((x) => x.knobs.visibility === 'hidden' && x.provenance.strategy === 'combine') ?? tasks[0]!;
    const built = await buildEnvironment(env, { dataDir, runtime });
    const ctx = { built, runtime, dataDir };
    const fixed = await rollout(t, oracleModel(await referenceFiles(t, built.snapshot)), ctx, 0);
    assert.equal(fixed.reward, 1, JSON.stringify(fixed));
    assert.equal(fixed.trajectory.stopReason, 'submitted');
    const idle = await rollout(t, new ScriptedModel([{ content: 'scripted: submitting nothing' }], { name: 'noop' }), ctx, 0);
    assert.equal(idle.reward, 0);
  });

  it('re-validates a task from its directory: the reference fix passes', async () => {
    const t = readTask(join(outDir, tasks[0]!.id));
    const built = await buildEnvironment(env, { dataDir, runtime });
    const r = await revalidate(t, built, runtime, dataDir, { referenceRuns: 1, candidateRuns: 1 });
    assert.equal(r.ok, true, JSON.stringify(r.verdict));
  });

  it('round-trips through SWE-bench and SWE-smith JSONL', async () => {
    for (const t of tasks) {
      assert.deepEqual(await fromRecord('swebench', JSON.parse(JSON.stringify(toSweBench(t)))), t);
      assert.deepEqual(await fromRecord('swesmith', JSON.parse(JSON.stringify(toSweSmith(t)))), t);
    }
    const rec = toSweBench(tasks[0]!);
    assert.equal(typeof rec.FAIL_TO_PASS, 'string', 'SWE-bench lists are JSON strings');
    assert.equal(rec.patch, tasks[0]!.fixPatch, "SWE-bench's patch is the fix");
    assert.equal(toSweSmith(tasks[0]!).patch, tasks[0]!.bugPatch, "SWE-smith's patch is the bug");
  });

  it('imports a record from another tool by computing the other patch direction', async () => {
    const t = tasks[0]!;
    const built = await buildEnvironment(env, { dataDir, runtime });
    const { frognano: _, ...foreign } = toSweBench(t);
    const imported = await fromRecord('swebench', foreign, { env: t.env, reverse: (p) => reversePatch(built.snapshot, p, 'fix') });
    assert.equal(imported.provenance.strategy, 'imported');
    assert.deepEqual(imported.FAIL_TO_PASS, t.FAIL_TO_PASS);
    const r = await revalidate(imported, built, runtime, dataDir, { referenceRuns: 1, candidateRuns: 1 });
    assert.equal(r.ok, true, JSON.stringify(r.verdict));
  });
});

describe('synth keeps only tasks with a failing test the agent cannot see', () => {
  it('rejects a single visible failing test with no check generated from the fix (truth assertions only): no-unseen-check', async () => {
    // Each function has one test and no equality to compute a check from: every valid bug fails a single, visible test.
    const source = 'export function isEven(n) {\n  return n % 2 === 0;\n}\n\nexport function isSmall(n) {\n  return n < 10;\n}\n';
    const tests = nodeTests(
      {
        'four is even': "const m = await import('../src/pred.js'); assert.ok(m.isEven(4));",
        'three is small': "const m = await import('../src/pred.js'); assert.ok(m.isSmall(3));",
      },
      'pred',
    );
    const env = makeJsEnv({ 'src/pred.js': source, 'tests/pred.test.js': tests }, {}, 'toy-pred');
    const dataDir = tempDir();
    const stats = await synthesize({
      envs: [env],
      n: 6,
      strategies: ['procedural'],
      workers: 1,
      seed: 2,
      hint: 'symptom',
      visibility: 'visible',
      outDir: join(dataDir, 'tasks'),
      dataDir,
      runtime,
      referenceRuns: 1,
      candidateRuns: 2,
    });
    const rejected = stats.rejections.filter((r) => r.outcome === 'no-unseen-check');
    assert.ok(rejected.length > 0, JSON.stringify(stats.byEnv));
    assert.match(
      rejected[0]!.detail,
      /a single failing test and no generated check \((no failing test has an equality assertion|no honeypot or check could be laid out)/,
    );
    for (const t of stats.tasks) assert.ok((t.heldBack?.length ?? 0) > 0 || (t.grading?.checks?.length ?? 0) > 0 || t.hiddenFiles.length > 0, t.id);
  });
});
