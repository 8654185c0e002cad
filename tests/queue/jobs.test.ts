// The queue's addresses and jobs without a server: URLs parsed or refused with
// a reason, job ids that follow the job's content, results that survive the trip.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServer } from 'node:net';
import { connect, parseQueueUrl } from '../../src/queue/connection.js';
import { jobId, JobSchema, packResult, unpackResult, type Job } from '../../src/queue/jobs.js';
import { UserError } from '../../src/util/errors.js';

describe('queue addresses', () => {
  it('reads host, port, database, password and queue name from a redis:// URL', () => {
    const a = parseQueueUrl('redis://:s3cret@10.0.0.5:6390/2?queue=team-a');
    assert.deepEqual(a.connection, { host: '10.0.0.5', port: 6390, db: 2, password: 's3cret' });
    assert.equal(a.name, 'team-a');
    assert.equal(a.display, 'redis://10.0.0.5:6390/2?queue=team-a', 'the password is never shown');
    const b = parseQueueUrl('redis://redis');
    assert.deepEqual(b.connection, { host: 'redis', port: 6379, db: 0 });
    assert.equal(b.name, 'frognano');
  });

  it('fails at once, with the reason, where no Redis answers', { timeout: 30_000 }, async () => {
    // A port just released on loopback: nothing listens there.
    const port = await new Promise<number>((done) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const a = s.address();
        s.close(() => done(typeof a === 'object' && a ? a.port : 1));
      });
    });
    await assert.rejects(connect(parseQueueUrl(`redis://127.0.0.1:${port}`)), (err: unknown) => {
      return (
        err instanceof UserError &&
        /cannot reach the queue's Redis at redis:\/\/127\.0\.0\.1:\d+: connect ECONNREFUSED/.test(err.message) &&
        /redis-server/.test(err.hint ?? '')
      );
    });
  });

  it('refuses what is not a Redis URL, saying what to pass', () => {
    for (const bad of ['localhost:6379', 'http://host:6379', 'redis://host:6379/x', 'redis://host?queue=a:b']) {
      assert.throws(
        () => parseQueueUrl(bad),
        (err: unknown) => err instanceof UserError && /redis|queue|database/.test(err.message),
        bad,
      );
    }
  });
});

describe('queue jobs', () => {
  const job: Job = {
    kind: 'rollout',
    run: 'r1',
    task: 'task-abc',
    actor: { kind: 'policy', snapshot: 'policy-1', learner: 'embedded-policy', version: 3 },
    seeds: [11],
    version: 3,
    retrySeed: 'derived',
  };

  it('names a job by its content: the same job twice has one id, another seed, version or run another', () => {
    assert.equal(jobId(job), jobId({ ...job }));
    const others = [
      { ...job, seeds: [12] },
      { ...job, version: 4 },
      { ...job, run: 'r2' },
      { ...job, task: 'task-abd' },
    ];
    const ids = new Set([jobId(job), ...others.map((j) => jobId(j))]);
    assert.equal(ids.size, 5);
    assert.ok(!jobId(job).includes(':'), 'BullMQ refuses custom ids with a colon');
  });

  it('checks a job before a worker acts on it', () => {
    assert.ok(JobSchema.safeParse(job).success);
    assert.ok(!JobSchema.safeParse({ ...job, seeds: [] }).success, 'a rollout job with no seed');
    assert.ok(!JobSchema.safeParse({ ...job, kind: 'mine-bitcoin' }).success);
    assert.ok(!JobSchema.safeParse({ kind: 'grade', run: 'r', task: 't', change: { refused: { code: 'not-a-code', message: '' } } }).success);
  });

  it('packs a result into gzipped base64 and back, with its work time and worker', () => {
    const value = { reward: 1, text: 'x'.repeat(10_000), nested: [{ a: null }] };
    const packed = packResult(value, 1234.6, 'w1');
    assert.ok(packed.data.length < 1_000, `10 kB of repeated text packs small (${packed.data.length} chars)`);
    assert.deepEqual(unpackResult(packed), { value, workMs: 1235, worker: 'w1' });
    assert.deepEqual(unpackResult(JSON.stringify(packed)).value, value, 'as a string, as BullMQ may hand it over');
    assert.throws(() => unpackResult({ nothing: true }), /without data/);
  });
});
