import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildEnvironment } from '../../src/env/build.js';
import { selectRuntime } from '../../src/runtime/select.js';
import type { Task } from '../../src/task/task.js';
import { auditTasks } from '../../src/taskpilot/audit.js';
import { synthesizeHandwritten } from '../../src/taskpilot/synth.js';
import { makeJsEnv, nodeTests } from '../helpers/env.js';
import { tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });

const SRC = `export function mean(xs) {
  let total = 0;
  for (const x of xs) total += x;
  return xs.length > 0 ? total / xs.length : 0;
}

export function clamp(x, lo, hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}
`;
const TESTS = nodeTests(
  {
    'mean of several': "const m = await import('../src/calc.js'); assert.equal(m.mean([1, 2, 6]), 3);",
    'clamp above': "const m = await import('../src/calc.js'); assert.equal(m.clamp(50, 0, 10), 10);",
    'clamp inside': "const m = await import('../src/calc.js'); assert.equal(m.clamp(5, 0, 10), 5);",
  },
  'calc',
);

describe('task audit: a sample of accepted tasks re-validated with more runs and checked for leaks', () => {
  const env = makeJsEnv({ 'src/calc.js': SRC, 'tests/calc.test.js': TESTS }, {}, 'toy-calc');
  const dataDir = tempDir();
  let tasks: Task[] = [];
  before(async () => {
    const bug = (id: string, find: string, replace: string) => ({
      env: 'toy-calc',
      id,
      title: id,
      issue: 'Something is off with the numbers.',
      edits: [{ file: 'src/calc.js', find, replace }],
    });
    const stats = await synthesizeHandwritten(
      [bug('mean-off', 'total / xs.length', 'total / (xs.length + 1)'), bug('clamp-high', 'return hi;', 'return lo;')],
      {
        envs: [env],
        workers: 2,
        outDir: join(dataDir, 'tasks'),
        dataDir,
        runtime,
      },
    );
    tasks = [...stats.tasks].sort((a, b) => a.id.localeCompare(b.id));
    assert.equal(tasks.length, 2, JSON.stringify(stats.rejections));
  });

  it('finds the valid, the leaking (its instruction quotes the fix) and the invalid (a label that does not reproduce), with bounds', async () => {
    const [a, b] = tasks as [Task, Task];
    const fixLine = b.fixPatch
      .split('\n')
      .find((l) => l.startsWith('+') && !l.startsWith('+++'))!
      .slice(1);
    const leaking: Task = { ...b, id: 'leaking', instruction: `${b.instruction}\nMaybe:\n${fixLine}\n` };
    // A pass-to-pass label claimed as failing: it passes under the bug, so it cannot be a FAIL_TO_PASS label.
    const invalid: Task = { ...a, id: 'invalid', FAIL_TO_PASS: [...a.FAIL_TO_PASS, ...a.PASS_TO_PASS.slice(0, 1)], PASS_TO_PASS: a.PASS_TO_PASS.slice(1) };
    const built = await buildEnvironment(env, { dataDir, runtime });
    const seen: string[] = [];
    const report = await auditTasks(
      [a, leaking, invalid],
      async () => built,
      runtime,
      dataDir,
      { sample: 3, runs: 2, seed: 1, workers: 2 },
      (e) => seen.push(e.taskId),
    );
    const outcome = Object.fromEntries(report.entries.map((e) => [e.taskId, e.outcome]));
    assert.deepEqual(outcome, { [a.id]: 'valid', leaking: 'leaking', invalid: 'invalid' });
    assert.match(report.entries.find((e) => e.taskId === 'invalid')!.detail, /did not reproduce/);
    assert.equal(seen.length, 3);
    assert.equal(report.invalid, 1);
    assert.equal(report.leaking, 1);
    // 2 of 3 bad: the interval holds 2/3 and stays inside [0, 1].
    assert.ok(report.badShare[0] < 2 / 3 && report.badShare[1] > 2 / 3 && report.badShare[1] <= 1);
  });

  it('samples at most --sample tasks, the same ones for the same seed', async () => {
    const built = await buildEnvironment(env, { dataDir, runtime });
    const ids = async (seed: number) =>
      (await auditTasks(tasks, async () => built, runtime, dataDir, { sample: 1, runs: 1, seed, workers: 1 })).entries.map((e) => e.taskId);
    assert.deepEqual(await ids(3), await ids(3));
    assert.equal((await ids(3)).length, 1);
  });
});
