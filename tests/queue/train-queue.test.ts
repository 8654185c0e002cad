// `train --queue` with two worker processes on a real Redis server: the same
// steps, rewards, pool and policy as training in one process with the same
// seed; and a trainer killed mid-step (SIGKILL) finds the rollouts its workers
// finished when it is rerun, instead of running them again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Queue } from 'bullmq';
import { BULL_PREFIX, parseQueueUrl } from '../../src/queue/connection.js';
import { killLeftovers, spawnCli, type CliChild } from '../helpers/cli-lm.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { tempDir } from '../helpers/workspace.js';

// A budget with room for one training step after the admission probes, also when a rerun after a kill probes again (16 spent it all on probes once tasks needed an unseen check).
const ARGS = ['--envs', 'durations', '--held-out', 'md-tokens', '--budget', '32', '--eval-tasks', '1', '--steps', '1', '--workers', '2', '--time-limit', '0'];

/** metrics.jsonl without what depends on timing or on where the work ran. */
function metrics(dataDir: string): unknown[] {
  return readFileSync(join(dataDir, 'runs', 'default', 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const { at: _a, elapsedMs: _e, ms: _m, cache: _c, queue: _q, ...rest } = JSON.parse(l);
      return rest;
    });
}

async function finish(child: CliChild): Promise<void> {
  const end = await child.exited(600_000);
  assert.equal(end.code, 0, child.stderr());
}

describe('train --queue', { skip: redisMissing() }, () => {
  let redis: TestRedis;

  before(async () => {
    redis = await startRedis();
    const workers = ['w-1', 'w-2'].map((name) =>
      spawnCli(['worker', '--queue', redis.url, '--concurrency', '1', '--lease-sec', '5', '--name', name, '--data-dir', tempDir('fn-tq-worker-')]),
    );
    await Promise.all(workers.map((w) => w.waitFor('stderr', /runtime \w+/, 60_000)));
  });

  after(async () => {
    killLeftovers();
    await redis?.stop();
  });

  it('trains as in one process for the same seed, and a killed trainer finds its finished rollouts when rerun', async () => {
    const here = tempDir('fn-tq-local-');
    await finish(spawnCli(['train', ...ARGS, '--data-dir', here]));
    const queued = tempDir('fn-tq-queued-');
    const q = spawnCli(['train', ...ARGS, '--data-dir', queued, '--queue', redis.url]);
    await finish(q);
    assert.match(q.stderr(), /queue: redis:\/\/127\.0\.0\.1:\d+\?queue=test-\w+, 2 job slots on live workers/);
    assert.deepEqual(metrics(queued), metrics(here));
    assert.deepEqual(
      JSON.parse(readFileSync(join(queued, 'runs/default/policy.json'), 'utf8')),
      JSON.parse(readFileSync(join(here, 'runs/default/policy.json'), 'utf8')),
    );

    // Killed once its workers have finished some of its rollouts; rerun, it is given them back instead of running them again.
    const crashed = tempDir('fn-tq-crash-');
    const addr = parseQueueUrl(redis.url);
    const queue = new Queue(addr.name, { connection: addr.connection, prefix: BULL_PREFIX });
    const rollouts = async () => (await queue.getCompleted(0, 10_000)).filter((j) => j.name === 'rollout').length;
    const before = await rollouts();
    const first = spawnCli(['train', ...ARGS, '--data-dir', crashed, '--queue', redis.url]);
    let done = 0;
    for (let i = 0; i < 2400 && done < 4; i++) {
      done = (await rollouts()) - before;
      await new Promise((r) => setTimeout(r, 100));
    }
    first.child.kill('SIGKILL');
    await first.exited(10_000);
    assert.ok(done >= 4, `only ${done} rollouts finished before the kill`);
    done = (await rollouts()) - before; // those in flight at the kill finish too
    const rerun = spawnCli(['train', ...ARGS, '--data-dir', crashed, '--queue', redis.url]);
    await finish(rerun);
    await queue.close();
    const last = JSON.parse(readFileSync(join(crashed, 'runs/default/metrics.jsonl'), 'utf8').trim().split('\n').at(-1)!);
    // The held-out evaluation at the start was saved before the kill: the rerun needs every other finished rollout again.
    assert.ok(last.queue.found >= done - 1, `the rerun found ${last.queue.found} of the ${done} rollouts finished before and at the kill`);
    assert.equal(last.queue.failed, 0);
  });
});
