// The trainer's and evaluation's side of a queue: pushes jobs and gathers
// their results. A job's id is the hash of its inputs (jobs.ts), so a result
// is counted once however often it arrives, and a trainer that crashed and
// resumed finds the rollouts its workers had already finished.
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { BuiltEnv } from '../env/build.js';
import type { PolicySnapshot } from '../rl/contract.js';
import { infraFailure } from '../rl/rollout.js';
import type { Task } from '../task/task.js';
import type { CandidateChange, CheckChange, Verdict } from '../taskpilot/validate.js';
import { errorMessage } from '../util/errors.js';
import { median } from '../util/stats.js';
import type { AgentChange, VerifierReport } from '../verifier/verify.js';
import { Artifacts } from './artifacts.js';
import { BULL_PREFIX, connect, type QueueAddress } from './connection.js';
import { jobId, unpackResult, type ActorSpec, type Job, type RolloutJob } from './jobs.js';
import { workerRows } from './status.js';
import type { RolloutResult } from './worker.js';

/** Tries of a job that throws before it lands in the failed set (a killed worker's job is not a try: it stalled). */
export const JOB_ATTEMPTS = 3;

/** What this client's jobs cost, for the step metrics and the benchmark. */
export interface QueueFigures {
  jobs: number;
  /** Jobs whose result was already in the queue (a resumed trainer's finished rollouts). */
  found: number;
  failed: number;
  /** Median ms a job spent outside the work itself: waiting, transfer, bookkeeping. */
  overheadMs: number;
  /** Median ms of the work itself on a worker. */
  workMs: number;
}

export class JobQueue {
  private readonly queue: Queue;
  private readonly events: QueueEvents;
  private readonly artifacts: Artifacts;
  private readonly policies = new Map<string, Promise<ActorSpec>>();
  private readonly overhead: number[] = [];
  private readonly work: number[] = [];
  private counts = { jobs: 0, found: 0, failed: 0 };

  private constructor(
    readonly addr: QueueAddress,
    /** Names this run's jobs: another run's identical job is not this one's. */
    readonly run: string,
    private readonly redis: Redis,
  ) {
    const opts = { connection: addr.connection, prefix: BULL_PREFIX };
    this.queue = new Queue(addr.name, {
      ...opts,
      // Results stay a week so a resumed trainer finds them; events carry results too, so their stream is kept short.
      defaultJobOptions: {
        attempts: JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: { age: 7 * 24 * 3600 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
      streams: { events: { maxLen: 2_000 } },
    });
    // Each job waited for listens for the queue closing: as many listeners as jobs in flight.
    this.queue.setMaxListeners(0);
    this.events = new QueueEvents(addr.name, opts);
    this.artifacts = new Artifacts(redis, addr);
  }

  static async open(addr: QueueAddress, run: string): Promise<JobQueue> {
    const q = new JobQueue(addr, run, await connect(addr));
    await Promise.all([q.queue.waitUntilReady(), q.events.waitUntilReady()]);
    return q;
  }

  /** Live workers' job slots (from their heartbeats): what the queue can run at once. */
  async capacity(): Promise<number> {
    const rows = await workerRows(this.redis, this.addr);
    return rows.reduce((n, w) => n + w.concurrency, 0);
  }

  /** This client's figures since it opened. */
  figures(): QueueFigures {
    return { ...this.counts, overheadMs: Math.round(median(this.overhead) ?? 0), workMs: Math.round(median(this.work) ?? 0) };
  }

  private async submit(job: Job) {
    const id = jobId(job);
    const t0 = performance.now();
    const added = await this.queue.add(job.kind, job, { jobId: id });
    this.counts.jobs++;
    // A job that failed in an earlier invocation (every worker lacked an environment, say) is tried again, not taken as failed.
    const state = await added.getState();
    if (state === 'failed') await added.retry('failed');
    const already = state === 'completed';
    if (already) this.counts.found++;
    let ret: unknown;
    try {
      ret = await added.waitUntilFinished(this.events);
    } catch (err) {
      this.counts.failed++;
      throw new Error(`queue job ${id} failed: ${errorMessage(err)}`, { cause: err });
    }
    const { value, workMs } = unpackResult(ret);
    if (!already) {
      this.work.push(workMs);
      this.overhead.push(performance.now() - t0 - workMs);
    }
    return value;
  }

  /** A policy version published for workers (once per version); the actor spec its rollout jobs carry. */
  policy(snapshot: PolicySnapshot): Promise<ActorSpec> {
    const key = `${snapshot.learner}@${snapshot.version}`;
    let got = this.policies.get(key);
    if (!got) {
      got = this.artifacts.publish('policy', snapshot).then((k) => ({ kind: 'policy', snapshot: k, learner: snapshot.learner, version: snapshot.version }));
      this.policies.set(key, got);
      got.catch(() => this.policies.delete(key));
    }
    return got;
  }

  /** K attempts (one per seed) at a task by the actor, each graded on the worker. */
  async rollouts<D>(
    task: Task,
    actor: ActorSpec,
    seeds: number[],
    opts: { version: number; retrySeed: RolloutJob['retrySeed']; maxSteps?: number },
  ): Promise<RolloutResult<D>[]> {
    const key = await this.artifacts.publish('task', task);
    const job: RolloutJob = {
      kind: 'rollout',
      run: this.run,
      task: key,
      actor,
      seeds,
      version: opts.version,
      retrySeed: opts.retrySeed,
      ...(opts.maxSteps ? { maxSteps: opts.maxSteps } : {}),
    };
    const value = await this.submit(job);
    if (!Array.isArray(value) || value.length !== seeds.length)
      throw new Error(`queue: a rollout job returned ${Array.isArray(value) ? value.length : 'no'} results for ${seeds.length} seeds`);
    return value;
  }

  /** One attempt at a task; a job that failed comes back as an infrastructure failure (reward null, with the reason), never thrown. */
  async rollout<D>(
    task: Task,
    actor: ActorSpec,
    seed: number,
    opts: { version: number; retrySeed: RolloutJob['retrySeed']; maxSteps?: number },
  ): Promise<RolloutResult<D>> {
    const t0 = performance.now();
    try {
      const [got] = await this.rollouts<D>(task, actor, [seed], opts);
      return got!;
    } catch (err) {
      const failed = infraFailure<D>(task, opts.version, { turns: [], steps: 0, ms: performance.now() - t0, verifyMs: 0, reason: errorMessage(err) });
      return { rollout: { ...failed, retried: false }, detail: {} };
    }
  }

  /** A change graded by a worker's verifier. */
  async grade(task: Task, change: AgentChange): Promise<VerifierReport> {
    const key = await this.artifacts.publish('task', task);
    return this.submit({ kind: 'grade', run: this.run, task: key, change });
  }

  /** Candidate checks for an environment, run by workers; a job that fails is an infrastructure rejection, never a crash. */
  checkFor(built: BuiltEnv, runs: { referenceRuns: number; candidateRuns: number }): CheckChange {
    return async (change: CandidateChange): Promise<Verdict> => {
      try {
        return await this.submit({ kind: 'validate', run: this.run, env: { name: built.env.spec.name, hash: built.hash }, change, ...runs });
      } catch (err) {
        return { valid: false, reason: 'infra', detail: errorMessage(err) };
      }
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.queue.close(), this.events.close()]);
    this.redis.disconnect();
  }
}
