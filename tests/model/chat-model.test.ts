import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatModel } from '../../src/model/chat-model.js';
import type { ToolSpec } from '../../src/model/types.js';
import { startScriptedModel, type Script } from '../helpers/model-server.js';

const READ: ToolSpec = {
  type: 'function',
  function: { name: 'Read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
};
const user = (content: string) => [{ role: 'user' as const, content }];

async function withServer(
  script: Script,
  fn: (url: string, requests: Awaited<ReturnType<typeof startScriptedModel>>['requests']) => Promise<void>,
): Promise<void> {
  const server = await startScriptedModel(script);
  try {
    await fn(server.url, server.requests);
  } finally {
    await server.close();
  }
}

describe('ChatModel against a scripted OpenAI-compatible server', () => {
  it('sends tools and sampling options; tool calls come back as given, malformed arguments kept raw', async () => {
    await withServer(
      () => ({
        content: null,
        toolCalls: [
          { id: 'c1', name: 'Read', arguments: { path: 'a.py' } },
          { id: 'c2', name: 'Read', arguments: '{"path": "b.py"' },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 7 },
      }),
      async (url, requests) => {
        const model = new ChatModel({ baseUrl: url, model: 'm', apiKey: 'k' });
        assert.equal(model.name, 'chat:m');
        assert.equal(model.supportsTools, true);
        const turn = await model.turn({ messages: user('read them'), tools: [READ], temperature: 0.6, seed: 3, maxTokens: 99 });
        const body = requests[0]!.body;
        assert.deepEqual(body.tools, [READ]);
        assert.equal(body.temperature, 0.6);
        assert.equal(body.seed, 3);
        assert.equal(body.max_tokens, 99);
        assert.equal(body.logprobs, undefined, 'logprobs only when asked');
        assert.equal(requests[0]!.headers.authorization, 'Bearer k');
        assert.deepEqual(turn.message, {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"path":"a.py"}' } },
            { id: 'c2', type: 'function', function: { name: 'Read', arguments: '{"path": "b.py"' } },
          ],
        });
        assert.equal(turn.finishReason, 'tool_calls');
        assert.deepEqual(turn.usage, { promptTokens: 12, completionTokens: 7 });
        assert.equal(turn.tokens, undefined);
      },
    );
  });

  it('sends no tools field for a text-only request, and the tool-call history goes back verbatim', async () => {
    await withServer(
      () => ({ content: 'done' }),
      async (url, requests) => {
        const model = new ChatModel({ baseUrl: url, model: 'm' });
        const call = { id: 'c9', type: 'function' as const, function: { name: 'Read', arguments: '{"path":"x"}' } };
        await model.turn({
          messages: [...user('go'), { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'c9', content: 'file text' }],
        });
        const body = requests[0]!.body;
        assert.equal('tools' in body, false);
        assert.deepEqual((body.messages[1] as unknown as { tool_calls: unknown }).tool_calls, [call]);
        assert.equal((body.messages[2] as unknown as { tool_call_id: string }).tool_call_id, 'c9');
      },
    );
  });

  it('keeps reasoning under either field name servers use', async () => {
    await withServer(
      (_r, n) => (n === 1 ? { content: 'A', reasoning: 'thinking 1' } : { content: 'B', reasoning: 'thinking 2', reasoningField: 'reasoning' }),
      async (url) => {
        const model = new ChatModel({ baseUrl: url, model: 'm' });
        assert.equal((await model.turn({ messages: user('1') })).message.reasoning_content, 'thinking 1');
        const second = await model.turn({ messages: user('2') });
        assert.equal(second.message.reasoning_content, 'thinking 2');
        assert.equal(second.message.content, 'B');
        assert.equal('reasoning' in second.message, false, 'one name in the trajectory');
      },
    );
  });

  it('makes up call ids a server leaves out', async () => {
    await withServer(
      () => ({ content: '', toolCalls: [{ id: '', name: 'Read', arguments: '{}' }] }),
      async (url) => {
        const turn = await new ChatModel({ baseUrl: url, model: 'm' }).turn({ messages: user('x'), tools: [READ] });
        assert.equal(turn.message.tool_calls![0]!.id, 'call_0_0');
      },
    );
  });

  it('passes extra body fields (chat template flags) to the server on every request', async () => {
    await withServer(
      () => ({ content: 'ok' }),
      async (url, requests) => {
        const model = new ChatModel({ baseUrl: url, model: 'm', extraBody: { chat_template_kwargs: { enable_thinking: false }, top_k: 20 } });
        await model.turn({ messages: user('a') });
        await model.turn({ messages: user('b') });
        for (const r of requests) {
          assert.deepEqual(r.body.chat_template_kwargs, { enable_thinking: false });
          assert.equal(r.body.top_k, 20);
        }
      },
    );
  });

  it('asks for logprobs and token ids (vLLM fields) and fills tokens', async () => {
    await withServer(
      () => ({
        content: 'hi there',
        logprobs: [
          { token: 'hi', logprob: -0.5 },
          { token: ' there', logprob: -1.25 },
        ],
        tokenIds: [71, 1005],
        promptTokenIds: [1, 2, 3],
      }),
      async (url, requests) => {
        const model = new ChatModel({ baseUrl: url, model: 'm', tokenIds: true });
        const turn = await model.turn({ messages: user('x') });
        assert.equal(requests[0]!.body.logprobs, true);
        assert.equal(requests[0]!.body.return_token_ids, true);
        assert.deepEqual(turn.tokens, { promptIds: [1, 2, 3], ids: [71, 1005], logprobs: [-0.5, -1.25] });
      },
    );
  });

  it('reads token ids from llama.cpp server logprob entries and vLLM token_id:N tokens', async () => {
    await withServer(
      (_r, n) =>
        n === 1
          ? {
              content: 'ab',
              logprobs: [
                { token: 'a', logprob: -0.1, id: 64 },
                { token: 'b', logprob: -0.2, id: 65 },
              ],
            }
          : {
              content: 'ab',
              logprobs: [
                { token: 'token_id:64', logprob: -0.1 },
                { token: 'token_id:65', logprob: -0.2 },
              ],
            },
      async (url, requests) => {
        const model = new ChatModel({ baseUrl: url, model: 'm', logprobs: true });
        assert.deepEqual((await model.turn({ messages: user('x') })).tokens, { ids: [64, 65], logprobs: [-0.1, -0.2] });
        assert.deepEqual((await model.turn({ messages: user('y') })).tokens, { ids: [64, 65], logprobs: [-0.1, -0.2] });
        assert.equal(requests[0]!.body.logprobs, true);
        assert.equal('return_token_ids' in requests[0]!.body, false, 'no server-specific fields unless asked');
      },
    );
  });

  it('leaves tokens out when the server gives logprobs without ids, or ids that do not line up', async () => {
    await withServer(
      (_r, n) =>
        n === 1 ? { content: 'a', logprobs: [{ token: 'a', logprob: -0.1 }] } : { content: 'a', logprobs: [{ token: 'a', logprob: -0.1 }], tokenIds: [1, 2] },
      async (url) => {
        const model = new ChatModel({ baseUrl: url, model: 'm', tokenIds: true });
        assert.equal((await model.turn({ messages: user('x') })).tokens, undefined);
        assert.equal((await model.turn({ messages: user('y') })).tokens, undefined);
      },
    );
  });

  it('retries 429 and 500, then succeeds', async () => {
    await withServer(
      (_r, n) => (n === 1 ? { status: 429 } : n === 2 ? { status: 500 } : { content: 'third time' }),
      async (url, requests) => {
        const turn = await new ChatModel({ baseUrl: url, model: 'm', retries: 3 }).turn({ messages: user('x') });
        assert.equal(turn.message.content, 'third time');
        assert.equal(requests.length, 3);
      },
    );
  });

  it('times out a silent server with a clear error after its retries', async () => {
    await withServer(
      () => ({ content: 'late', delayMs: 1500 }),
      async (url, requests) => {
        const model = new ChatModel({ baseUrl: url, model: 'm', retries: 1, timeoutMs: 150 });
        await assert.rejects(model.turn({ messages: user('x') }), /giving up after 2 attempts: .*did not answer within 150 ms/);
        assert.equal(requests.length, 2);
      },
    );
  });

  it('fails at once on a 400', async () => {
    await withServer(
      () => ({ status: 400 }),
      async (url, requests) => {
        await assert.rejects(new ChatModel({ baseUrl: url, model: 'm', retries: 3 }).turn({ messages: user('x') }), /answered 400/);
        assert.equal(requests.length, 1);
      },
    );
  });

  it('stops waiting and retrying when the turn is aborted', async () => {
    await withServer(
      () => ({ status: 503 }),
      async (url, requests) => {
        const controller = new AbortController();
        const started = Date.now();
        setTimeout(() => controller.abort(), 100);
        await assert.rejects(
          new ChatModel({ baseUrl: url, model: 'm', retries: 5 }).turn({ messages: user('x'), signal: controller.signal }),
          /request aborted/,
        );
        assert.ok(Date.now() - started < 1000, 'no backoff wait after the abort');
        assert.ok(requests.length <= 2);
      },
    );
  });
});
