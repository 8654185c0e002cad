import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { LinearPolicy } from '../../src/policy/linear.js';
import { passAtK } from '../../src/eval/passk.js';
import { buildReport } from '../../src/eval/report.js';
import type { TaskResult } from '../../src/eval/run.js';
import { writeTask } from '../../src/task/io.js';
import type { Task } from '../../src/task/task.js';
import { fileDiff } from '../../src/util/diff.js';
import { runCli } from '../helpers/cli.js';
import { toyTask, type ToyTask } from '../helpers/task.js';
import { tempDir } from '../helpers/workspace.js';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('pass@k', () => {
  it('is the unbiased estimator 1 - C(n-c,k)/C(n,k)', () => {
    assert.equal(passAtK(4, 0, 2), 0);
    assert.equal(passAtK(4, 4, 2), 1);
    assert.equal(passAtK(5, 1, 1), 0.2);
    // C(3,2)/C(5,2) = 3/10
    assert.ok(Math.abs(passAtK(5, 2, 2) - 0.7) < 1e-12);
    assert.equal(passAtK(2, 1, 2), 1);
    assert.ok(Math.abs(passAtK(10, 3, 2) - (1 - 21 / 45)) < 1e-12); // C(7,2)/C(10,2)
    assert.ok(Math.abs(passAtK(1000, 10, 100) - 0.653072285207994) < 1e-9); // large n, no overflow
    assert.ok(Number.isNaN(passAtK(0, 0, 1)));
    assert.throws(() => passAtK(2, 3, 1), RangeError);
  });

  it('leaves infrastructure failures out of the pass rates and counts them apart', () => {
    const a = (attempt: number, reward: number | null, retried = false) => ({
      attempt,
      seed: attempt,
      reward,
      stopReason: reward === null ? 'infra-error' : 'submitted',
      steps: 1,
      ms: 10,
      retried,
    });
    const results: TaskResult[] = [
      { id: 't1', env: 'e1', strategy: 'procedural', attempts: [a(0, 1), a(1, 0), a(2, null, true)] },
      { id: 't2', env: 'e1', strategy: 'combine', attempts: [a(0, 0), a(1, 0, true), a(2, 0)] },
      { id: 't3', env: 'e2', strategy: 'combine', attempts: [a(0, null, true), a(1, null, true), a(2, null, true)] },
    ];
    const r = buildReport(results, {
      model: 'm',
      scripted: false,
      tasksSource: 'x',
      k: 2,
      attemptsPerTask: 3,
      seed: 0,
      workers: 1,
      runtime: 'local',
      startedAt: '',
      totalMs: 0,
    });
    assert.equal(r.overall.scoredTasks, 2);
    assert.equal(r.overall.infraFailures, 4);
    assert.equal(r.overall.infraRetried, 5);
    assert.equal(r.overall.passAt1, (0.5 + 0) / 2);
    assert.equal(r.overall.passAtK, (1 + 0) / 2); // t1: n=2, c=1, k=2 -> 1
    assert.equal(r.byStrategy.combine!.passAt1, 0);
    assert.equal(r.byStrategy.combine!.scoredTasks, 1);
    assert.equal(r.byEnv.e2!.passAt1, null);
    assert.deepEqual(r.tasks[0]!.rewards, [1, 0, null]);
  });
});

