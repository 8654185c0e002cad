// A store holding runs as training writes them (rows, metrics, attempts with
// gzipped artifacts), for the server, gc and budget tests. The attempts'
// artifacts are small hand-made trajectories in the recorded shape; the
// end-to-end test uses a real run.
import { AttemptLog, type AttemptRow } from '../../src/store/attempts.js';
import { Store } from '../../src/store/store.js';
import { toyTask } from './task.js';
import { tempDir } from './workspace.js';
import { writeTask } from '../../src/task/io.js';
import type { Task } from '../../src/task/task.js';

export interface FixtureStore {
  dir: string;
  store: Store;
  log: AttemptLog;
  task: Task;
  taskDir: string;
}

export function artifact(taskId: string, text = 'x'.repeat(200)) {
  return {
    schema: 'frognano.attempt/v1',
    taskId,
    trajectory: {
      schema: 'frognano.trajectory/v1',
      meta: { model: 'scripted', toolset: 'leaf', protocol: 'tools', startedAt: '2026-12-04T00:00:00Z', limits: {} },
      messages: [
        { role: 'system', content: 'system' },
        { role: 'user', content: 'fix it' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Bash', arguments: '{"command":"npm test"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: text },
        { role: 'assistant', content: 'Done.' },
      ],
      turns: [],
    },
    change: '--- a/src/math.js\n+++ b/src/math.js\n@@ -1 +1 @@\n-  return a - b;\n+  return a + b;\n',
  };
}

export function attemptRow(run: string, taskId: string, over: Partial<AttemptRow> = {}): AttemptRow {
  return {
    run,
    step: 1,
    kind: 'train',
    taskId,
    policyVersion: 0,
    reward: 1,
    verdict: 'pass',
    cause: null,
    stopReason: 'submitted',
    turns: 2,
    tokens: null,
    ms: 1200,
    verifyMs: 300,
    cached: false,
    reason: null,
    ...over,
  };
}

/** A data directory with one stored task; runs are added by the tests. */
export async function fixtureStore(budgetMB?: number): Promise<FixtureStore> {
  const dir = tempDir('fn-serve-');
  const store = new Store(dir);
  const { task } = await toyTask('javascript', { grading: false });
  const taskDir = writeTask(tempDir('fn-bank-'), task);
  return { dir, store, log: new AttemptLog(store, dir, budgetMB), task, taskDir };
}

/** A run with `n` attempts at the toy task (rewards alternating 1, 0) and one metrics row per step. */
export function addRun(f: FixtureStore, name: string, n: number, steps = 2): number[] {
  f.log.runStarted(name, { curriculum: 'frontier', learner: 'embedded', steps, budget: 10 }, { step: 0, rollouts: 0 });
  f.log.addTask(name, {
    taskId: f.task.id,
    env: f.task.env.name,
    strategy: 'procedural',
    operators: ['op_change'],
    bugs: 1,
    hint: 'full',
    heldOut: false,
    dir: f.taskDir,
  });
  const ids = Array.from({ length: n }, (_, i) =>
    f.log.record(attemptRow(name, f.task.id, { reward: i % 2 ? 0 : 1, verdict: i % 2 ? 'fail' : 'pass' }), artifact(f.task.id)),
  );
  for (let s = 1; s <= steps; s++) {
    f.store.addTrainMetrics(name, s, {
      step: s,
      rollouts: 3 * s,
      meanReward: 0.5,
      groups: 1,
      nonDegenerate: 1,
      nonDegenerateShare: 1,
      tampering: 0,
      tamperingShare: 0,
      yield: { candidates: 4, valid: 2, probed: 2, admitted: 1, screened: 0 },
      poolHistogram: [0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
      poolCounts: { active: 1 },
      knobs: { [f.task.env.name]: 0.1 * s },
      elapsedMs: 60_000 * s,
      infraFailures: 0,
    });
  }
  f.log.runProgress(name, { step: steps, rollouts: 3 * steps });
  return ids;
}
