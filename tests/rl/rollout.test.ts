import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { ModelTurn } from '../../src/model/types.js';
import { EmbeddedAgent } from '../../src/policy/agent.js';
import { LinearPolicy } from '../../src/policy/linear.js';
import { decisionsOf, type EmbeddedTurn } from '../../src/policy/decisions.js';
import type { Rollout } from '../../src/rl/contract.js';
import { AGENT_TIMEOUT_FLOOR_MS, agentCommandTimeoutMs, rollout, type RolloutContext } from '../../src/rl/rollout.js';
import type { Task } from '../../src/task/task.js';
import { ResultReuse } from '../../src/grading/reuse.js';
import { keepingTurns, policyFavouring } from '../helpers/policy.js';
import { toyTask, type ToyTask } from '../helpers/task.js';

interface Call {
  tool: string;
  args: Record<string, unknown>;
  logprob?: number;
}

function calls(turns: ModelTurn[]): Call[] {
  return turns.flatMap((t) =>
    (t.message.tool_calls ?? []).map((c) => ({
      tool: c.function.name,
      args: JSON.parse(c.function.arguments) as Record<string, unknown>,
      ...(t.logprob !== undefined ? { logprob: t.logprob } : {}),
    })),
  );
}

function ctxOf(t: ToyTask, extra: Partial<RolloutContext> = {}): RolloutContext {
  return { built: t.built, runtime: t.runtime, dataDir: t.dataDir, ...extra };
}

/** What every episode does: runs the tests, lists and reads the source, edits, and logs each choice exactly. */
function checkEpisode(t: ToyTask, policy: LinearPolicy, model: ReturnType<typeof keepingTurns>, res: Rollout<EmbeddedTurn>) {
  const cs = calls(model.turns);
  assert.equal(cs[0]!.tool, 'Bash', 'the tests run first');
  assert.match(String(cs[0]!.args.command), t.task.env.spec.language === 'python' ? /pytest/ : /--test-reporter=tap/);
  assert.ok(cs.some((c) => c.tool === 'Glob'));
  assert.ok(
    cs.some((c) => c.tool === 'Read' && c.args.file_path === t.file),
    'reads the source',
  );
  const edits = cs.filter((c) => c.tool === 'Edit');
  assert.ok(edits.length >= 1 && edits.every((e) => e.args.file_path === t.file));
  assert.ok(cs.filter((c) => c.tool === 'Bash').length >= 2, 'the tests run again after an edit');
  // One decision per chosen repair, each the logprob of one Edit turn, exactly.
  const decisions = decisionsOf(res.trajectory);
  assert.ok(decisions.length >= 1);
  // What the learner gets is what the agent's turns carried, in order, and nothing else.
  assert.deepEqual(
    res.trajectory.turns.map((turn) => turn.learner),
    model.turns.map((turn) => turn.learner),
  );
  assert.equal(res.policyVersion, 0);
  const logged = cs.filter((c) => c.logprob !== undefined);
  assert.equal(logged.length, decisions.length);
  logged.forEach((c, k) => {
    assert.equal(c.tool, 'Edit');
    assert.ok(Number.isFinite(c.logprob) && c.logprob! <= 0);
    assert.ok(Math.abs(c.logprob! - policy.logprob(decisions[k]!)) < 1e-12, `turn ${k}: ${c.logprob} vs ${policy.logprob(decisions[k]!)}`);
  });
  assert.equal(res.taskId, t.task.id);
  assert.ok(res.steps >= cs.length);
}

