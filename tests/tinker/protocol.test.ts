// The Tinker client against the dev server on loopback: every endpoint's
// request shape is accepted, malformed bodies get FastAPI's 422, futures
// answer 200/408/400/404, and seq_id de-duplication holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TinkerClient } from '../../src/tinker/client.js';
import { TinkerFuture } from '../../src/tinker/futures.js';
import { TinkerApiError, TinkerHttp } from '../../src/tinker/http.js';
import { SampleOutputSchema } from '../../src/tinker/wire.js';
import { ADAM, BASE, datum, type DevFixture, post, startDev, sum, VOCAB } from './fixture.js';

const quiet = () => {};

describe('tinker protocol: client and dev server', () => {
  let dev: DevFixture;
  let client: TinkerClient;
  let modelId: string;

  before(async () => {
    dev = await startDev();
    client = new TinkerClient({ baseUrl: dev.url, log: quiet });
    await client.createSession(['protocol-test']);
    modelId = await client.createModel({ baseModel: BASE, loraRank: 8, seed: 1 });
  });
  after(async () => {
    client.close();
    await dev.close();
  });

  it('healthz and capabilities answer in SkyRL shape and say this is a dev server', async () => {
    const health = await client.healthz();
    assert.equal(health.status, 'ok');
    assert.match(health.dev_server ?? '', /dev server.*not SkyRL/);
    const caps = await client.capabilities();
    assert.deepEqual(caps.supported_models, [{ model_name: BASE }]);
    assert.ok(dev.logs.some((l) => /not SkyRL.*listening on http:\/\/127\.0\.0\.1:\d+/.test(l)));
  });

  it('trains: forward_backward, optim_step and forward agree, and the loss falls', async () => {
    const batch = [datum([1, 2, 3, 4, 5]), datum([1, 2, 3, 4, 6])];
    const first = await client.forwardBackward(modelId, batch, 'cross_entropy');
    assert.equal(first.loss_fn_outputs.length, 2);
    assert.equal(first.loss_fn_outputs[0]?.logprobs?.data.length, 4);
    const lossBefore = -sum(first.loss_fn_outputs.flatMap((o) => o.logprobs?.data ?? []));
    const step = await client.optimStep(modelId, ADAM);
    assert.equal(step.metrics?.['skyrl.ai/learning_rate'], ADAM.learning_rate);
    const fwd = await client.forward(modelId, batch, 'cross_entropy');
    const lossAfter = -sum(fwd.loss_fn_outputs.flatMap((o) => o.logprobs?.data ?? []));
    assert.ok(lossAfter < lossBefore, `loss ${lossBefore} -> ${lossAfter}`);
    const info = await client.getInfo(modelId);
    assert.deepEqual(info.model_data.lora_config, { rank: 8 });
  });

  it("runs a model's requests in call order even when the caller does not wait", async () => {
    const batch = [datum([3, 4, 5])];
    const probe = async () => (await client.forward(modelId, batch, 'cross_entropy')).loss_fn_outputs[0]?.logprobs?.data;
    const before = await probe();
    const [fb, opt, fwd] = await Promise.all([
      client.submitForwardBackward(modelId, batch, 'cross_entropy'),
      client.submitOptimStep(modelId, ADAM),
      client.submitForward(modelId, batch, 'cross_entropy'),
    ]);
    assert.ok(Number(fb.requestId) < Number(opt.requestId) && Number(opt.requestId) < Number(fwd.requestId));
    const after = (await fwd.result()).loss_fn_outputs[0]?.logprobs?.data;
    assert.notDeepEqual(after, before, 'the optim step ran before the later forward');
    assert.ok(sum(after ?? []) > sum(before ?? []));
  });

  it('samples from base, from a named sampler checkpoint and from an ephemeral one pinned to a frozen copy', async () => {
    const params = { max_tokens: 5, temperature: 1, seed: 7 };
    const fromBase = await client.asample({ prompt: [1, 2], samplingParams: params, baseModel: BASE, numSamples: 3 });
    assert.equal(fromBase.sequences.length, 3);
    for (const s of fromBase.sequences) {
      assert.equal(s.tokens.length, 5);
      assert.equal(s.stop_reason, 'length');
      assert.equal(s.logprobs?.length, 5);
      assert.ok(s.tokens.every((t) => t >= 0 && t < VOCAB));
    }
    const named = await client.saveWeightsForSampler(modelId, 'sampler-a');
    assert.equal(named.path, `tinker://${modelId}/sampler-a`);
    const viaPath = await client.asample({ prompt: [1, 2], samplingParams: params, modelPath: named.path ?? '' });
    const session = await client.createSamplingSession({ modelPath: `tinker://${modelId}/sampler_weights/sampler-a` });
    const viaSession = await client.asample({ prompt: [1, 2], samplingParams: params, samplingSessionId: session });
    assert.deepEqual(viaSession.sequences, viaPath.sequences, 'same weights, same seed');

    const pinned = await client.saveWeightsForSampler(modelId);
    assert.equal(pinned.path, null);
    const prompt = [1, 2, 3, 4, 5];
    const ask = (id: string) => client.asample({ prompt, samplingParams: { max_tokens: 1 }, samplingSessionId: id, promptLogprobs: true });
    const beforeTraining = (await ask(pinned.samplingSessionId ?? '')).prompt_logprobs;
    assert.equal(beforeTraining?.length, prompt.length);
    assert.equal(beforeTraining?.[0], null);
    await client.forwardBackward(modelId, [datum(prompt)], 'cross_entropy');
    await client.optimStep(modelId, ADAM);
    assert.deepEqual((await ask(pinned.samplingSessionId ?? '')).prompt_logprobs, beforeTraining, 'the sampler kept its snapshot');
    const fresh = await client.saveWeightsForSampler(modelId);
    assert.notDeepEqual((await ask(fresh.samplingSessionId ?? '')).prompt_logprobs, beforeTraining, 'a new save sees the trained weights');
  });

  it('refuses malformed bodies with 422 and FastAPI-shaped detail', async () => {
    const goodFb = { model_id: modelId, forward_backward_input: { data: [datum([1, 2])], loss_fn: 'cross_entropy' } };
    const cases: [string, unknown, string | RegExp][] = [
      ['create_session', { tags: 'x', sdk_version: 'v' }, 'body.tags'],
      ['create_session', { tags: [] }, 'body.sdk_version'],
      ['session_heartbeat', {}, 'body.session_id'],
      ['create_model', { session_id: client.sessionId, base_model: BASE }, 'body.lora_config'],
      ['create_model', { session_id: client.sessionId, base_model: BASE, lora_config: { rank: 1.5 } }, 'body.lora_config.rank'],
      ['forward_backward', { ...goodFb, forward_backward_input: { ...goodFb.forward_backward_input, loss_fn: 'dro' } }, 'body.forward_backward_input.loss_fn'],
      [
        'forward_backward',
        { ...goodFb, forward_backward_input: { ...goodFb.forward_backward_input, loss_fn: 'ppo', loss_fn_config: { beta: 1 } } },
        /Invalid loss_fn_config keys/,
      ],
      [
        'forward_backward',
        { ...goodFb, forward_backward_input: { ...goodFb.forward_backward_input, data: [{ model_input: { chunks: [] }, loss_fn_inputs: {} }] } },
        /target_tokens/,
      ],
      ['forward', goodFb, 'body.forward_input'],
      ['optim_step', { model_id: modelId, adam_params: { beta1: 1 } }, 'body.adam_params.beta1'],
      ['save_weights', { model_id: modelId, path: '../escape' }, 'body.path'],
      ['save_weights_for_sampler', { model_id: modelId, seq_id: 3 }, /Either 'path' or both/],
      ['load_weights', { model_id: modelId }, 'body.path'],
      ['create_sampling_session', { session_id: client.sessionId, base_model: BASE }, 'body.sampling_session_seq_id'],
      ['asample', { prompt: { chunks: [{ tokens: [1] }] }, sampling_params: { max_tokens: 1 } }, /exactly one of 'base_model' or 'model_path'/],
      ['asample', { prompt: { chunks: [] }, sampling_params: {}, base_model: BASE, topk_prompt_logprobs: -1 }, 'body.topk_prompt_logprobs'],
      ['retrieve_future', { request_id: 5 }, 'body.request_id'],
    ];
    for (const [endpoint, body, expected] of cases) {
      const res = await post(dev.url, endpoint, body);
      assert.equal(res.status, 422, `${endpoint} ${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`);
      assert.ok(Array.isArray(res.body.detail));
      const text = (res.body.detail as { loc: unknown[]; msg: string }[]).map((d) => `${d.loc.join('.')}: ${d.msg}`).join('\n');
      if (typeof expected === 'string') assert.ok(text.includes(`${expected}:`), `${endpoint}: wanted ${expected} in ${text}`);
      else assert.match(text, expected);
    }
    const notJson = await post(dev.url, 'create_session', '{"tags": [', true);
    assert.equal(notJson.status, 422);
    assert.match(JSON.stringify(notJson.body), /json_invalid/);
    // Unknown fields are ignored, as pydantic does: the SDK's project_id and model_seq_id pass.
    assert.equal((await post(dev.url, 'create_session', { tags: [], sdk_version: 'x', project_id: 'p' })).status, 200);
    // max_tokens is optional in the schema but required by the endpoint (400, as SkyRL).
    const noMax = await post(dev.url, 'asample', { prompt: { chunks: [{ tokens: [1] }] }, sampling_params: {}, base_model: BASE });
    assert.deepEqual([noMax.status, noMax.body.detail], [400, 'max_tokens is currently required']);
    const unknownModel = await post(dev.url, 'forward_backward', { ...goodFb, model_id: 'model_nope' });
    assert.deepEqual([unknownModel.status, unknownModel.body.detail], [404, 'Model not found']);
  });

  it('a failed future is a 400 whose detail the client reports; an unknown request id is a 404', async () => {
    await assert.rejects(client.forwardBackward(modelId, [datum([1, 2, 3])], 'ppo_critic'), (err: unknown) => {
      assert.ok(err instanceof TinkerApiError);
      assert.equal(err.kind, 'failed');
      assert.match(err.message, /forward_backward \(request \d+\) failed on the server: .*ppo_critic/);
      return true;
    });
    await assert.rejects(client.forwardBackward(modelId, [datum([1, VOCAB + 5])], 'cross_entropy'), /outside the vocabulary/);
    assert.deepEqual(await post(dev.url, 'retrieve_future', { request_id: '987654' }), { status: 404, body: { detail: 'Future not found' } });
    const http = new TinkerHttp({ baseUrl: dev.url, timeoutMs: 5000, retries: 0, backoffMs: 1, log: quiet });
    await assert.rejects(new TinkerFuture(http, 'asample', '987654', SampleOutputSchema, 5000).result(), /asample \(request 987654\).*no such request \(404/);
  });

  it('seq_id: the same id and body give the first future and run once; the same id with another body is 409', async () => {
    const body = { model_id: modelId, seq_id: 900, forward_backward_input: { data: [datum([2, 3, 4])], loss_fn: 'cross_entropy' } };
    const doneBefore = dev.counts.forwardBackward;
    const first = await post(dev.url, 'forward_backward', body);
    const again = await post(dev.url, 'forward_backward', body);
    assert.equal(first.status, 200);
    assert.equal(again.body.request_id, first.body.request_id);
    await post(dev.url, 'retrieve_future', { request_id: first.body.request_id });
    assert.equal(dev.counts.forwardBackward - doneBefore, 1);
    const other = await post(dev.url, 'forward_backward', { ...body, forward_backward_input: { ...body.forward_backward_input, data: [datum([2, 3, 5])] } });
    assert.deepEqual([other.status, other.body.detail], [409, 'Training request sequence number was reused']);
    const otherType = await post(dev.url, 'optim_step', { model_id: modelId, seq_id: 900, adam_params: {} });
    assert.equal(otherType.status, 409);
  });
});

describe('tinker protocol: pending futures', () => {
  it('retrieve_future answers 408 while the work waits in the queue, and the client keeps polling to the result', async () => {
    const dev = await startDev({ workDelayMs: 400, futureWaitSec: 0.05 });
    const client = new TinkerClient({ baseUrl: dev.url, log: quiet });
    try {
      await client.createSession([]);
      const model = await client.createModel({ baseModel: BASE, loraRank: 4, seed: 2 });
      const future = await client.submitForwardBackward(model, [datum([1, 2, 3])], 'cross_entropy');
      const pending = await post(dev.url, 'retrieve_future', { request_id: future.requestId });
      assert.deepEqual(pending, { status: 408, body: { detail: 'Timeout waiting for result' } });
      const result = await future.result();
      assert.equal(result.loss_fn_outputs[0]?.logprobs?.data.length, 2);
      const done = await post(dev.url, 'retrieve_future', { request_id: future.requestId });
      assert.equal(done.status, 200);
      assert.deepEqual(done.body.loss_fn_outputs, result.loss_fn_outputs);
    } finally {
      client.close();
      await dev.close();
    }
  });
});
