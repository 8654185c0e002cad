// Retries over real sockets: a loopback proxy lets the server do the work and
// then drops the connection or answers 503/429 in its place. The client must
// re-send the identical body (same seq_id), the server must run it once, and
// 4xx answers must not be retried.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TinkerClient } from '../../src/tinker/client.js';
import { ADAM, BASE, datum, type DevFixture, startDev } from './fixture.js';
import { type FlakyProxy, startFlakyProxy } from './flaky-proxy.js';

const seqIdsOf = (proxy: FlakyProxy, path: string) => proxy.seen.filter((r) => r.path === path).map((r) => /"seq_id":(\d+)/.exec(r.text)?.[1]);

describe('tinker retries', () => {
  let dev: DevFixture;
  let proxy: FlakyProxy;
  let client: TinkerClient;
  let model: string;
  const logs: string[] = [];

  before(async () => {
    dev = await startDev();
    proxy = await startFlakyProxy(dev.url);
    client = new TinkerClient({ baseUrl: proxy.url, retries: 3, backoffMs: 5, log: (m) => logs.push(m) });
    await client.createSession(['retries']);
    model = await client.createModel({ baseModel: BASE, loraRank: 4, seed: 5 });
  });
  after(async () => {
    client.close();
    await proxy.close();
    await dev.close();
  });

  it('forward_backward whose answer is lost is re-sent with the same seq_id and runs once', async () => {
    const runsBefore = dev.counts.forwardBackward;
    proxy.spoil('/api/v1/forward_backward', 'drop');
    const out = await client.forwardBackward(model, [datum([1, 2, 3, 4])], 'cross_entropy');
    assert.equal(out.loss_fn_outputs[0]?.logprobs?.data.length, 3);
    const seqs = seqIdsOf(proxy, '/api/v1/forward_backward');
    assert.equal(seqs.length, 2, 'sent twice');
    assert.ok(seqs[0] !== undefined && seqs[0] === seqs[1], `same seq_id both times: ${seqs.join(',')}`);
    assert.equal(dev.counts.forwardBackward - runsBefore, 1, 'the server ran it once');
    assert.ok(
      logs.some((l) => /forward_backward: network error.*retry 1\/3/.test(l)),
      logs.join('\n'),
    );
  });

  it('optim_step answered 503 after the server did it is re-sent and counted once', async () => {
    const stepsBefore = dev.counts.optimStep;
    proxy.spoil('/api/v1/optim_step', '503', 2);
    await client.forwardBackward(model, [datum([1, 2, 3])], 'cross_entropy');
    const out = await client.optimStep(model, ADAM);
    assert.equal(out.metrics?.['skyrl.ai/learning_rate'], ADAM.learning_rate);
    const seqs = seqIdsOf(proxy, '/api/v1/optim_step');
    assert.equal(seqs.length, 3);
    assert.equal(new Set(seqs).size, 1);
    assert.equal(dev.counts.optimStep - stepsBefore, 1);
    assert.ok(logs.some((l) => /optim_step: HTTP 503: injected 503/.test(l)));
  });

  it('a lost retrieve_future answer is polled again; 429 is backed off and retried', async () => {
    proxy.spoil('/api/v1/retrieve_future', 'drop');
    proxy.spoil('/api/v1/asample', '429');
    const out = await client.asample({ prompt: [1, 2], samplingParams: { max_tokens: 3, seed: 1 }, baseModel: BASE });
    assert.equal(out.sequences[0]?.tokens.length, 3);
    assert.ok(logs.some((l) => /asample: HTTP 429/.test(l)));
  });

  it('an ephemeral sampler save whose answer was lost is sent again under fresh ids after the 409', async () => {
    proxy.spoil('/api/v1/save_weights_for_sampler', 'drop');
    const saved = await client.saveWeightsForSampler(model);
    assert.ok(saved.samplingSessionId);
    const sent = proxy.seen.filter((r) => r.path === '/api/v1/save_weights_for_sampler').map((r) => /"sampling_session_seq_id":(\d+)/.exec(r.text)?.[1]);
    assert.equal(sent.length, 3, 'original, identical retry (409), fresh ids');
    assert.equal(sent[0], sent[1]);
    assert.notEqual(sent[2], sent[1]);
    const out = await client.asample({ prompt: [1], samplingParams: { max_tokens: 2 }, samplingSessionId: saved.samplingSessionId });
    assert.equal(out.sequences.length, 1);
  });

  it('does not retry 4xx answers', async () => {
    const before = proxy.seen.length;
    await assert.rejects(client.loadWeights(model, `tinker://${model}/weights/none`, true), /load_weights: HTTP 400: LoadWeights is not permitted/);
    assert.equal(proxy.seen.length - before, 1);
  });

  it('gives up after the configured retries with the endpoint and the last reason', async () => {
    proxy.spoil('/api/v1/healthz', '503', 10);
    const before = proxy.seen.filter((r) => r.path === '/api/v1/healthz').length;
    await assert.rejects(client.healthz(), /tinker GET \/api\/v1\/healthz: gave up after 4 attempts, last: HTTP 503: injected 503/);
    assert.equal(proxy.seen.filter((r) => r.path === '/api/v1/healthz').length - before, 4);
    proxy.spoil('/api/v1/healthz', '503', 0);
  });
});

describe('tinker client errors', () => {
  it('a server that is not there is a network error naming the endpoint', async () => {
    const dev = await startDev();
    const url = dev.url;
    await dev.close();
    const client = new TinkerClient({ baseUrl: url, retries: 1, backoffMs: 1, log: () => {} });
    await assert.rejects(client.capabilities(), /get_server_capabilities: gave up after 2 attempts, last: network error/);
  });

  it('sends the API key as X-API-Key; a server that wants one refuses a client without it', async () => {
    const dev = await startDev({ apiKey: 'tml-secret' });
    try {
      await assert.rejects(new TinkerClient({ baseUrl: dev.url, log: () => {} }).healthz(), /healthz: HTTP 401: Missing or invalid X-API-Key/);
      assert.equal((await new TinkerClient({ baseUrl: dev.url, apiKey: 'tml-secret', log: () => {} }).healthz()).status, 'ok');
    } finally {
      await dev.close();
    }
  });
});
