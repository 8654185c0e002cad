// A toy task a tiny token model can learn end to end, and the supervised
// warm-up that teaches it the tool-call format first. The environment has one
// function, `add`; TaskPilot breaks its operator. The fix is one Write call
// restoring the file. The warm-up demonstrations write the file with one of
// three operators at random, so the warm model calls the tool well-formed but
// picks the right operator about a third of the time: RL has to learn the rest.
import { makeJsEnv, nodeTests } from './env.js';
import type { LoadedEnv } from '../../src/env/load.js';
import { defaultSystemPrompt } from '../../src/agent/prompts.js';
import { toolSpecs, toolset } from '../../src/agent/tools/index.js';
import type { ChatMessage } from '../../src/model/types.js';
import { adamParams } from '../../src/lm/config.js';
import { TinkerLearner } from '../../src/lm/learner.js';
import { TinkerSampler } from '../../src/sampler/tinker.js';
import type { Sampler } from '../../src/sampler/types.js';
import { TinkerClient } from '../../src/tinker/client.js';
import { startTinkerDevServer, type TinkerDevServer } from '../../src/tinker-dev/server.js';
import { TinyModel } from '../../src/tinker-dev/tiny-model.js';
import type { Datum } from '../../src/tinker/types.js';
import type { ChatCodec } from '../../src/tokens/codec.js';
import { TokenTranscript } from '../../src/tokens/transcript.js';

export const TOY_SOURCE = `export const add = (a, b) => a + b;
export const sub = (a, b) => a - b;
export const twice = (a) => a * 2;
export const half = (a) => a / 2;
`;

const CASES: Record<string, string> = {
  'add small': 'assert.equal(m.add(2, 3), 5);',
  'add ten': 'assert.equal(m.add(10, 1), 11);',
  'sub small': 'assert.equal(m.sub(5, 3), 2);',
  'sub below zero': 'assert.equal(m.sub(1, 4), -3);',
  'twice four': 'assert.equal(m.twice(4), 8);',
  'twice negative': 'assert.equal(m.twice(-1), -2);',
  'half eight': 'assert.equal(m.half(8), 4);',
  'half odd': 'assert.equal(m.half(3), 1.5);',
};

/** Four one-line functions, so TaskPilot finds single and multiple operator bugs; any of them is fixed by writing the file back. */
export function toyEnv(name = 'toy-ops'): LoadedEnv {
  const cases = Object.fromEntries(Object.entries(CASES).map(([k, v]) => [k, `const m = await import('../src/op.js'); ${v}`]));
  // A test no operator bug breaks: validation wants tests that keep passing (pass-to-pass).
  cases['names itself'] = "const m = await import('../src/name.js'); assert.equal(m.name(), 'toy');";
  const files = { 'src/op.js': TOY_SOURCE, 'src/name.js': "export function name() {\n  return 'toy';\n}\n", 'tests/op.test.js': nodeTests(cases, 'ops') };
  return makeJsEnv(files, {}, name);
}

const OPERATORS = ['+', '-', '*'];

/** One demonstration: write the file with `op`, then end the episode with a short reply. */
function demo(codec: ChatCodec, op: string): Datum {
  const tools = toolSpecs(toolset('leaf'));
  const t = new TokenTranscript(codec);
  const content = TOY_SOURCE.replace('+', op);
  const messages: ChatMessage[] = [
    { role: 'system', content: defaultSystemPrompt({ toolset: 'leaf', tools: toolset('leaf'), native: true, workdir: '/work' }) },
    { role: 'user', content: 'The tests of add fail. Fix the bug.' },
  ];
  const say = (text: string) => {
    const ids = codec.tokenizer.encode(text);
    return t.append({ tokens: ids, logprobs: ids.map(() => 0), stopReason: 'stop' });
  };
  t.prompt(messages, tools);
  const call = `<tool_call>${JSON.stringify({ name: 'Write', arguments: { file_path: 'src/op.js', content } })}</tool_call>`;
  const first = say(call);
  messages.push(codec.parse(first.sampledTokens, tools, 0), {
    role: 'tool',
    tool_call_id: 'call_0_0',
    content: `Overwrote /work/src/op.js (1 lines, ${content.length} bytes).`,
  });
  t.prompt(messages, tools);
  const last = say('Done.');
  const tokens = [...last.promptTokens, ...last.sampledTokens];
  const weights = tokens.map(() => 0);
  for (const turn of [first, last]) turn.sampledTokens.forEach((_, i) => (weights[turn.promptTokens.length + i] = 1));
  return {
    model_input: { chunks: [{ type: 'encoded_text', tokens: tokens.slice(0, -1) }] },
    loss_fn_inputs: { target_tokens: { data: tokens.slice(1) }, weights: { data: weights.slice(1) } },
  };
}

