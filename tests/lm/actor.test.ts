// LmActor against a scripted sampler: what it asks the sampler, how the
// sampled tokens come back as an assistant message and a TokenTurn, which
// failures are the infrastructure's (InfraError) and which are not. Then one
// episode through the real harness on a real workspace.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runAgent } from '../../src/agent/loop.js';
import { toolSpecs, toolset } from '../../src/agent/tools/index.js';
import { LmActor, type LmActorOptions } from '../../src/lm/actor.js';
import { episodeTokens } from '../../src/lm/datums.js';
import type { ChatMessage } from '../../src/model/types.js';
import type { Rollout, TokenTurn } from '../../src/rl/contract.js';
import { SamplerFault } from '../../src/sampler/check.js';
import type { Sample, SampleRequest, Sampler } from '../../src/sampler/types.js';
import { ChatCodec } from '../../src/tokens/codec.js';
import { writeTinyModelFolder } from '../../src/tokens/tiny-folder.js';
import { TokenTranscript } from '../../src/tokens/transcript.js';
import { InfraError } from '../../src/util/errors.js';
import { withWorkspace } from '../agent/helpers.js';
import { tempDir } from '../helpers/workspace.js';

const codec = ChatCodec.load(writeTinyModelFolder(join(tempDir('fn-lm-actor-'), 'tokenizer')));
const EOT = codec.format.endOfTurnId;
const TOOLS = toolSpecs(toolset('leaf'));
const WEIGHTS = 'tinker://scripted/sampler_weights/v3';

/** A sampled reply: the tiny tokenizer's ids for `text`, logprob -0.5 each; `end` appends the end-of-turn token as sampled. */
function reply(text: string, o: { end?: boolean; stopReason?: Sample['stopReason'] } = {}): Sample {
  const tokens = [...codec.tokenizer.encode(text), ...(o.end === false ? [] : [EOT])];
  return { tokens, logprobs: tokens.map(() => -0.5), stopReason: o.stopReason ?? 'stop' };
}

/**
 * A scripted sampler: no model behind it. It answers each call with the
 * next scripted sample (or throws the scripted error) and records the
 * requests it got.
 */
class ScriptedSampler implements Sampler {
  readonly weights = WEIGHTS;
  readonly requests: SampleRequest[] = [];
  constructor(private readonly script: (Sample | Error)[]) {}
  sample(req: SampleRequest): Promise<Sample> {
    this.requests.push(req);
    const next = this.script.shift();
    if (next === undefined) return Promise.reject(new Error('the script ran out'));
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  }
}

function actor(sampler: Sampler, o: Partial<LmActorOptions> = {}): LmActor {
  return new LmActor({ codec, sampler, maxTokens: 200, contextTokens: 100_000, temperature: 0.7, seed: 5, name: 'tiny@v3', ...o });
}

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You fix code.' },
  { role: 'user', content: 'The tests of add fail. Fix the bug.' },
];
const WRITE = { file_path: 'src/op.js', content: 'export const add = (a, b) => a + b;\n' };
const WRITE_CALL = `<tool_call>${JSON.stringify({ name: 'Write', arguments: WRITE })}</tool_call>`;

