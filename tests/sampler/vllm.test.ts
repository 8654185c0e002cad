// VllmSampler against a scripted completions server on loopback: the replies
// are written by each test in vLLM's response shape, nothing is sampled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SamplerFault, type SamplerFaultKind } from '../../src/sampler/check.js';
import type { SampleRequest } from '../../src/sampler/types.js';
import { VllmSampler, type VllmSamplerOptions } from '../../src/sampler/vllm.js';
import { startCompletionsServer, type CompletionsRequest, type CompletionsScript } from '../helpers/completions-server.js';

const REQ: SampleRequest = { prompt: [151644, 872, 198, 9707], maxTokens: 64, temperature: 1, stop: [151645], seed: 7 };

async function withServer(
  script: CompletionsScript,
  fn: (sampler: (opts?: Partial<VllmSamplerOptions>) => VllmSampler, requests: CompletionsRequest[], url: string) => Promise<void>,
): Promise<void> {
  const server = await startCompletionsServer(script);
  try {
    await fn((opts) => new VllmSampler({ baseUrl: server.url, model: 'policy-step-3', ...opts }), server.requests, server.url);
  } finally {
    await server.close();
  }
}

async function fault(p: Promise<unknown>, kind: SamplerFaultKind): Promise<SamplerFault> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof SamplerFault, `expected a SamplerFault, got ${String(err)}`);
    assert.equal(err.kind, kind, err.message);
    return err;
  }
  assert.fail('the sample was accepted');
}

describe('VllmSampler against a scripted vLLM completions server', () => {
  it('sends the prompt as token ids with stop ids and logprobs, and reads ids, logprobs and the stop reason', async () => {
    await withServer(
      () => ({ tokenIds: [40, 1079, 151645], logprobs: [-0.25, 0, -0.01], finishReason: 'stop', stopReason: 151645 }),
      async (sampler, requests) => {
        const s = sampler({ apiKey: 'sk-test' });
        assert.equal(s.weights, 'policy-step-3');
        const sample = await s.sample(REQ);
        assert.deepEqual(sample, { tokens: [40, 1079, 151645], logprobs: [-0.25, 0, -0.01], stopReason: 'stop' });
        const { url, body, headers } = requests[0]!;
        assert.equal(url, '/v1/completions');
        assert.equal(headers.authorization, 'Bearer sk-test');
        assert.deepEqual(body.prompt, REQ.prompt);
        assert.equal(body.model, 'policy-step-3');
        assert.equal(body.max_tokens, 64);
        assert.equal(body.temperature, 1);
        assert.equal(body.seed, 7);
        assert.deepEqual(body.stop_token_ids, [151645]);
        assert.equal(body.logprobs, 1);
        assert.equal(body.return_token_ids, true);
        assert.equal(body.return_tokens_as_token_ids, true);
        assert.equal(body.skip_special_tokens, false);
        assert.equal(body.stream, false);
      },
    );
  });

  it('reads a length stop, leaves out an unset seed, and tolerates a base URL ending in /v1', async () => {
    await withServer(
      () => ({ tokenIds: [1, 2], logprobs: [-1, -2], finishReason: 'length' }),
      async (sampler, requests, url) => {
        const { seed: _, ...noSeed } = REQ;
        assert.equal((await sampler({ baseUrl: `${url}/v1/` }).sample(noSeed)).stopReason, 'length');
        assert.equal(requests[0]!.url, '/v1/completions');
        assert.equal('seed' in requests[0]!.body, false);
      },
    );
  });

  it('falls back to token_id:N logprob tokens when the server sends no token_ids (older vLLM)', async () => {
    await withServer(
      () => ({ omitTokenIds: true, tokenIds: [11, 12], logprobs: [-0.5, -0.7] }),
      async (sampler) => {
        assert.deepEqual((await sampler().sample(REQ)).tokens, [11, 12]);
      },
    );
    await withServer(
      () => ({ omitTokenIds: true, tokenIds: [11], tokens: ['Hello'], logprobs: [-0.5] }),
      async (sampler) => {
        const f = await fault(sampler().sample(REQ), 'bad-response');
        assert.match(f.message, /no sampled token ids/);
      },
    );
  });

  it("rejects a zero-filled response as 'zero-logprobs'", async () => {
    await withServer(
      () => ({ tokenIds: [5, 6, 7, 151645], logprobs: [0, 0, 0, 0] }),
      async (sampler, requests) => {
        const f = await fault(sampler().sample(REQ), 'zero-logprobs');
        assert.match(f.message, /all 4 logprobs are exactly 0.*not the model's fault/);
        assert.equal(requests.length, 1, 'a checked fault is not retried');
      },
    );
  });

  it('rejects missing logprobs: none at all, or a null position', async () => {
    await withServer(
      () => ({ tokenIds: [5, 6], logprobs: null }),
      async (sampler) => {
        await fault(sampler().sample(REQ), 'missing-logprobs');
      },
    );
    await withServer(
      () => ({ tokenIds: [5, 6], logprobs: [-1, null] }),
      async (sampler) => {
        assert.match((await fault(sampler().sample(REQ), 'missing-logprobs')).message, /no logprob for token 1 of 2/);
      },
    );
  });

  it("rejects a finish_reason other than 'stop' or 'length'", async () => {
    await withServer(
      () => ({ tokenIds: [5], logprobs: [-1], finishReason: 'abort' }),
      async (sampler) => {
        assert.match((await fault(sampler().sample(REQ), 'bad-response')).message, /finish_reason "abort"/);
      },
    );
  });

  it('retries a 503 and a dropped connection, then succeeds', async () => {
    await withServer(
      (_req, n) => (n === 1 ? { status: 503, errorMessage: 'overloaded' } : n === 2 ? { hangUp: true } : { tokenIds: [9], logprobs: [-0.1] }),
      async (sampler, requests) => {
        assert.deepEqual((await sampler().sample(REQ)).tokens, [9]);
        assert.equal(requests.length, 3);
      },
    );
  });

  it('gives up after its retries with the last status', async () => {
    await withServer(
      () => ({ status: 500, errorMessage: 'engine dead' }),
      async (sampler, requests) => {
        const f = await fault(sampler({ retries: 1 }).sample(REQ), 'http');
        assert.equal(f.status, 500);
        assert.match(f.message, /giving up after 2 attempts; last: answered 500: engine dead/);
        assert.equal(requests.length, 2);
      },
    );
  });

  it('does not retry a 400, and says what the server said', async () => {
    const why = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens";
    await withServer(
      () => ({ status: 400, errorMessage: why }),
      async (sampler, requests) => {
        const f = await fault(sampler().sample(REQ), 'http');
        assert.equal(f.status, 400);
        assert.match(f.message, /refused the request with 400: This model's maximum context length is 4096 tokens/);
        assert.equal(requests.length, 1);
      },
    );
  });

  it('times out an attempt that does not answer, and stops when the caller aborts', async () => {
    await withServer(
      () => ({ delayMs: 2000, tokenIds: [1], logprobs: [-1] }),
      async (sampler) => {
        const f = await fault(sampler({ timeoutMs: 50, retries: 0 }).sample(REQ), 'unreachable');
        assert.match(f.message, /no answer within 50 ms/);
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 50);
        await fault(sampler().sample({ ...REQ, signal: controller.signal }), 'aborted');
      },
    );
  });
});
