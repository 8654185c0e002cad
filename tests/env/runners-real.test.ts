// Each supported runner for real: its fixture repository is added with zero
// flags, its dependency layer installed from the npm registry, its suite run
// twice in the sandbox with the layer read-only, and bugs synthesized on it
// with the reward-integrity honeypots the verifier grades with.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findEnvironment, addEnvironment } from '../../src/env/registry.js';
import { checkEnvironment } from '../../src/grading/env-check.js';
import { honeypotCount } from '../../src/grading/layout.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { Store } from '../../src/store/store.js';
import { synthesize } from '../../src/taskpilot/synth.js';
import type { Task } from '../../src/task/task.js';
import { JS_RUNNER_REPOS, PY_RUNNER_REPOS, writeRepo } from '../helpers/runner-repos.js';
import { tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });
const dataDir = tempDir();
const store = new Store(dataDir);
after(() => store.close());

// ONLY_RUNNER=<name> runs one runner's tests (for work on one of them).
const only = process.env.ONLY_RUNNER;

for (const [name, repo] of Object.entries({ ...JS_RUNNER_REPOS, ...PY_RUNNER_REPOS }).filter(([n]) => !only || n === only)) {
  describe(`runner ${name}, for real`, () => {
    it('is inferred, accepted by env check with every test passing twice, the same ids each run', async () => {
      const { spec } = await addEnvironment(store, writeRepo(repo.files, name), { name: `r-${name}` });
      const result = await checkEnvironment(findEnvironment(store, spec.name), { dataDir, runtime });
      assert.equal(result.accepted, true, result.reasons.join('; '));
      assert.equal(result.total, repo.tests);
      assert.equal(result.passed, repo.tests);
      assert.equal(result.flaky, 0);
      const ids = result.tests.map((t) => t.id);
      assert.equal(new Set(ids).size, repo.tests, `distinct ids: ${ids.join(', ')}`);
      assert.ok(
        ids.every((id) => !/time=|\d+(\.\d+)?ms/.test(id)),
        ids.join(', '),
      );
    });

    it('synthesizes valid tasks, graded with honeypot twins of the project tests, checks generated from the fix and the guard', async () => {
      const tasks: Task[] = [];
      await synthesize({
        envs: [findEnvironment(store, `r-${name}`)],
        n: 3,
        strategies: ['procedural'],
        workers: 1,
        seed: 3,
        hint: 'symptom',
        visibility: 'visible',
        outDir: join(dataDir, 'tasks'),
        dataDir,
        runtime,
        onTask: (t) => tasks.push(t),
      });
      assert.ok(tasks.length >= 1, 'at least one valid task');
      assert.ok(
        tasks.some((t) => honeypotCount(t.grading) > 0),
        'a task with honeypot twins',
      );
      assert.ok(
        tasks.some((t) => (t.grading?.checks?.length ?? 0) > 0),
        `a task with generated checks: ${tasks.map((t) => t.grading?.noChecks).join('; ')}`,
      );
      assert.ok(
        tasks.every((t) => t.grading?.guard === true),
        `graded with the guard: ${tasks.map((t) => t.grading?.unguarded).join('; ')}`,
      );
    });
  });
}
