// Jobs across worker processes on a real Redis server: a worker killed with
// SIGKILL mid-job loses that job to the other after its lease, and every job
// completes and is counted exactly once, with the results an in-process run
// gives; failing jobs land in the failed set with their reasons; workers
// refuse another policy version or another build of an environment; a
// resumed client finds finished jobs; synthesis validates through the queue.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Job, Queue } from 'bullmq';
import { buildEnvironment, type BuiltEnv } from '../../src/env/build.js';
import { starterEnvs } from '../../src/env/load.js';
import { EmbeddedAgent } from '../../src/policy/agent.js';
import { EMBEDDED_KIND } from '../../src/policy/learner.js';
import { LinearPolicy } from '../../src/policy/linear.js';
import { JobQueue } from '../../src/queue/client.js';
import { BULL_PREFIX, parseQueueUrl, type QueueAddress } from '../../src/queue/connection.js';
import { jobId } from '../../src/queue/jobs.js';
import { queueStatus, renderStatus, workerRows } from '../../src/queue/status.js';
import { rolloutWithRetry } from '../../src/rl/rollout.js';
import { selectRuntime } from '../../src/runtime/select.js';
import type { Task } from '../../src/task/task.js';
import { synthesize } from '../../src/taskpilot/synth.js';
import { deriveSeed } from '../../src/util/rng.js';
import { killLeftovers, spawnCli, type CliChild } from '../helpers/cli-lm.js';
import { redisMissing, startRedis, type TestRedis } from '../helpers/redis.js';
import { tempDir } from '../helpers/workspace.js';
import { canonicalJson } from '../../src/util/canonical-json.js';
import { Redis } from 'ioredis';

const missing = redisMissing();
const runtime = selectRuntime({ name: 'auto' });
const ENV = starterEnvs().find((e) => e.spec.name === 'durations')!;
const SYNTH = {
  n: 6,
  strategies: ['procedural' as const],
  workers: 1,
  seed: 3,
  hint: 'symptom' as const,
  visibility: 'visible' as const,
  referenceRuns: 2,
  candidateRuns: 2,
};

function startWorker(url: string, name: string, dataDir: string): CliChild {
  return spawnCli(['worker', '--queue', url, '--concurrency', '1', '--lease-sec', '3', '--name', name, '--data-dir', dataDir]);
}