describe('LmActor', () => {
  it('renders the conversation to tokens, samples, and returns the parsed tool call with its TokenTurn', async () => {
    const sample = reply(WRITE_CALL);
    const sampler = new ScriptedSampler([sample]);
    const out = await actor(sampler).turn({ messages: MESSAGES, tools: TOOLS, maxTokens: 4096 });
    const expectedPrompt = new TokenTranscript(codec).prompt(MESSAGES, TOOLS);
    assert.deepEqual(sampler.requests[0]!.prompt, expectedPrompt);
    assert.equal(out.message.role, 'assistant');
    assert.equal(out.message.tool_calls?.length, 1);
    const call = out.message.tool_calls![0]!;
    assert.equal(call.function.name, 'Write');
    assert.deepEqual(JSON.parse(call.function.arguments), WRITE);
    assert.equal(call.id, 'call_0_0');
    assert.equal(out.finishReason, 'stop');
    assert.deepEqual(out.usage, { promptTokens: expectedPrompt.length, completionTokens: sample.tokens.length });
    const learner: TokenTurn = out.learner!;
    assert.deepEqual(learner, {
      promptTokens: expectedPrompt,
      sampledTokens: sample.tokens,
      logprobs: sample.logprobs,
      lossMask: sample.tokens.map(() => 1),
      weights: WEIGHTS,
    });
    assert.deepEqual(out.tokens, { promptIds: expectedPrompt, ids: sample.tokens, logprobs: sample.logprobs });
  });

  it('closes a reply the sampler stopped without the end-of-turn token with one, untrained', async () => {
    const sample = reply('All done.', { end: false });
    const out = await actor(new ScriptedSampler([sample])).turn({ messages: MESSAGES, tools: TOOLS });
    assert.equal(out.message.content, 'All done.');
    assert.equal(out.message.tool_calls, undefined);
    const t = out.learner!;
    assert.deepEqual(t.sampledTokens, [...sample.tokens, EOT]);
    assert.deepEqual(t.lossMask, [...sample.tokens.map(() => 1), 0]);
    assert.deepEqual(t.logprobs, [...sample.logprobs, 0]);
  });

  it('asks the sampler to stop at the end-of-turn token, with its temperature, and at most the tokens the context has left', async () => {
    const prompt = new TokenTranscript(codec).prompt(MESSAGES, TOOLS);
    const sampler = new ScriptedSampler([reply('a'), reply('b'), reply('c')]);
    await actor(sampler, { maxTokens: 200 }).turn({ messages: MESSAGES, tools: TOOLS, maxTokens: 4096 });
    await actor(sampler, { maxTokens: 200 }).turn({ messages: MESSAGES, tools: TOOLS, maxTokens: 50 });
    await actor(sampler, { maxTokens: 200, contextTokens: prompt.length + 7 }).turn({ messages: MESSAGES, tools: TOOLS, maxTokens: 4096 });
    assert.deepEqual(
      sampler.requests.map((r) => r.maxTokens),
      [200, 50, 7],
    );
    for (const r of sampler.requests) {
      assert.deepEqual(r.stop, [EOT]);
      assert.equal(r.temperature, 0.7);
    }
  });

  it("prompts each later turn with the earlier prompt and sampled tokens unchanged, then the new messages'", async () => {
    const first = reply(WRITE_CALL);
    const sampler = new ScriptedSampler([first, reply('Done.')]);
    const a = actor(sampler);
    const t1 = await a.turn({ messages: MESSAGES, tools: TOOLS });
    const history: ChatMessage[] = [...MESSAGES, t1.message as ChatMessage, { role: 'tool', tool_call_id: 'call_0_0', content: 'Wrote src/op.js.' }];
    const t2 = await a.turn({ messages: history, tools: TOOLS });
    const held = [...t1.learner!.promptTokens, ...t1.learner!.sampledTokens];
    assert.deepEqual(t2.learner!.promptTokens.slice(0, held.length), held);
    assert.ok(t2.learner!.promptTokens.length > held.length, 'the tool result follows');
    assert.deepEqual(sampler.requests[1]!.prompt, t2.learner!.promptTokens);
    assert.notEqual(sampler.requests[0]!.seed, sampler.requests[1]!.seed, 'each turn samples with a seed of its own');
    assert.equal(t2.message.content, 'Done.');
  });

  it('turns a sampler that throws a plain error into an InfraError naming its weights', async () => {
    const boom = new Error('connection reset');
    const err = await actor(new ScriptedSampler([boom]))
      .turn({ messages: MESSAGES, tools: TOOLS })
      .then(
        () => assert.fail('the turn should fail'),
        (e: unknown) => e,
      );
    assert.ok(err instanceof InfraError, `an InfraError, not ${String(err)}`);
    assert.match(err.message, new RegExp(`sampler ${WEIGHTS}: connection reset`));
    assert.equal(err.cause, boom);
  });

  it('lets a SamplerFault through as itself', async () => {
    const fault = new SamplerFault('zero-logprobs', 'all 5 logprobs are exactly 0');
    await assert.rejects(actor(new ScriptedSampler([fault])).turn({ messages: MESSAGES, tools: TOOLS }), (e: unknown) => e === fault);
  });

  it('lets the error of an aborted turn through as it is: the harness cut it, not the infrastructure', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = new Error('aborted');
    await assert.rejects(actor(new ScriptedSampler([err])).turn({ messages: MESSAGES, tools: TOOLS, signal: ac.signal }), (e: unknown) => e === err);
  });

  it('ends the turn as a truncation, sampling and training nothing, when the prompt fills the context', async () => {
    const prompt = new TokenTranscript(codec).prompt(MESSAGES, TOOLS);
    const sampler = new ScriptedSampler([reply('a')]);
    const out = await actor(sampler, { contextTokens: prompt.length }).turn({ messages: MESSAGES, tools: TOOLS });
    assert.equal(sampler.requests.length, 0, 'nothing sampled');
    assert.equal(out.finishReason, 'length');
    assert.deepEqual(out.message, { role: 'assistant', content: '' });
    assert.equal(out.learner, undefined, 'nothing to train on');
    assert.deepEqual(out.usage, { promptTokens: prompt.length, completionTokens: 0 });
  });
});

