import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runAgent, type StepInfo } from '../../src/agent/loop.js';
import { loadTrajectory, Recorder } from '../../src/agent/trajectory.js';
import { ChatError } from '../../src/model/openai.js';
import { ScriptedModel, type ScriptedReply } from '../../src/model/scripted.js';
import type { Model } from '../../src/model/types.js';
import { tempDir } from '../helpers/workspace.js';
import { withWorkspace } from './helpers.js';

const files = { 'calc.py': 'def add(a, b):\n    return a - b\n' };
const call = (name: string, args: Record<string, unknown> | string): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });
const bashForever = () => call('Bash', { command: 'true' });

describe('agent loop (native tool calls)', () => {
  it("gives the agent's commands the variables it is run with", () =>
    withWorkspace(files, async (ws) => {
      const model = new ScriptedModel([call('Bash', { command: 'echo "probe=$FROGNANO_PROBE"' }), { content: 'done' }]);
      const res = await runAgent({ model, workspace: ws, instruction: 'x', env: { FROGNANO_PROBE: 'from-the-spec' } });
      assert.ok(res.trajectory.messages.some((m) => m.role === 'tool' && m.content === 'Exit code: 0\nprobe=from-the-spec\n'));
    }));

  it('runs a scripted episode that edits a file and submits, recording it as it goes', () =>
    withWorkspace(files, async (ws) => {
      const model = new ScriptedModel([
        call('Read', { file_path: 'calc.py' }),
        call('Edit', { file_path: 'calc.py', old_string: 'a - b', new_string: 'a + b' }),
        call('Bash', { command: 'python3 -c "from calc import add; print(add(2, 3))"' }),
        { content: 'Fixed add: it subtracted.' },
      ]);
      const path = join(tempDir(), 'traj.jsonl');
      const steps: StepInfo[] = [];
      const res = await runAgent({
        model,
        workspace: ws,
        instruction: 'add() is wrong',
        taskId: 't1',
        recorder: new Recorder(path),
        onStep: (s) => steps.push(s),
      });
      assert.equal(res.stopReason, 'submitted');
      assert.equal(res.steps, 4);
      assert.equal(readFileSync(join(ws.root, 'calc.py'), 'utf8'), 'def add(a, b):\n    return a + b\n');
      assert.match(await ws.diff(), /\+    return a \+ b/);
      const t = res.trajectory;
      assert.deepEqual(
        t.messages.map((m) => m.role),
        ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
      );
      assert.match(t.messages[0]!.content!, /\/workspace/);
      assert.equal(t.messages[3]!.tool_call_id, 'call_0_0');
      assert.match(t.messages[3]!.content!, /     2\t    return a - b/);
      assert.equal(t.messages[7]!.content, 'Exit code: 0\n5\n');
      assert.deepEqual(
        t.turns.map((x) => x.messageIndex),
        [2, 4, 6, 8],
      );
      assert.equal(t.meta.taskId, 't1');
      assert.equal(t.meta.protocol, 'tools');
      assert.equal(steps.length, 3); // the submitting turn runs no actions
      assert.equal(steps[2]!.observations[0]!.role, 'tool');
      assert.equal(model.requests[0]!.tools!.length, 5);
      assert.equal(model.requests[0]!.maxTokens, 4096);
      assert.deepEqual(loadTrajectory(path), JSON.parse(JSON.stringify(t)));
    }));

  it('stops at the step limit', () =>
    withWorkspace(files, async (ws) => {
      const res = await runAgent({ model: new ScriptedModel(() => bashForever()), workspace: ws, instruction: 'x', limits: { maxSteps: 3 } });
      assert.equal(res.stopReason, 'step-limit');
      assert.equal(res.steps, 3);
      assert.equal(res.trajectory.stopReason, 'step-limit');
    }));

  it('stops when a reply is cut at the per-turn token limit', () =>
    withWorkspace(files, async (ws) => {
      const model = new ScriptedModel([{ content: 'I will now wri', finishReason: 'length' }]);
      const res = await runAgent({ model, workspace: ws, instruction: 'x', limits: { maxTokensPerTurn: 7 } });
      assert.equal(res.stopReason, 'turn-token-limit');
      assert.equal(model.requests[0]!.maxTokens, 7);
    }));

  it('stops at the context limit, from reported usage or from an estimate', () =>
    withWorkspace(files, async (ws) => {
      const big = new ScriptedModel(() => ({ ...bashForever(), usage: { promptTokens: 5000, completionTokens: 10 } }));
      const res = await runAgent({ model: big, workspace: ws, instruction: 'x', limits: { maxContextTokens: 4000 } });
      assert.equal(res.stopReason, 'context-limit');
      assert.equal(res.steps, 1);
      const never = new ScriptedModel(() => bashForever());
      const est = await runAgent({ model: never, workspace: ws, instruction: 'y'.repeat(20_000), limits: { maxContextTokens: 1000 } });
      assert.equal(est.stopReason, 'context-limit');
      assert.equal(never.requests.length, 0);
    }));

  it('stops at the wall-time limit even when the model hangs', () =>
    withWorkspace(files, async (ws) => {
      const hung: Model = { name: 'hung', supportsTools: true, turn: () => new Promise(() => {}) };
      const t0 = Date.now();
      const res = await runAgent({ model: hung, workspace: ws, instruction: 'x', limits: { wallTimeMs: 200 } });
      assert.equal(res.stopReason, 'wall-time');
      assert.ok(Date.now() - t0 < 3000);
    }));

  it('stops when aborted, between steps or during a model call', () =>
    withWorkspace(files, async (ws) => {
      const ac = new AbortController();
      const res = await runAgent({
        model: new ScriptedModel(() => bashForever()),
        workspace: ws,
        instruction: 'x',
        signal: ac.signal,
        onStep: () => ac.abort(),
      });
      assert.equal(res.stopReason, 'aborted');
      assert.equal(res.steps, 1);
      const ac2 = new AbortController();
      const hung: Model = { name: 'hung', supportsTools: true, turn: () => new Promise(() => {}) };
      setTimeout(() => ac2.abort(), 100);
      assert.equal((await runAgent({ model: hung, workspace: ws, instruction: 'x', signal: ac2.signal })).stopReason, 'aborted');
    }));

  it('ends with format-errors after three malformed actions in a row, and explains the JSON each time', () =>
    withWorkspace(files, async (ws) => {
      const broken = call('Read', '{"file_path": "calc.py"');
      const res = await runAgent({ model: new ScriptedModel([broken, broken, broken, { content: 'never asked' }]), workspace: ws, instruction: 'x' });
      assert.equal(res.stopReason, 'format-errors');
      assert.equal(res.steps, 3);
      const obs = res.trajectory.messages.filter((m) => m.role === 'tool');
      assert.equal(obs.length, 3);
      for (const o of obs) assert.match(o.content!, /Format error: .*not valid JSON.*one JSON object/);
    }));

  it('resets the format-error count after a good action', () =>
    withWorkspace(files, async (ws) => {
      const broken = call('Read', 'not json');
      const script = [broken, broken, bashForever(), broken, broken, { content: 'done' }];
      const res = await runAgent({ model: new ScriptedModel(script), workspace: ws, instruction: 'x' });
      assert.equal(res.stopReason, 'submitted');
      assert.equal(res.steps, 6);
    }));

  it('answers tool errors and unknown tools as observations without crashing', () =>
    withWorkspace(files, async (ws) => {
      const model = new ScriptedModel([
        {
          toolCalls: [
            { name: 'Read', arguments: { file_path: 'missing.py' } },
            { name: 'Delete', arguments: { path: 'calc.py' } },
          ],
        },
        call('Edit', { file_path: 'calc.py', old_string: 'nope', new_string: 'x' }),
        { content: 'giving up' },
      ]);
      const res = await runAgent({ model, workspace: ws, instruction: 'x' });
      assert.equal(res.stopReason, 'submitted');
      const obs = res.trajectory.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      assert.match(obs[0]!, /missing\.py does not exist/);
      assert.match(obs[1]!, /unknown tool "Delete"/);
      assert.match(obs[2]!, /not found/);
    }));

  it('truncates long observations to the limit', () =>
    withWorkspace(files, async (ws) => {
      const model = new ScriptedModel([call('Bash', { command: 'seq 1 20000' }), { content: 'ok' }]);
      const res = await runAgent({ model, workspace: ws, instruction: 'x', limits: { maxObservationChars: 500 } });
      const out = res.trajectory.messages.find((m) => m.role === 'tool')!.content!;
      assert.ok(out.length < 800, String(out.length));
      assert.match(out, /^Exit code: 0\n1\n2\n/);
      assert.match(out, /characters \(\d+ lines\) cut from the middle/);
      assert.match(out, /20000\n$/);
    }));

  it('ends with model-error when the model throws, leaving a loadable partial trajectory', () =>
    withWorkspace(files, async (ws) => {
      const path = join(tempDir(), 'traj.jsonl');
      const model = new ScriptedModel([bashForever(), { error: new ChatError('giving up after 4 attempts: 503') }]);
      const res = await runAgent({ model, workspace: ws, instruction: 'x', recorder: new Recorder(path) });
      assert.equal(res.stopReason, 'model-error');
      assert.match(res.error!, /503/);
      const loaded = loadTrajectory(path);
      assert.equal(loaded.stopReason, 'model-error');
      assert.equal(loaded.error, res.error);
      assert.deepEqual(
        loaded.messages.map((m) => m.role),
        ['system', 'user', 'assistant', 'tool'],
      );
      // A crash mid-write: drop the end event and tear the last message line.
      const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
      writeFileSync(path, lines.slice(0, -2).join('\n') + '\n' + lines.at(-2)!.slice(0, 15));
      const torn = loadTrajectory(path);
      assert.equal(torn.stopReason, undefined);
      assert.deepEqual(
        torn.messages.map((m) => m.role),
        ['system', 'user', 'assistant'],
      );
    }));

  it('keeps token ids and logprobs per turn when the model returns them', () =>
    withWorkspace(files, async (ws) => {
      const model: Model = {
        name: 'tokens',
        supportsTools: true,
        turn: async () => ({
          message: { role: 'assistant', content: 'done' },
          finishReason: 'stop',
          tokens: { promptIds: [1, 2], ids: [7, 8], logprobs: [-0.5, -0.25] },
          logprob: -0.75,
        }),
      };
      const res = await runAgent({ model, workspace: ws, instruction: 'x' });
      assert.deepEqual(res.trajectory.turns[0]!.tokens, { promptIds: [1, 2], ids: [7, 8], logprobs: [-0.5, -0.25] });
      assert.equal(res.trajectory.turns[0]!.logprob, -0.75);
    }));
});

