import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ATIF_VERSION,
  ATIF_VERSIONS,
  fromAtif,
  fromMiniSweAgent,
  fromOpenAIJsonl,
  MINI_FORMAT,
  toAtif,
  toMiniSweAgent,
  toOpenAIJsonl,
} from '../../src/agent/export.js';
import { sampleTrajectory } from './fixtures.js';

const withoutReasoning = () => sampleTrajectory().messages.map(({ reasoning_content: _r, ...m }) => m);

describe('OpenAI-messages JSONL', () => {
  it('writes one {messages, tools} line per trajectory and reads it back', () => {
    const text = toOpenAIJsonl([sampleTrajectory(), sampleTrajectory()]);
    assert.equal(text.split('\n').filter(Boolean).length, 2);
    const [ex] = fromOpenAIJsonl(text);
    assert.deepEqual(ex!.messages, withoutReasoning());
    assert.deepEqual(
      ex!.tools!.map((t) => t.function.name),
      ['Read', 'Write', 'Edit', 'Glob', 'Bash'],
    );
    assert.equal(fromOpenAIJsonl(toOpenAIJsonl([sampleTrajectory()], { reasoning: true }))[0]!.messages[2]!.reasoning_content, 'check calc.py');
  });

  it('lists no tools for a text-protocol trajectory', () => {
    const t = sampleTrajectory();
    t.meta.protocol = 'text';
    assert.equal(fromOpenAIJsonl(toOpenAIJsonl([t]))[0]!.tools, undefined);
    assert.throws(() => fromOpenAIJsonl('{"nope": 1}'), /no messages array/);
  });
});

// mini-swe-agent 2.4.6's trajectory file (SWE-agent/mini-swe-agent at a83fcae,
// agents/default.py serialize, models/utils/actions_toolcall.py, exceptions.py).
describe('mini-swe-agent trajectory', () => {
  it('has the info, messages and trajectory_format shape, ending with an exit message', () => {
    const m = toMiniSweAgent(sampleTrajectory(), { submission: 'diff --git a/calc.py b/calc.py\n' });
    assert.equal(m.trajectory_format, MINI_FORMAT);
    assert.equal(m.instance_id, 'calc.add-1');
    assert.deepEqual(m.info.model_stats, { instance_cost: 0, api_calls: 3 });
    assert.equal(m.info.exit_status, 'Submitted');
    assert.match(m.info.submission, /^diff --git/);
    assert.deepEqual(Object.keys(m.info.config).sort(), ['agent', 'agent_type', 'environment', 'environment_type', 'model', 'model_type']);
    assert.equal((m.info.config.model as { model_name: string }).model_name, 'scripted:fixture');
    assert.deepEqual(m.messages.at(-1), { role: 'exit', content: m.info.submission, extra: { exit_status: 'Submitted', submission: m.info.submission } });
    const json = JSON.parse(JSON.stringify(m));
    assert.deepEqual(Object.keys(json).sort(), ['info', 'instance_id', 'messages', 'trajectory_format']);
  });

  it('puts actions, usage and an epoch timestamp on assistant messages, as mini does', () => {
    const m = toMiniSweAgent(sampleTrajectory());
    const first = m.messages[2]!.extra!;
    assert.deepEqual(first.actions, [{ command: 'Read {"file_path":"calc.py"}', tool_call_id: 'c1' }]);
    assert.deepEqual((first.response as { usage: unknown }).usage, { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 });
    assert.equal(first.timestamp, Date.parse('2026-01-01T00:00:01.120Z') / 1000);
    assert.deepEqual(m.messages[4]!.extra!.actions, [{ command: 'Edit "{\\"file_path\\": \\"calc.py\\""', tool_call_id: 'c2' }]);
    assert.deepEqual(m.messages[6]!.extra!.actions, []);
    assert.equal(m.messages[3]!.extra, undefined, 'observations answer by tool_call_id');
    assert.equal(m.messages[3]!.tool_call_id, 'c1');
    const text = sampleTrajectory();
    text.meta = { ...text.meta, protocol: 'text', toolset: 'bash' };
    text.messages = [
      text.messages[0]!,
      text.messages[1]!,
      { role: 'assistant', content: 'Look:\n```bash\nls -la\n```' },
      { role: 'user', content: 'Exit code: 0' },
    ];
    text.turns = [{ ...text.turns[0]!, messageIndex: 2 }];
    assert.deepEqual(toMiniSweAgent(text).messages[2]!.extra!.actions, [{ command: 'ls -la' }]);
  });

  it('round-trips messages, stop reason and submission', () => {
    const back = fromMiniSweAgent(JSON.parse(JSON.stringify(toMiniSweAgent(sampleTrajectory(), { submission: 'p' }))));
    assert.deepEqual(back.messages, sampleTrajectory().messages);
    assert.equal(back.stopReason, 'submitted');
    assert.equal(back.submission, 'p');
    const t = sampleTrajectory();
    t.stopReason = 'wall-time';
    assert.equal(toMiniSweAgent(t).info.exit_status, 'TimeExceeded');
    t.stopReason = 'format-errors';
    assert.equal(toMiniSweAgent(t).info.exit_status, 'RepeatedFormatError');
  });
});