describe('queue workers on a real Redis server', { skip: missing }, () => {
  let redis: TestRedis;
  let addr: QueueAddress;
  let client: JobQueue;
  let tasks: Task[];
  let built: BuiltEnv;
  const dataDir = tempDir('fn-queue-');
  const dirs = { a: tempDir('fn-worker-a-'), b: tempDir('fn-worker-b-') };
  const workers: Record<string, CliChild> = {};
  const weights = new LinearPolicy();
  const snapshot = { learner: EMBEDDED_KIND, version: 0, data: weights.toJSON() };

  before(async () => {
    redis = await startRedis();
    addr = parseQueueUrl(redis.url);
    workers.a = startWorker(redis.url, 'w-a', dirs.a);
    workers.b = startWorker(redis.url, 'w-b', dirs.b);
    await Promise.all(Object.values(workers).map((w) => w.waitFor('stderr', /runtime \w+/, 60_000)));
    client = await JobQueue.open(addr, 'test-run');
    built = await buildEnvironment(ENV, { dataDir, runtime });
    const stats = await synthesize({ ...SYNTH, envs: [ENV], outDir: tempDir('fn-queue-tasks-'), dataDir, runtime });
    tasks = stats.tasks.slice(0, 2);
    assert.equal(tasks.length, 2, `synthesis found ${stats.tasks.length} tasks: ${stats.errors.join('; ')}`);
  });

  after(async () => {
    await client?.close();
    killLeftovers();
    await redis?.stop();
  });

  it('completes every rollout exactly once when a worker is killed mid-job, with the in-process results', async () => {
    const spec = await client.policy(snapshot);
    const seeds = [1, 2, 3];
    const jobs = tasks.flatMap((task) => seeds.map((seed) => ({ task, seed })));
    const results = Promise.all(jobs.map(({ task, seed }) => client.rollout(task, spec, seed, { version: 0, retrySeed: 'derived' })));

    // Kill w-a while BullMQ shows it holding a job.
    const queue = new Queue(addr.name, { connection: addr.connection, prefix: BULL_PREFIX });
    let held: string | undefined;
    for (let i = 0; i < 600 && !held; i++) {
      held = (await queue.getActive()).find((j) => j.processedBy === 'w-a')?.id;
      if (!held) await new Promise((done) => setTimeout(done, 50));
    }
    assert.ok(held, 'w-a never took a job');
    workers.a!.child.kill('SIGKILL');
    const got = await results;

    assert.equal(got.length, jobs.length);
    for (const [k, r] of got.entries()) assert.notEqual(r.rollout.reward, null, `job ${k}: ${r.rollout.reason}`);
    const killed = await Job.fromId(queue, held);
    assert.ok(killed, 'the killed job is kept as completed');
    assert.equal(await killed.getState(), 'completed');
    assert.ok(killed.stalledCounter >= 1, `the killed job was taken back after its lease (stalled ${killed.stalledCounter})`);
    assert.equal(killed.processedBy, 'w-b', 'the other worker finished it');
    assert.deepEqual(client.figures().failed, 0);

    // The same rollouts in this process: the same rewards, verdicts and trajectories.
    for (const [k, { task, seed }] of jobs.entries()) {
      const local = await rolloutWithRetry(task, (attempt) => new EmbeddedAgent(weights, { seed: deriveSeed(seed, attempt) }), { built, runtime, dataDir }, 0);
      const remote = got[k]!.rollout;
      assert.deepEqual(
        { reward: remote.reward, verdict: remote.verdict, steps: remote.steps, trajectory: remote.trajectory },
        { reward: local.reward, verdict: local.verdict, steps: local.steps, trajectory: local.trajectory },
        `${task.id} seed ${seed}`,
      );
      assert.ok(got[k]!.detail.report, 'the verifier report comes back for the dashboard');
    }

    // A result that arrives twice counts once: the same job again is found, not run.
    const probe = new Redis(addr.connection);
    const before = (await workerRows(probe, addr)).find((w) => w.id === 'w-b')!.done;
    const again = await client.rollout(tasks[0]!, spec, 1, { version: 0, retrySeed: 'derived' });
    assert.deepEqual(again.rollout.trajectory, got[0]!.rollout.trajectory);
    assert.equal(client.figures().found, 1);
    await new Promise((done) => setTimeout(done, 2_500)); // a heartbeat
    const after = (await workerRows(probe, addr)).find((w) => w.id === 'w-b')!.done;
    probe.disconnect();
    assert.equal(after, before, 'no worker ran it again');

    // Nothing of the killed worker is left running (its sandboxes die with it).
    await new Promise((done) => setTimeout(done, 1_000));
    const left = spawnSync('pgrep', ['-f', dirs.a], { encoding: 'utf8' }).stdout.trim();
    assert.equal(left, '', `processes of the killed worker still run: ${left}`);
    await queue.close();
  });

  it('puts a job that keeps failing in the failed set with its reason, and one that cannot succeed there at once', async () => {
    const queue = new Queue(addr.name, { connection: addr.connection, prefix: BULL_PREFIX });
    // A task the queue never received: the worker throws each time; three tries, then failed.
    const ghost = {
      kind: 'rollout',
      run: 'test-run',
      task: 'task-0000',
      actor: { kind: 'flags', flags: { model: 'scripted:noop' } },
      seeds: [1],
      version: 0,
      retrySeed: 'same',
    };
    const job = await queue.add('rollout', ghost, { jobId: 'ghost-job', attempts: 3, backoff: { type: 'fixed', delay: 100 } });
    for (let i = 0; i < 200 && !(await job.isFailed()); i++) await new Promise((done) => setTimeout(done, 100));
    const failed = (await Job.fromId(queue, 'ghost-job'))!;
    assert.equal(failed.attemptsMade, 3, 'tried three times');
    assert.match(failed.failedReason, /w-b: artifact task-0000 is not in the queue/);

    // Another build of the environment, and another policy version: refused without retries, as infrastructure failures.
    const other = { ...tasks[0]!, env: { ...tasks[0]!.env, hash: 'f'.repeat(64) } };
    const spec = await client.policy(snapshot);
    const wrongEnv = await client.rollout(other, spec, 1, { version: 0, retrySeed: 'derived' });
    assert.equal(wrongEnv.rollout.reward, null);
    assert.match(wrongEnv.rollout.reason!, /this worker's durations \(source \w+\) is not the job's \(ffffffffffff\)/);
    const wrongVersion = await client.rollout(
      tasks[0]!,
      { kind: 'policy', snapshot: spec.kind === 'policy' ? spec.snapshot : '', learner: EMBEDDED_KIND, version: 1 },
      1,
      {
        version: 1,
        retrySeed: 'derived',
      },
    );
    assert.match(wrongVersion.rollout.reason!, /asks for embedded-policy version 1, but its snapshot holds embedded-policy version 0/);
    const refused = await Job.fromId(
      queue,
      jobId({ kind: 'rollout', run: 'test-run', task: await keyOf(other), actor: spec, seeds: [1], version: 0, retrySeed: 'derived' }),
    );
    assert.equal(refused?.attemptsMade, 1, 'a refused job is not retried');

    const status = await queueStatus(addr);
    assert.equal(status.counts.failed, 3);
    assert.ok(status.workers.some((w) => w.id === 'w-b' && w.concurrency === 1));
    assert.equal(status.depth, 0);
    const text = renderStatus(status);
    assert.match(text, /3 failed/);
    assert.match(text, /w-b/);
    assert.match(text, /snapshot holds embedded-policy version 0/);
    await queue.close();
  });

  it('grades changes and validates candidates on workers as this process does', async () => {
    const task = tasks[0]!;
    assert.equal((await client.grade(task, task.fixPatch)).reward, 1, 'the reference fix passes');
    assert.equal((await client.grade(task, '')).reward, 0, 'no change fails');
    const viaQueue = await synthesize({
      ...SYNTH,
      envs: [ENV],
      outDir: tempDir('fn-queue-tasks-'),
      dataDir,
      runtime,
      checkVia: (b) => client.checkFor(b, { referenceRuns: 2, candidateRuns: 2 }),
    });
    const here = await synthesize({ ...SYNTH, envs: [ENV], outDir: tempDir('fn-queue-tasks-'), dataDir, runtime });
    const shape = (ts: Task[]) => ts.map((t) => ({ id: t.id, f2p: t.FAIL_TO_PASS, p2p: t.PASS_TO_PASS, grading: t.grading }));
    assert.deepEqual(shape(viaQueue.tasks), shape(here.tasks));
    assert.deepEqual(viaQueue.byStrategy, here.byStrategy, 'the same candidates rejected for the same reasons');
  });
});

/** The artifact key a task is published under (the client publishes by content hash). */
async function keyOf(task: Task): Promise<string> {
  const { createHash } = await import('node:crypto');
  return `task-${createHash('sha256').update(canonicalJson(task)).digest('hex').slice(0, 40)}`;
}
