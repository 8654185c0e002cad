// Session heartbeats: a client that heartbeats keeps its models past the
// session timeout; a silent session expires and its models are unloaded, so
// later work on them fails the way SkyRL's engine fails it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { TinkerClient } from '../../src/tinker/client.js';
import { ADAM, BASE, datum, post, startDev } from './fixture.js';

const quiet = () => {};

describe('tinker sessions', () => {
  it('heartbeats keep a session alive past the timeout while a silent one expires', async () => {
    const dev = await startDev({ sessionTimeoutSec: 1, sessionCleanupIntervalSec: 0.1 });
    const alive = new TinkerClient({ baseUrl: dev.url, heartbeatMs: 200, log: quiet });
    const silent = new TinkerClient({ baseUrl: dev.url, heartbeatMs: 60_000, log: quiet });
    try {
      await alive.createSession(['alive']);
      await silent.createSession(['silent']);
      const kept = await alive.createModel({ baseModel: BASE, loraRank: 4, seed: 1 });
      const lost = await silent.createModel({ baseModel: BASE, loraRank: 4, seed: 1 });
      // Work does not count as a heartbeat (as on SkyRL): keep the silent client busy, then let the timeout pass.
      await silent.forwardBackward(lost, [datum([1, 2, 3])], 'cross_entropy');
      await sleep(1700);

      assert.equal((await alive.getInfo(kept)).status, 'created');
      const out = await alive.forwardBackward(kept, [datum([1, 2, 3])], 'cross_entropy');
      assert.equal(out.loss_fn_outputs.length, 1);

      assert.equal((await silent.getInfo(lost)).status, 'unloaded');
      // The API still takes the request (the model is known); the future fails because the model is gone.
      await assert.rejects(silent.optimStep(lost, ADAM), new RegExp(`optim_step \\(request \\d+\\) failed on the server: Model ${lost} not loaded`));
      assert.ok(dev.logs.some((l) => l.includes(`auto-unloaded stale model ${lost}`)));
      assert.ok(!dev.logs.some((l) => l.includes(`stale model ${kept}`)));
      // A late heartbeat is answered (SkyRL keeps the row) but does not bring the model back.
      await silent.heartbeat();
      await assert.rejects(silent.forward(lost, [datum([1, 2, 3])], 'cross_entropy'), /not loaded/);

      // Once the live client stops its heartbeat, its session goes the same way.
      alive.close();
      await sleep(1500);
      assert.equal((await alive.getInfo(kept)).status, 'unloaded');
    } finally {
      alive.close();
      silent.close();
      await dev.close();
    }
  });

  it('requests need a known session; a heartbeat for an unknown one is 404', async () => {
    const dev = await startDev();
    try {
      const beat = await post(dev.url, 'session_heartbeat', { session_id: 'session_nope' });
      assert.deepEqual(beat, { status: 404, body: { detail: 'Session not found' } });
      const model = await post(dev.url, 'create_model', { session_id: 'session_nope', base_model: BASE, lora_config: { rank: 4 } });
      assert.deepEqual(model, { status: 404, body: { detail: 'Session not found' } });
      const client = new TinkerClient({ baseUrl: dev.url, log: quiet });
      await assert.rejects(client.createModel({ baseModel: BASE, loraRank: 4 }), /create_model: no session yet/);
    } finally {
      await dev.close();
    }
  });
});
