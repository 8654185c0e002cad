import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildEnvironment } from '../../src/env/build.js';
import { sourceDir, starterEnvs } from '../../src/env/load.js';
import { oracleModel } from '../../src/eval/oracle.js';
import { referenceFiles } from '../../src/task/reference.js';
import { ScriptedModel } from '../../src/model/scripted.js';
import { rollout } from '../../src/rl/rollout.js';
import { selectRuntime } from '../../src/runtime/select.js';
import type { Task } from '../../src/task/task.js';
import { handwrittenCandidate, issueText, readHandwritten } from '../../src/taskpilot/handwritten.js';
import { instructionLeaks } from '../../src/taskpilot/instructions.js';
import { sourceFiles } from '../../src/taskpilot/sources.js';
import { synthesizeHandwritten } from '../../src/taskpilot/synth.js';
import { fileDiff } from '../../src/util/diff.js';
import { handwrittenBugsDir } from '../../src/util/paths.js';
import { tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });
const bugs = readHandwritten(handwrittenBugsDir);
const envs = new Map(starterEnvs().map((e) => [e.spec.name, e]));

describe('the bundled hand-written bugs', () => {
  it('at least 30, across every starter environment, each applying exactly where written', () => {
    assert.ok(bugs.length >= 30, `${bugs.length} bugs`);
    assert.deepEqual([...new Set(bugs.map((b) => b.env))].sort(), [...envs.keys()].sort());
    for (const bug of bugs) {
      const env = envs.get(bug.env)!;
      const made = handwrittenCandidate(bug, sourceFiles(sourceDir(env)!, env.spec));
      assert.ok(!('error' in made), 'error' in made ? made.error : '');
      assert.equal(made.strategy, 'handwritten');
      for (const [file, f] of Object.entries(made.files)) assert.notEqual(f.before, f.after, `${bug.id} changes ${file}`);
    }
  });

  it('no issue text gives away a line of its fix', () => {
    for (const bug of bugs) {
      const env = envs.get(bug.env)!;
      const made = handwrittenCandidate(bug, sourceFiles(sourceDir(env)!, env.spec));
      if ('error' in made) assert.fail(made.error);
      const fix = Object.entries(made.files)
        .map(([rel, f]) => fileDiff(rel, f.after, f.before))
        .join('');
      assert.deepEqual(instructionLeaks(issueText(bug), fix), [], bug.id);
    }
  });
});

describe('reading hand-written bugs', () => {
  it('names the file and the field of a malformed bug, and a bug that does not apply', () => {
    const dir = tempDir();
    const file = join(dir, 'x.json');
    writeFileSync(file, JSON.stringify({ env: 'md-tokens', bugs: [{ id: 'Bad Id', title: 't', issue: 'i', edits: [] }] }));
    assert.throws(
      () => readHandwritten(file),
      (e: Error) => e.message.includes(file) && /id/.test(e.message) && /edits/.test(e.message),
    );
    writeFileSync(file, '{');
    assert.throws(() => readHandwritten(file), /is not JSON/);
    const bug = { env: 'md-tokens', id: 'x-1', title: 't', issue: 'i', edits: [{ file: 'src/nope.js', find: 'a', replace: 'b' }] };
    const env = envs.get('md-tokens')!;
    const missing = handwrittenCandidate(bug, sourceFiles(sourceDir(env)!, env.spec));
    assert.ok('error' in missing && /not a source file/.test(missing.error));
    const src = sourceFiles(sourceDir(env)!, env.spec)[0]!;
    const twice = handwrittenCandidate({ ...bug, edits: [{ file: src.rel, find: ';', replace: '' }] }, [src]);
    assert.ok('error' in twice && /more than once/.test(twice.error));
  });
});

describe('hand-written bugs validated into tasks (md-tokens, in the sandbox)', () => {
  let tasks: Task[] = [];
  const dataDir = tempDir();
  before(async () => {
    mkdirSync(join(dataDir, 'tasks'), { recursive: true });
    const stats = await synthesizeHandwritten(bugs, {
      envs: [envs.get('md-tokens')!],
      workers: 2,
      outDir: join(dataDir, 'tasks'),
      dataDir,
      runtime,
      referenceRuns: 1,
      candidateRuns: 1,
    });
    assert.deepEqual(stats.errors, []);
    tasks = stats.tasks;
  });

  it('every md-tokens bug is proved by its tests, and its issue is the instruction', async () => {
    const mine = bugs.filter((b) => b.env === 'md-tokens');
    assert.equal(tasks.length, mine.length);
    for (const t of tasks) {
      assert.equal(t.provenance.strategy, 'handwritten');
      assert.ok(t.FAIL_TO_PASS.length > 0 && t.PASS_TO_PASS.length > 0);
      assert.ok(mine.some((b) => t.instruction === issueText(b)));
    }
  });

  it('the reference fix scores 1 and no change scores 0', async () => {
    const built = await buildEnvironment(envs.get('md-tokens')!, { dataDir, runtime });
    const t = tasks[0]!;
    const ctx = { built, runtime, dataDir };
    assert.equal((await rollout(t, oracleModel(await referenceFiles(t, built.snapshot)), ctx, 0)).reward, 1);
    assert.equal((await rollout(t, new ScriptedModel([{ content: 'scripted: submitting nothing' }], { name: 'noop' }), ctx, 0)).reward, 0);
  });
});
