import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentWorkspace } from '../../src/grading/agent-view.js';
import { fileDiff } from '../../src/util/diff.js';
import { swebenchReport, verify } from '../../src/verifier/verify.js';
import { toyTask, type ToyTask } from '../helpers/task.js';

/** The diff an agent leaves after writing these files into its workspace. */
async function agentDiff(t: ToyTask, files: Record<string, string>, remove: string[] = []): Promise<string> {
  const ws = await agentWorkspace(t.task, t.built, t.runtime, t.dataDir);
  try {
    for (const [rel, content] of Object.entries(files)) ws.writeFile(rel, content);
    for (const rel of remove) await ws.exec({ argv: ['rm', '-f', rel], timeoutMs: 5000 });
    return await ws.diff();
  } finally {
    ws.dispose();
  }
}

for (const language of ['javascript', 'python'] as const) {
  describe(`verifier (${language})`, () => {
    it('rewards the real fix with 1 and an empty change with 0', async () => {
      const t = await toyTask(language);
      const opts = { built: t.built, runtime: t.runtime, dataDir: t.dataDir };
      const good = await verify(t.task, await agentDiff(t, { [t.file]: t.right }), opts);
      assert.equal(good.reward, 1, JSON.stringify(good));
      assert.deepEqual(good.tamper, []);
      assert.deepEqual(good.FAIL_TO_PASS.success, t.task.FAIL_TO_PASS);
      assert.deepEqual(good.patch.files, [t.file]);
      const report = swebenchReport(good)[t.task.id] as { resolved: boolean; patch_successfully_applied: boolean };
      assert.equal(report.resolved, true);
      assert.equal(report.patch_successfully_applied, true);

      const empty = await verify(t.task, '', opts);
      assert.equal(empty.reward, 0);
      assert.equal(empty.patch.empty, true);
      assert.deepEqual(empty.FAIL_TO_PASS.failure, t.task.FAIL_TO_PASS);
      assert.deepEqual(empty.PASS_TO_PASS.success, t.task.PASS_TO_PASS);
    });

    it('restores hidden tests for grading and ignores what the agent did to tests', async () => {
      const t = await toyTask(language, { hidden: true });
      const opts = { built: t.built, runtime: t.runtime, dataDir: t.dataDir };
      const hidden = t.task.hiddenFiles[0]!;
      // The agent cannot see the hidden test file; it writes its own under that name.
      const diff = await agentDiff(t, { [t.file]: t.right, [hidden]: '// nothing to see\n' });
      const r = await verify(t.task, diff, opts);
      assert.equal(r.reward, 1, JSON.stringify(r));
      assert.deepEqual(
        r.patch.dropped.map((d) => d.file),
        [hidden],
      );
      assert.deepEqual(r.FAIL_TO_PASS.success, t.task.FAIL_TO_PASS);
    });
  });
}

describe('verifier edge cases', () => {
  it('scores a patch that does not apply as 0 with the reason', async () => {
    const t = await toyTask('javascript');
    const r = await verify(t.task, fileDiff(t.file, 'something else entirely\n', 'x\n'), { built: t.built, runtime: t.runtime, dataDir: t.dataDir });
    assert.equal(r.reward, 0);
    assert.equal(r.patch.applied, false);
    assert.match(r.reason ?? '', /does not apply/);
  });
});