describe('rollout of the embedded policy (JavaScript)', () => {
  let t: ToyTask;
  before(async () => {
    t = await toyTask('javascript');
  });

  it('at zero weights: runs, reads, edits, and its choices are uniform with exact logprobs', async () => {
    const policy = new LinearPolicy('zero');
    const model = keepingTurns(new EmbeddedAgent(policy, { seed: 1 }));
    const res = await rollout(t.task, model, ctxOf(t), 0);
    assert.notEqual(res.trajectory.stopReason, 'infra-error', res.reason);
    assert.ok(res.reward === 0 || res.reward === 1);
    checkEpisode(t, policy, model, res);
    for (const d of decisionsOf(res.trajectory)) {
      const n = d.feats.length;
      assert.ok(n >= 2, 'a real choice');
      for (const p of policy.probabilities(d.feats)) assert.ok(Math.abs(p - 1 / n) < 1e-12);
      assert.ok(Math.abs(policy.logprob(d) + Math.log(n)) < 1e-12);
    }
    // One failing test: a repair either fixes it or is undone, so every repair but a passing rollout's last is marked undone.
    decisionsOf(res.trajectory).forEach((d, k) =>
      assert.equal(d.undone ?? false, !(res.reward === 1 && k === decisionsOf(res.trajectory).length - 1), `decision ${k}`),
    );
    // Undone repairs are not offered again: each choice has fewer candidates.
    for (let k = 1; k < decisionsOf(res.trajectory).length; k++)
      assert.ok(decisionsOf(res.trajectory)[k]!.feats.length < decisionsOf(res.trajectory)[k - 1]!.feats.length);
  });

  it('with weights favouring the right repair: one edit, the right one, reward 1', async () => {
    const policy = await policyFavouring(t.file, t.broken, t.right);
    const model = keepingTurns(new EmbeddedAgent(policy, { seed: 1 }));
    const res = await rollout(t.task, model, ctxOf(t), 0);
    assert.equal(res.reward, 1, res.reason);
    assert.equal(res.trajectory.stopReason, 'submitted');
    checkEpisode(t, policy, model, res);
    assert.equal(decisionsOf(res.trajectory).length, 1);
    assert.equal(decisionsOf(res.trajectory)[0]!.undone, undefined, 'the fix is kept');
    assert.ok(policy.logprob(decisionsOf(res.trajectory)[0]!) > Math.log(0.99));
    const edit = calls(model.turns).find((c) => c.tool === 'Edit')!;
    assert.match(String(edit.args.old_string), /a - b/);
    assert.match(String(edit.args.new_string), /a \+ b/);
  });

  it('the test-run and verdict caches hit on a second rollout of the task and change nothing', async () => {
    const policy = await policyFavouring(t.file, t.broken, t.right);
    const reuse = new ResultReuse();
    const first = await rollout(t.task, new EmbeddedAgent(policy, { seed: 5 }), ctxOf(t, { reuse }), 0);
    assert.equal(first.reward, 1, first.reason);
    assert.equal(first.cached, false);
    assert.equal(reuse.counts['agent-test'].hits, 0);
    assert.equal(reuse.counts['agent-test'].misses, 2, 'the failing run and the run after the repair');
    assert.deepEqual(reuse.counts.verdict, { hits: 0, misses: 1 });

    const second = await rollout(t.task, new EmbeddedAgent(policy, { seed: 6 }), ctxOf(t, { reuse }), 0);
    assert.equal(second.reward, first.reward);
    assert.equal(second.cached, true, 'the verifier is not run again for the same patch');
    assert.equal(reuse.counts['agent-test'].hits, 2);
    assert.equal(reuse.counts['agent-test'].misses, 2);
    assert.deepEqual(reuse.counts.verdict, { hits: 1, misses: 1 });
    assert.equal(decisionsOf(second.trajectory).length, decisionsOf(first.trajectory).length);
  });
});

describe('rollout of the embedded policy (Python)', () => {
  it('with weights favouring the right repair: pytest output read, one edit, reward 1', async () => {
    const t = await toyTask('python');
    const policy = await policyFavouring(t.file, t.broken, t.right);
    const model = keepingTurns(new EmbeddedAgent(policy, { seed: 1 }));
    const res = await rollout(t.task, model, ctxOf(t), 0);
    assert.equal(res.reward, 1, res.reason);
    checkEpisode(t, policy, model, res);
    assert.equal(decisionsOf(res.trajectory).length, 1);
    // The failing pytest run was understood: the test file was read around the failing line.
    assert.ok(calls(model.turns).some((c) => c.tool === 'Read' && c.args.file_path === 'tests/test_calc.py' && typeof c.args.offset === 'number'));
  });
});

describe('agent command time limit', () => {
  const task = (candidateMs: number | undefined, timeoutSec = 60) =>
    ({ env: { spec: { timeoutSec } }, stats: candidateMs === undefined ? {} : { validation: { candidateMs } } }) as unknown as Task;
  it("scales with validation's runs, above a floor of a second and a half and never past the spec", () => {
    assert.equal(agentCommandTimeoutMs(task(200)), AGENT_TIMEOUT_FLOOR_MS, 'a fast suite gets the floor');
    assert.ok(AGENT_TIMEOUT_FLOOR_MS < 10_000, 'a looping repair costs less than the old 10 s');
    assert.equal(agentCommandTimeoutMs(task(2_500)), 5_000, 'twice a slow candidate check');
    assert.equal(agentCommandTimeoutMs(task(30_000, 60)), 60_000, 'capped by the spec');
    assert.equal(agentCommandTimeoutMs(task(undefined, 45)), 45_000, 'the spec when validation left no timing');
  });
});
