// save_weights / load_weights through the client and the dev server: a round
// trip into a fresh model, resumption by a new client and by a restarted
// server from the checkpoint files, and SkyRL's load-only-first rule.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TinkerClient } from '../../src/tinker/client.js';
import { ADAM, BASE, datum, post, startDev } from './fixture.js';

const quiet = () => {};
const batch = [datum([1, 5, 9, 13, 17]), datum([2, 6, 10, 14, 18])];

describe('tinker checkpoints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tinker-ckpt-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('saves, then a new client resumes into a fresh model, and a restarted server still loads the file', async () => {
    const dev = await startDev({ checkpointDir: dir });
    const trainer = new TinkerClient({ baseUrl: dev.url, log: quiet });
    await trainer.createSession(['run-1']);
    const model = await trainer.createModel({ baseModel: BASE, loraRank: 4, seed: 3 });
    for (let i = 0; i < 3; i++) {
      await trainer.forwardBackward(model, batch, 'cross_entropy');
      await trainer.optimStep(model, ADAM);
    }
    const logprobs = async (c: TinkerClient, m: string) => (await c.forward(m, batch, 'cross_entropy')).loss_fn_outputs.map((o) => o.logprobs?.data);
    const trained = await logprobs(trainer, model);
    const path = await trainer.saveWeights(model, 'step-3');
    assert.equal(path, `tinker://${model}/weights/step-3`);
    assert.ok(existsSync(join(dir, model, 'step-3.json')), 'checkpoint written as <dir>/<model>/<name>.json');
    await assert.rejects(trainer.saveWeights(model, 'step-3'), /HTTP 409.*Checkpoint 'step-3' already exists/);

    // A new client (a restarted trainer): fresh session, fresh model, load as its first request.
    const resumed = new TinkerClient({ baseUrl: dev.url, log: quiet });
    await resumed.createSession(['run-1-resumed']);
    const fresh = await resumed.createModel({ baseModel: BASE, loraRank: 4, seed: 99 });
    assert.notDeepEqual(await logprobs(resumed, fresh), trained, 'a fresh model differs before loading');
    const blank = await resumed.createModel({ baseModel: BASE, loraRank: 4, seed: 99 });
    await resumed.loadWeights(blank, path, true);
    assert.deepEqual(await logprobs(resumed, blank), trained);
    // Optimizer state came along: the next step from the loaded model matches the one from the original.
    await resumed.forwardBackward(blank, batch, 'cross_entropy');
    await resumed.optimStep(blank, ADAM);
    // (The first client still holds the original model; its seq_ids continue where they were.)
    await trainer.forwardBackward(model, batch, 'cross_entropy');
    await trainer.optimStep(model, ADAM);
    assert.deepEqual(await logprobs(resumed, blank), await logprobs(trainer, model));
    trainer.close();
    resumed.close();
    await dev.close();

    // A restarted server finds the checkpoint on disk.
    const dev2 = await startDev({ checkpointDir: dir });
    const later = new TinkerClient({ baseUrl: dev2.url, log: quiet });
    try {
      await later.createSession(['run-1-after-restart']);
      const m = await later.createModel({ baseModel: BASE, loraRank: 4 });
      await later.loadWeights(m, path, false);
      assert.deepEqual(await logprobs(later, m), trained);
    } finally {
      later.close();
      await dev2.close();
    }
  });

  it('load_weights is refused unless it is the first request, and checks the path and the checkpoint', async () => {
    const dev = await startDev();
    const client = new TinkerClient({ baseUrl: dev.url, log: quiet });
    try {
      await client.createSession([]);
      const model = await client.createModel({ baseModel: BASE, loraRank: 4, seed: 1 });
      const saved = await client.saveWeights(model, 'base');
      await assert.rejects(client.loadWeights(model, saved, true), /load_weights: HTTP 400: LoadWeights is not permitted with seq_id \d+/);

      const other = await client.createModel({ baseModel: BASE, loraRank: 4 });
      const badPath = await post(dev.url, 'load_weights', { model_id: other, path: `tinker://${model}/sampler_weights/base` });
      assert.deepEqual([badPath.status, badPath.body.detail], [400, 'request.path must be in format tinker://source_model_id/weights/checkpoint_id']);
      const missing = await post(dev.url, 'load_weights', { model_id: other, path: `tinker://${model}/weights/nope` });
      assert.deepEqual([missing.status, missing.body.detail], [404, `Checkpoint not found: ${model}/nope`]);
      // Refused requests are not requests the model has had: loading still works.
      await client.loadWeights(other, saved, false);
      await client.forwardBackward(other, batch, 'cross_entropy');
      await assert.rejects(client.loadWeights(other, saved, false), /not permitted/);
    } finally {
      client.close();
      await dev.close();
    }
  });

  it('unload_model frees the model: later work on it fails as on SkyRL', async () => {
    const dev = await startDev();
    const client = new TinkerClient({ baseUrl: dev.url, log: quiet });
    try {
      await client.createSession([]);
      const model = await client.createModel({ baseModel: BASE, loraRank: 4 });
      await client.unloadModel(model);
      assert.equal((await client.getInfo(model)).status, 'unloaded');
      await assert.rejects(client.optimStep(model, ADAM), new RegExp(`failed on the server: Model ${model} not loaded`));
      await assert.rejects(client.createModel({ baseModel: BASE, loraRank: 64 }), /LoRA rank 64 must be between 1 and 32/);
      await assert.rejects(client.createModel({ baseModel: 'other/model', loraRank: 4 }), /serves base model/);
    } finally {
      client.close();
      await dev.close();
    }
  });
});