describe('frognano eval', () => {
  let toy: ToyTask;
  let tasksDir: string;
  const data = () => toy.dataDir;

  before(async () => {
    toy = await toyTask('javascript');
    // Register the toy environment the way a user would: its spec file beside the source.
    const env = toy.built.env;
    writeFileSync(join(env.baseDir, 'environment.json'), JSON.stringify(env.spec, null, 2));
    const added = await runCli(['env', 'add', env.baseDir, '--data-dir', data()]);
    assert.equal(added.code, 0, added.err);
    tasksDir = tempDir('fn-evaltasks-');
    writeTask(tasksDir, toy.task);
    // A second task in the same environment: mul is broken, a different strategy.
    const mulBroken = toy.right.replace('a * b', 'a + b');
    const second: Task = {
      ...toy.task,
      id: 'toy.combine__mul',
      bugPatch: fileDiff(toy.file, toy.right, mulBroken),
      fixPatch: fileDiff(toy.file, mulBroken, toy.right),
      instruction: 'mul(2, 3) returns 5 instead of 6.',
      FAIL_TO_PASS: ['toy > mul multiplies'],
      PASS_TO_PASS: ['toy > add sums'],
      provenance: { ...toy.task.provenance, strategy: 'combine' },
    };
    writeTask(tasksDir, second);
  });

  it('scores the scripted oracle 1 on every task and writes the report and trajectories', async () => {
    const out = join(tempDir(), 'report.json');
    const traj = tempDir('fn-traj-');
    const r = await runCli([
      'eval',
      '--tasks',
      tasksDir,
      '--model',
      'scripted:oracle',
      '--data-dir',
      data(),
      '--out',
      out,
      '--trajectories',
      traj,
      '--seed',
      '3',
    ]);
    assert.equal(r.code, 0, r.err + r.out);
    const rep = readJson(out);
    assert.equal(rep.schema, 'frognano.eval/v1');
    assert.equal(rep.model, 'scripted:oracle');
    assert.equal(rep.scripted, true);
    assert.equal(rep.k, 1);
    assert.equal(rep.overall.passAt1, 1);
    assert.equal(rep.overall.passAtK, 1);
    assert.equal(rep.overall.tasks, 2);
    assert.equal(rep.overall.infraFailures, 0);
    assert.equal(typeof rep.totalMs, 'number');
    assert.deepEqual(Object.keys(rep.byEnv), ['toy']);
    assert.deepEqual(Object.keys(rep.byStrategy).sort(), ['combine', 'procedural']);
    for (const t of rep.tasks) {
      assert.deepEqual(t.rewards, [1]);
      assert.deepEqual(t.stopReasons, ['submitted']);
      assert.equal(t.ms.length, 1);
      assert.ok(existsSync(t.trajectories[0]), 'trajectory written');
      assert.match(readFileSync(t.trajectories[0], 'utf8'), /"model":"scripted:oracle"/);
    }
    assert.match(r.out, /scripted model is a harness check/);
    assert.match(r.out, /pass@1 100\.0% \(2\/2 scored attempts passed\)   solved 100\.0% \(2\/2\) of tasks/);
    assert.equal(
      r.out
        .split('\n')
        .find((l) => l.trim().startsWith('strategy'))
        ?.match(/pass@1/g)?.length,
      1,
      'with k = 1, one pass@1 column',
    );
    assert.match(r.out, /toy\.combine__mul/);
  });

  it('scores a no-op model 0 and computes pass@k over k attempts, the same for the same seed', async () => {
    const out = join(tempDir(), 'report.json');
    const r = await runCli(['eval', '--tasks', tasksDir, '--model', 'scripted:noop', '--k', '2', '--workers', '2', '--data-dir', data(), '--out', out]);
    assert.equal(r.code, 0, r.err + r.out);
    const rep = readJson(out);
    assert.equal(rep.k, 2);
    assert.equal(rep.attemptsPerTask, 2);
    assert.equal(rep.overall.passAt1, 0);
    assert.equal(rep.overall.passAtK, 0);
    assert.equal(rep.overall.scoredAttempts, 4);
    for (const t of rep.tasks) assert.deepEqual(t.rewards, [0, 0]);
    assert.match(r.out, /pass@1 0\.0% \(0\/4 scored attempts passed\)   pass@2 0\.0%/);
    // Seeds are derived from the run's seed, the task and the attempt: the same for the same --seed.
    const again = join(tempDir(), 'again.json');
    assert.equal(
      (await runCli(['eval', '--tasks', tasksDir, '--model', 'scripted:noop', '--k', '2', '--workers', '1', '--data-dir', data(), '--out', again])).code,
      0,
    );
    assert.deepEqual(
      readJson(again).tasks.map((t: { seeds: number[] }) => t.seeds),
      rep.tasks.map((t: { seeds: number[] }) => t.seeds),
    );
    assert.notEqual(rep.tasks[0].seeds[0], rep.tasks[0].seeds[1]);
  });

  it('reports pass rates by strategy for a model that solves one task of two', async () => {
    // Turns a - b back into a + b: fixes the add task; on the mul task the edit finds nothing.
    const script = join(tempDir(), 'fix-add.json');
    writeFileSync(
      script,
      JSON.stringify([
        { toolCalls: [{ name: 'Edit', arguments: { file_path: 'src/math.js', old_string: 'a - b', new_string: 'a + b' } }] },
        { content: 'done' },
      ]),
    );
    const out = join(tempDir(), 'report.json');
    const r = await runCli(['eval', '--tasks', tasksDir, '--model', `scripted:${script}`, '--k', '2', '--data-dir', data(), '--out', out]);
    assert.equal(r.code, 0, r.err + r.out);
    const rep = readJson(out);
    assert.equal(rep.overall.passAt1, 0.5);
    assert.equal(rep.overall.passAtK, 0.5);
    assert.equal(rep.overall.solvedTasks, 1);
    assert.equal(rep.byStrategy.procedural.passAt1, 1);
    assert.equal(rep.byStrategy.combine.passAt1, 0);
  });

  it('runs the embedded policy from a checkpoint, one agent per attempt', async () => {
    const ckpt = join(tempDir(), 'policy.json');
    new LinearPolicy().save(ckpt);
    const out = join(tempDir(), 'report.json');
    const r = await runCli(['eval', '--tasks', tasksDir, '--model', 'embedded', '--checkpoint', ckpt, '--data-dir', data(), '--out', out]);
    assert.equal(r.code, 0, r.err + r.out);
    const rep = readJson(out);
    assert.equal(rep.model, 'embedded:policy.json');
    assert.equal(rep.scripted, false);
    assert.equal(rep.overall.infraFailures, 0);
    assert.equal(rep.overall.scoredAttempts, 2);
    for (const t of rep.tasks) assert.ok(t.steps[0] > 1, 'the policy acted');
  });

  it('evaluates SWE-bench JSONL exported from the task directories', async () => {
    const jsonl = join(tempDir(), 'tasks.jsonl');
    const exp = await runCli(['task', 'export', '--format', 'swebench', '--tasks', tasksDir, '--out', jsonl, '--data-dir', data()]);
    assert.equal(exp.code, 0, exp.err);
    const out = join(tempDir(), 'report.json');
    const r = await runCli(['eval', '--tasks', jsonl, '--model', 'scripted:oracle', '--data-dir', data(), '--out', out, '--json']);
    assert.equal(r.code, 0, r.err + r.out);
    assert.equal(JSON.parse(r.out).overall.passAt1, 1);
    assert.equal(readJson(out).overall.tasks, 2);
  });

  it('evaluates SWE-smith records from another tool in the environment --env names', async () => {
    const jsonl = join(tempDir(), 'smith.jsonl');
    const rec = {
      instance_id: 'foreign__add',
      repo: 'someone/toy',
      patch: toy.task.bugPatch,
      FAIL_TO_PASS: toy.task.FAIL_TO_PASS,
      PASS_TO_PASS: toy.task.PASS_TO_PASS,
      problem_statement: 'add is wrong',
    };
    writeFileSync(jsonl, `${JSON.stringify(rec)}\n`);
    const out = join(tempDir(), 'report.json');
    const r = await runCli(['eval', '--tasks', jsonl, '--env', 'toy', '--model', 'scripted:oracle', '--data-dir', data(), '--out', out]);
    assert.equal(r.code, 0, r.err + r.out);
    const rep = readJson(out);
    assert.deepEqual(
      rep.tasks.map((t: { id: string; rewards: number[] }) => [t.id, t.rewards]),
      [['foreign__add', [1]]],
    );
    assert.deepEqual(Object.keys(rep.byStrategy), ['imported']);
  });

  it('rejects bad inputs with a clear message and a fix', async () => {
    const cases: [string[], RegExp][] = [
      [['eval', '--tasks', tasksDir], /eval needs a model/],
      [['eval', '--tasks', join(tempDir(), 'nope'), '--model', 'scripted:noop'], /does not exist/],
      [['eval', '--tasks', tempDir(), '--model', 'scripted:noop'], /no tasks in/],
      [['eval', '--tasks', tasksDir, '--model', 'scripted:noop', '--k', '0'], /--k must be an integer >= 1/],
      [['eval', '--tasks', tasksDir, '--model', 'scripted:noop', '--k', '3', '--n', '2'], /--n 2 is less than --k 3/],
      [['eval', '--tasks', tasksDir, '--model', 'scripted:nope.json'], /no scripted model "nope\.json"/],
      [['eval', '--tasks', tasksDir, '--model', 'scripted:noop', '--checkpoint', 'p.json'], /--checkpoint is for --model embedded/],
      [['eval', '--tasks', tasksDir, '--model', 'embedded', '--checkpoint', join(tempDir(), 'missing.json')], /no checkpoint at/],
      [['eval', '--tasks', tasksDir, '--model', 'some-llm', '--base-url', 'not a url'], /is not a URL/],
      [['eval', '--run', 'nope', '--model', 'scripted:noop'], /no training run "nope" in [\s\S]*fix: train it first/],
      [['eval', '--run', 'nope', '--tasks', tasksDir, '--model', 'scripted:noop'], /pass one of --tasks and --run, not both/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli([...args, '--data-dir', data()]);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, message);
      assert.match(r.err, /^frognano eval: /);
      assert.match(r.err, /Usage: frognano eval/);
    }
    const bad = join(tempDir(), 'bad.jsonl');
    writeFileSync(bad, '{"instance_id":"x","FAIL_TO_PASS":"[]","PASS_TO_PASS":"[]","patch":""}\n');
    const r = await runCli(['eval', '--tasks', bad, '--model', 'scripted:noop', '--data-dir', data()]);
    assert.equal(r.code, 2);
    assert.match(r.err, /comes from another tool[\s\S]*--env NAME/);
    // An environment the registry does not know.
    const other = tempDir('fn-evaltasks-');
    writeTask(other, { ...toy.task, env: { ...toy.task.env, name: 'elsewhere' } });
    const u = await runCli(['eval', '--tasks', other, '--model', 'scripted:noop', '--data-dir', data()]);
    assert.equal(u.code, 2);
    assert.match(u.err, /no environment named "elsewhere"/);
  });
});
