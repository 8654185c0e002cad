import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GgufModel, splitReasoning } from '../../src/model/llama.js';
import { loadNodeLlamaCpp, NODE_LLAMA_CPP, NODE_LLAMA_CPP_INSTALL } from '../../src/model/llama-runtime.js';
import { UserError } from '../../src/util/errors.js';
import { writeTinyLlama, type TinyVocab } from '../helpers/tiny-llama.js';

// node-llama-cpp is installed only on request (.ci/run installs it): without it these tests skip and say why.
const missing = await import(NODE_LLAMA_CPP).then(
  () => undefined,
  (err: Error) => `node-llama-cpp is not installed (${err.message})`,
);

/** Decodes ids with the tiny vocabulary itself, special tokens included. */
function decode(vocab: TinyVocab, ids: number[]): string {
  const bytes: number[] = [];
  for (const id of ids) {
    const piece = vocab.tokens[id]!;
    const byte = /^<0x([0-9A-F]{2})>$/.exec(piece);
    if (byte) bytes.push(parseInt(byte[1]!, 16));
    else bytes.push(...Buffer.from(piece.replaceAll('▁', ' ')));
  }
  return Buffer.from(bytes).toString('utf8');
}

describe('embedded GGUF model (node-llama-cpp) on a tiny generated llama', { skip: missing }, () => {
  let dir: string;
  let path: string;
  let vocab: TinyVocab;
  let model: GgufModel;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'frognano-gguf-'));
    path = join(dir, 'tiny.gguf');
    vocab = writeTinyLlama(path);
    model = await GgufModel.load({ modelPath: path, gpu: false, contextSize: 256, threads: 1, logLevel: 'error' });
  });
  after(async () => {
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('formats the chat with the model template and generates the asked number of tokens', async () => {
    assert.equal(model.supportsTools, false);
    assert.equal(model.name, 'gguf:tiny.gguf');
    const turn = await model.turn({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello' },
      ],
      maxTokens: 6,
    });
    const t = turn.tokens!;
    assert.equal(t.ids.length, 6);
    assert.equal(t.logprobs.length, 6);
    assert.ok(
      t.logprobs.every((l) => Number.isFinite(l) && l <= 0),
      `logprobs ${t.logprobs}`,
    );
    assert.ok(t.ids.every((id) => Number.isInteger(id) && id >= 0 && id < vocab.tokens.length));
    assert.equal(turn.finishReason, 'length');
    assert.equal(typeof turn.message.content, 'string');
    assert.deepEqual(turn.usage, { promptTokens: t.promptIds!.length, completionTokens: 6 });
    assert.equal(decode(vocab, t.promptIds!), '<|im_start|>system\nbe brief<|im_end|>\n<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n');
  });

  it('is deterministic for a seed, greedy or sampled', async () => {
    const messages = [{ role: 'user' as const, content: 'the cat' }];
    const a = await model.turn({ messages, maxTokens: 8, temperature: 1, seed: 42 });
    const b = await model.turn({ messages, maxTokens: 8, temperature: 1, seed: 42 });
    const c = await model.turn({ messages, maxTokens: 8, temperature: 1, seed: 43 });
    assert.deepEqual(a.tokens!.ids, b.tokens!.ids);
    // The same within float noise: a reused cache prefix evaluates the prompt in other batches.
    a.tokens!.logprobs.forEach((l, i) => assert.ok(Math.abs(l - b.tokens!.logprobs[i]!) < 1e-4, `${l} vs ${b.tokens!.logprobs[i]}`));
    assert.notDeepEqual(a.tokens!.ids, c.tokens!.ids);
    const g1 = await model.turn({ messages, maxTokens: 5 });
    const g2 = await model.turn({ messages: [...messages, { role: 'assistant', content: 'x' }, { role: 'user', content: 'more' }], maxTokens: 5 });
    const g3 = await model.turn({ messages, maxTokens: 5 });
    assert.deepEqual(g1.tokens!.ids, g3.tokens!.ids, 'reusing the cached prefix does not change greedy output');
    assert.equal(g2.tokens!.ids.length, 5);
  });

  it('stops at the context window', async () => {
    const turn = await model.turn({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 10_000 });
    assert.equal(turn.finishReason, 'length');
    assert.equal(turn.tokens!.promptIds!.length + turn.tokens!.ids.length, model.contextSize);
  });
});

describe('embedded GGUF model: end of turn', { skip: missing }, () => {
  it('stops at the end-of-turn token, keeps its id and logprob, leaves it out of the text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'frognano-gguf-'));
    writeTinyLlama(join(dir, 'end.gguf'), { endAtOnce: true });
    const model = await GgufModel.load({ modelPath: join(dir, 'end.gguf'), gpu: false, contextSize: 128, threads: 1, logLevel: 'error' });
    try {
      const turn = await model.turn({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 8 });
      assert.equal(turn.finishReason, 'stop');
      assert.deepEqual(turn.tokens!.ids, [4]);
      assert.equal(turn.tokens!.logprobs.length, 1);
      assert.equal(turn.message.content, '');
    } finally {
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded GGUF model: bad --model-path', () => {
  it('says so when the file is missing or not GGUF', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'frognano-gguf-'));
    try {
      await assert.rejects(GgufModel.load({ modelPath: join(dir, 'nope.gguf') }), (e: Error) => e instanceof UserError && /does not exist/.test(e.message));
      writeFileSync(join(dir, 'model.bin'), 'PK\u0003\u0004 not a gguf');
      await assert.rejects(GgufModel.load({ modelPath: join(dir, 'model.bin') }), (e: Error) => e instanceof UserError && /not a GGUF file/.test(e.message));
      await assert.rejects(GgufModel.load({ modelPath: dir }), (e: Error) => e instanceof UserError && /not a file/.test(e.message));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded GGUF model: runtime not installed', () => {
  it('names the package and the one command that installs it', async () => {
    // A package name that cannot be installed stands for node-llama-cpp being absent.
    await assert.rejects(loadNodeLlamaCpp('frognano-absent-package'), (e: Error) => {
      assert.ok(e instanceof UserError);
      assert.match(e.message, /node-llama-cpp/);
      assert.match(e.hint ?? '', new RegExp(NODE_LLAMA_CPP_INSTALL.replaceAll('.', '\\.')));
      return true;
    });
  });
});

describe('reasoning in generated text', () => {
  it('splits a leading think block from the answer, whoever opened it', () => {
    assert.deepEqual(splitReasoning('<think>\nplan it\n</think>\n\nanswer'), { reasoning: 'plan it', content: 'answer' });
    assert.deepEqual(splitReasoning('plan it</think>answer'), { reasoning: 'plan it', content: 'answer' });
    assert.deepEqual(splitReasoning('<think></think>answer'), { content: 'answer' });
    assert.deepEqual(splitReasoning('plain answer'), { content: 'plain answer' });
    assert.deepEqual(splitReasoning('text <think>x</think> more'), { content: 'text <think>x</think> more' });
  });
});