describe('LmActor in the agent harness', () => {
  it('writes a file through the Write tool, then submits; its turns chain into one trainable token sequence', () =>
    withWorkspace({ 'src/op.js': 'export const add = (a, b) => a - b;\n' }, async (ws) => {
      const sampler = new ScriptedSampler([reply(WRITE_CALL), reply('Fixed the operator.')]);
      const res = await runAgent({ model: actor(sampler), workspace: ws, instruction: 'The tests of add fail. Fix the bug.', toolset: 'leaf' });
      assert.equal(res.stopReason, 'submitted');
      assert.equal(res.steps, 2);
      assert.equal(readFileSync(join(ws.root, 'src/op.js'), 'utf8'), WRITE.content);
      assert.deepEqual(
        res.turns.map((t) => t.tools),
        [['Write'], []],
      );
      // The tool's result is in the second prompt, as the harness said it.
      const toolResult = res.trajectory.messages.find((m) => m.role === 'tool')!;
      const second = res.turns[1]!.learner!;
      assert.ok(codec.tokenizer.decode(second.promptTokens).includes(toolResult.content as string));
      const rollout: Rollout<TokenTurn> = {
        taskId: 't',
        trajectory: { turns: res.turns, stopReason: res.stopReason },
        reward: 1,
        policyVersion: 3,
        steps: res.steps,
        ms: 0,
        verifyMs: 0,
        cached: false,
      };
      const ep = episodeTokens(rollout)!;
      assert.deepEqual(ep.tokens, [...second.promptTokens, ...second.sampledTokens]);
      assert.equal(
        ep.weights.reduce((a, b) => a + b, 0),
        res.turns.reduce((n, t) => n + t.learner!.sampledTokens.length, 0),
      );
    }));

  it('ends the episode as a truncation when the context fills, keeping the turns before', async () => {
    const episode = (contextTokens: number, sampler: ScriptedSampler) =>
      withWorkspace({ 'src/op.js': 'export const add = (a, b) => a - b;\n' }, async (ws) => ({
        res: await runAgent({ model: actor(sampler, { contextTokens }), workspace: ws, instruction: 'Fix add.', toolset: 'leaf' }),
        file: readFileSync(join(ws.root, 'src/op.js'), 'utf8'),
      }));
    const roomy = await episode(100_000, new ScriptedSampler([reply(WRITE_CALL), reply('Done.')]));
    const t1 = roomy.res.turns[0]!.learner!;
    // Room for the first turn and one token more: the tool result does not fit.
    const sampler = new ScriptedSampler([reply(WRITE_CALL), reply('Done.')]);
    const { res, file } = await episode(t1.promptTokens.length + t1.sampledTokens.length + 1, sampler);
    assert.equal(res.stopReason, 'turn-token-limit');
    assert.equal(sampler.requests.length, 1, 'the second turn sampled nothing');
    assert.equal(file, WRITE.content, 'the first turn acted');
    assert.equal(res.turns.length, 2);
    assert.deepEqual(res.turns[0]!.learner, t1);
    assert.equal(res.turns[1]!.learner, undefined);
  });

  it('ends the episode with a model error whose cause is the InfraError when the sampler fails', () =>
    withWorkspace({ 'a.txt': 'x\n' }, async (ws) => {
      const fault = new SamplerFault('zero-logprobs', 'all 9 logprobs are exactly 0');
      const sampler = new ScriptedSampler([reply(`<tool_call>${JSON.stringify({ name: 'Read', arguments: { file_path: 'a.txt' } })}</tool_call>`), fault]);
      const res = await runAgent({ model: actor(sampler), workspace: ws, instruction: 'Read a.txt.', toolset: 'leaf' });
      assert.equal(res.stopReason, 'model-error');
      assert.equal(res.cause, fault);
      assert.ok(res.cause instanceof InfraError);
      assert.equal(res.steps, 1);
      assert.equal(res.turns.length, 1, 'the turn before the fault is kept');
    }));
});