describe('agent loop (text protocol)', () => {
  it('runs fenced bash actions and submits on the marker line', () =>
    withWorkspace(files, async (ws) => {
      const model = new ScriptedModel(
        [{ content: 'Fix it.\n```bash\nsed -i "s/a - b/a + b/" calc.py && cat calc.py\n```' }, { content: 'Done.\nFROGNANO_SUBMIT' }],
        { supportsTools: false },
      );
      const res = await runAgent({ model, workspace: ws, instruction: 'fix add', toolset: 'bash' });
      assert.equal(res.stopReason, 'submitted');
      assert.equal(model.requests[0]!.tools, undefined);
      assert.match(model.requests[0]!.messages[0]!.content!, /```bash/);
      assert.deepEqual(
        res.trajectory.messages.map((m) => m.role),
        ['system', 'user', 'assistant', 'user', 'assistant'],
      );
      assert.match(res.trajectory.messages[3]!.content!, /^Exit code: 0\n.*return a \+ b/s);
      assert.equal(res.trajectory.meta.protocol, 'text');
    }));

  it('counts replies without an action as format errors', () =>
    withWorkspace(files, async (ws) => {
      const model = new ScriptedModel(() => ({ content: 'Hmm, let me think.' }), { supportsTools: false });
      const res = await runAgent({ model, workspace: ws, instruction: 'x', toolset: 'leaf' });
      assert.equal(res.stopReason, 'format-errors');
      assert.match(res.trajectory.messages[3]!.content!, /Format error: no action found[\s\S]*<tool_call>/);
    }));
});