describe('Harbor ATIF', () => {
  it('makes system, user and agent steps with observations and token metrics', () => {
    const a = toAtif(sampleTrajectory(), { sessionId: 's1' });
    assert.equal(a.schema_version, ATIF_VERSION);
    assert.equal(a.session_id, 's1');
    assert.equal(a.agent.name, 'frognano');
    assert.deepEqual(
      a.steps.map((s) => s.source),
      ['system', 'user', 'agent', 'agent', 'agent'],
    );
    assert.deepEqual(
      a.steps.map((s) => s.step_id),
      [1, 2, 3, 4, 5],
    );
    const first = a.steps[2]!;
    assert.deepEqual(first.tool_calls, [{ tool_call_id: 'c1', function_name: 'Read', arguments: { file_path: 'calc.py' } }]);
    assert.deepEqual(first.observation, { results: [{ source_call_id: 'c1', content: '     1\tdef add(a, b):' }] });
    assert.deepEqual(first.metrics, {
      prompt_tokens: 100,
      completion_tokens: 20,
      prompt_token_ids: [1, 2, 3],
      completion_token_ids: [9, 8],
      logprobs: [-0.1, -0.2],
      extra: { finish_reason: 'tool_calls', ms: 120, action_logprob: -0.3 },
    });
    assert.equal(first.reasoning_content, 'check calc.py');
    assert.deepEqual(a.steps[3]!.tool_calls![0]!.arguments, {}); // malformed: kept verbatim in extra
    assert.deepEqual(a.steps[3]!.extra, { raw_arguments: { c2: '{"file_path": "calc.py"' } });
    assert.equal(a.steps[4]!.observation, undefined);
    assert.deepEqual(a.final_metrics, { total_prompt_tokens: 250, total_completion_tokens: 30, total_steps: 5, extra: { model_turns: 3 } });
    assert.equal(a.extra!.stop_reason, 'submitted');
  });

  it('round-trips the messages of native and text-protocol trajectories', () => {
    const back = fromAtif(JSON.parse(JSON.stringify(toAtif(sampleTrajectory()))));
    assert.deepEqual(back, sampleTrajectory().messages);
    const text = sampleTrajectory();
    text.meta.protocol = 'text';
    text.messages = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: '```bash\nls\n```' },
      { role: 'user', content: 'Exit code: 0\ncalc.py\n' },
      { role: 'assistant', content: 'FROGNANO_SUBMIT' },
    ];
    text.turns = [text.turns[0]!, { ...text.turns[2]!, messageIndex: 4 }];
    const atif = toAtif(text);
    assert.deepEqual(atif.steps[2]!.observation, { results: [{ content: 'Exit code: 0\ncalc.py\n' }] });
    assert.deepEqual(fromAtif(atif), text.messages);
  });
  it('reads every version Harbor writes, v1.0 to v1.7, text parts included', () => {
    const step = (v: string) => ({
      schema_version: v,
      agent: { name: 'terminus-2', version: '2.0' },
      steps: [
        { step_id: 1, source: 'user' as const, message: 'fix add' },
        {
          step_id: 2,
          source: 'agent' as const,
          message: [
            { type: 'text' as const, text: 'Looking' },
            { type: 'image' as const, source: { media_type: 'image/png', path: 'a.png' } },
          ],
          tool_calls: [{ tool_call_id: 't1', function_name: 'bash', arguments: { command: 'ls' } }],
          observation: { results: [{ source_call_id: 't1', content: [{ type: 'text' as const, text: 'calc.py' }] }] },
        },
      ],
    });
    for (const v of ATIF_VERSIONS) {
      assert.deepEqual(fromAtif(step(v)), [
        { role: 'user', content: 'fix add' },
        {
          role: 'assistant',
          content: 'Looking\n[image]',
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
        },
        { role: 'tool', tool_call_id: 't1', content: 'calc.py' },
      ]);
    }
    assert.throws(() => fromAtif(step('ATIF-v2.0')), /unsupported ATIF version ATIF-v2\.0/);
  });
});

describe("a tool call's arguments in the exports", () => {
  it('are read as the agent reads them: blank text is no arguments, what it could not read is kept as written', () => {
    const t = sampleTrajectory();
    const calls = t.messages[2]!.tool_calls as { function: { arguments: string } }[];
    calls[0]!.function.arguments = ' ';
    const atif = toAtif(t);
    assert.deepEqual(atif.steps[2]!.tool_calls![0]!.arguments, {});
    assert.equal(atif.steps[2]!.extra, undefined);
    assert.deepEqual(atif.steps[3]!.extra, { raw_arguments: { c2: '{"file_path": "calc.py"' } });
    const [read, edit] = toMiniSweAgent(t).messages.filter((m) => m.role === 'assistant');
    assert.deepEqual(read!.extra!.actions, [{ command: 'Read {}', tool_call_id: 'c1' }]);
    assert.deepEqual(edit!.extra!.actions, [{ command: 'Edit "{\\"file_path\\": \\"calc.py\\""', tool_call_id: 'c2' }]);
  });
});
