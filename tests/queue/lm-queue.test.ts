// The language-model learner on queue workers: `train --learner tinker
// --queue` against `frognano tinker-dev` (a real Tinker HTTP server with a tiny
// token model) and a worker process on a real Redis server. Each version's
// sampler weights are saved under a name; the worker samples from the path its
// job names, and every rollout comes back with that version's tokens.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Queue } from 'bullmq';
import { BULL_PREFIX, parseQueueUrl } from '../../src/queue/connection.js';
import { ChatCodec } from '../../src/tokens/codec.js';
import { writeTinyModelFolder } from '../../src/tokens/tiny-folder.js';
import { addChecked } from '../helpers/cli.js';
import { killLeftovers, spawnCli } from '../helpers/cli-lm.js';
import { toyEnv, toyTrainArgs, warmDevServer } from '../helpers/lm-toy.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { tempDir } from '../helpers/workspace.js';

async function addEnv(dir: string, data: string): Promise<void> {
  await addChecked(dir, data);
}

describe('train --learner tinker --queue', { skip: redisMissing() }, () => {
  let redis: TestRedis;

  before(async () => {
    redis = await startRedis();
  });

  after(async () => {
    killLeftovers();
    await redis?.stop();
  });

  it('runs the language model rollouts on a worker, each job pinned to its version sampler weights', { timeout: 300_000 }, async (t) => {
    const root = tempDir('fn-lm-queue-');
    const env = toyEnv('toy-ops');
    writeFileSync(join(env.baseDir, 'environment.json'), JSON.stringify(env.spec, null, 2));
    const data = join(root, 'data');
    const workerData = join(root, 'worker');
    await addEnv(env.baseDir, data);
    await addEnv(env.baseDir, workerData);
    const tokenizer = writeTinyModelFolder(join(root, 'tokenizer'));
    const { server, warm } = await warmDevServer(ChatCodec.load(tokenizer), join(root, 'checkpoints'));
    t.after(() => server.close());

    const worker = spawnCli(['worker', '--queue', redis.url, '--concurrency', '2', '--lease-sec', '5', '--name', 'lm-w', '--data-dir', workerData]);
    await worker.waitFor('stderr', /runtime \w+/, 60_000);
    const run = spawnCli([...toyTrainArgs({ tokenizer, url: server.url, warm, steps: 2, data }), '--queue', redis.url]);
    const end = await run.exited(240_000);
    assert.equal(end.code, 0, run.stderr());
    assert.match(run.stderr(), /2 job slots on live workers/);

    const lines = readFileSync(join(data, 'runs', 'default', 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    for (const m of lines) {
      assert.equal(m.infraFailures, 0, JSON.stringify(m.infraReasons));
      assert.ok(m.learner.sampledTokens > 0, 'the learner trained on the tokens the worker sampled');
    }
    assert.ok(lines.at(-1).queue.jobs > 0 && lines.at(-1).queue.failed === 0);

    // The jobs named the version they were for and its own sampler weights.
    const addr = parseQueueUrl(redis.url);
    const queue = new Queue(addr.name, { connection: addr.connection, prefix: BULL_PREFIX });
    const rollouts = (await queue.getCompleted(0, 1000)).filter((j) => j.name === 'rollout');
    await queue.close();
    assert.ok(rollouts.every((j) => j.processedBy === 'lm-w'));
    const versions = new Map<number, Set<string>>();
    for (const j of rollouts) versions.set(j.data.actor.version, (versions.get(j.data.actor.version) ?? new Set()).add(j.data.actor.snapshot));
    assert.deepEqual([...versions.keys()].sort(), [0, 1], 'rollouts of version 0 (step 1) and 1 (step 2)');
    assert.ok(
      [...versions.values()].every((keys) => keys.size === 1),
      'one snapshot per version',
    );
    assert.notEqual([...versions.get(0)!][0], [...versions.get(1)!][0]);
  });
});
