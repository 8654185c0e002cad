import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { EmbeddedAgent } from '../../src/policy/agent.js';
import { LinearPolicy } from '../../src/policy/linear.js';
import { fixIndices, Openings, patchedFile, reachWithin } from '../../src/policy/reach.js';
import { REACH_FLOOR } from '../../src/train/stock.js';
import { work } from '../../src/rl/rollout.js';
import { fileDiff } from '../../src/util/diff.js';
import { rng } from '../../src/util/rng.js';
import { policyFavouring } from '../helpers/policy.js';
import { toyTask, type ToyTask } from '../helpers/task.js';

describe('reach: the file a patch changes', () => {
  it('patchedFile names the one file, and refuses a patch of two', () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const one = fileDiff('src/a.js', text, text.replace('line 5', 'LINE 5').replace('line 25', 'X'));
    assert.equal(patchedFile(one), 'src/a.js');
    assert.equal(patchedFile(one + fileDiff('src/b.js', text, text.replace('line 9', 'Z'))), null);
  });
});

describe('reachWithin', () => {
  it('is 1 when the fix takes all the mass, 0 with no fix, and about k/n among n equal candidates', () => {
    const random = rng(3);
    assert.equal(reachWithin([0, 1, 0], [1], 1, random), 1);
    assert.equal(reachWithin([0.5, 0.5], [], 10, random), 0);
    const r = reachWithin(Array(20).fill(0.05), [7], 5, random, 4000);
    assert.ok(Math.abs(r - 5 / 20) < 0.03, String(r));
    // Draws never repeat: with as many draws as candidates the fix is always found.
    assert.equal(reachWithin([0.9, 0.05, 0.05], [2], 3, random), 1);
  });
});

describe("reach of a task from the agent's opening (JavaScript toy task)", () => {
  let t: ToyTask;
  before(async () => {
    t = await toyTask('javascript');
  });

  const opening = async (policy: LinearPolicy) => {
    const agent = new EmbeddedAgent(policy, { seed: 1, openingOnly: true });
    const res = await work(t.task, agent, { built: t.built, runtime: t.runtime, dataDir: t.dataDir });
    return { agent, res };
  };

  it('the opening stops before any edit, with the candidates of the files read', async () => {
    const { agent, res } = await opening(new LinearPolicy());
    assert.equal(res.change, '', 'nothing changed');
    assert.ok(!res.turns.some((turn) => turn.learner?.choice), 'no repair chosen');
    assert.ok(agent.opening && agent.opening.cands.length >= 2 && agent.opening.feats.length === agent.opening.cands.length);
    const fix = fixIndices(agent.opening, t.task.fixPatch)!;
    assert.equal(fix.length, 1);
    assert.equal(agent.opening.cands[fix[0]!]!.r.text, '+');
  });

  it('is near 1 for a policy that favours the fix and under the floor for one that avoids it', async () => {
    const favouring = await policyFavouring(t.file, t.broken, t.right);
    const book = new Openings(1, 1);
    assert.ok(book.keep('t', t.task.fixPatch, (await opening(favouring)).agent.opening));
    assert.ok(book.reach(favouring, 't')! > 0.95);
    // The same weights negated: the fix is the least likely candidate. The opening does not depend on the weights, so the kept one serves.
    const avoiding = new LinearPolicy('zero');
    favouring.w.forEach((w, i) => {
      avoiding.w[i] = -w;
    });
    assert.ok(book.reach(avoiding, 't')! < REACH_FLOOR);
    assert.equal(book.reach(avoiding, 't'), book.reach(avoiding, 't'), 'the same draws at every call');
    assert.equal(book.reach(avoiding, 'other'), null, 'no opening kept');
    assert.equal(book.keep('none', t.task.fixPatch, null), false);
    assert.equal(book.keep('two-files', `${t.task.fixPatch}diff --git a/x b/x\n`, (await opening(avoiding)).agent.opening), false, 'a fix over several files');
  });
});