/** Supervised warm-up through the Tinker API (cross_entropy, AdamW); returns the saved checkpoint's path and the last loss. */
export async function warmUp(
  client: TinkerClient,
  codec: ChatCodec,
  o: { baseModel: string; steps: number; lr: number },
): Promise<{ path: string; loss: number }> {
  await client.createSession(['warm-up']);
  const model = await client.createModel({ baseModel: o.baseModel, loraRank: 8 });
  const data = OPERATORS.map((op) => demo(codec, op));
  let loss = NaN;
  for (let i = 0; i < o.steps; i++) {
    const out = await client.forwardBackward(model, data, 'cross_entropy');
    loss = out.metrics['total_loss:sum'] ?? NaN;
    await client.optimStep(model, { learning_rate: o.lr, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0 });
  }
  const path = await client.saveWeights(model, 'warm');
  await client.unloadModel(model);
  return { path, loss };
}

/** A dev server whose tiny model speaks the codec's vocabulary, and the path of a warmed-up checkpoint on it. */
export async function warmDevServer(codec: ChatCodec, checkpointDir: string): Promise<{ server: TinkerDevServer; warm: string }> {
  const tk = codec.tokenizer;
  const server = await startTinkerDevServer({
    baseModel: 'tiny-dev',
    makeModel: (seed) => new TinyModel({ vocabSize: tk.vocabSize, specialIds: [...tk.addedIds], seed }),
    checkpointDir,
    log: () => {},
  });
  const warm = (await warmUp(new TinkerClient({ baseUrl: server.url }), codec, { baseModel: 'tiny-dev', steps: 40, lr: 0.1 })).path;
  return { server, warm };
}

/** The Tinker learner the toy learns with (the settings the end-to-end test measured); `wrap` may put a sampler around the real one. */
export function toyLearner(
  url: string,
  codec: ChatCodec,
  warm: string,
  o: { run: string; seed: number; wrap?: (s: Sampler) => Sampler; log?: (line: string) => void },
): TinkerLearner {
  const client = new TinkerClient({ baseUrl: url });
  const wrap = o.wrap ?? ((s: Sampler) => s);
  return new TinkerLearner({
    client,
    baseModel: 'tiny-dev',
    codec,
    loraRank: 8,
    loss: 'importance_sampling',
    adam: adamParams(0.1),
    maxTokens: 320,
    contextTokens: 8000,
    temperature: 1,
    maxStaleness: 1,
    runName: o.run,
    seed: o.seed,
    initWeights: warm,
    samplerFor: (s) => wrap(new TinkerSampler(client, s.samplingSessionId ? { samplingSessionId: s.samplingSessionId } : { modelPath: s.path! })),
    ...(o.log ? { log: o.log } : {}),
  });
}

/** `frognano train` of the tiny dev model on the toy environment (2 tasks x 4 rollouts a step, no held-out set), as the CLI tests run it. */
export function toyTrainArgs(o: { tokenizer: string; url: string; warm: string; steps: number; data: string }): string[] {
  return [
    'train',
    ...['--learner', 'tinker', '--model', 'tiny-dev', '--tokenizer', o.tokenizer, '--tinker-url', o.url, '--init-weights', o.warm],
    ...['--envs', 'toy-ops', '--held-out=', '--eval-tasks', '0', '--steps', String(o.steps), '--batch', '2', '--group', '4'],
    ...['--lr', '0.1', '--max-tokens', '320', '--context', '8000', '--time-limit', '0', '--data-dir', o.data],
  ];
}
