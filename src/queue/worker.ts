// A queue worker: pulls jobs (roll out a task with a policy version, grade a
// change, validate a candidate bug), runs them in this machine's sandboxes and
// returns the results. BullMQ holds a lease on each job while it runs: a
// worker killed mid-job stops renewing it, and after the lease the job goes
// back to the queue for another worker. A job that throws is retried; one
// that cannot succeed here (an unknown environment, another policy version)
// fails at once with its reason. See docs/queue.md.
import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job as BullJob } from 'bullmq';
import type { Redis } from 'ioredis';
import { buildEnvironment, type BuiltEnv } from '../env/build.js';
import type { LoadedEnv } from '../env/load.js';
import { sharedReuse } from '../grading/reuse.js';
import type { Rollout } from '../rl/contract.js';
import { rolloutWithRetry, type AttemptDetail } from '../rl/rollout.js';
import type { Runtime } from '../runtime/types.js';
import { taskFromJSON } from '../task/io.js';
import type { Task } from '../task/task.js';
import { EnvValidator } from '../taskpilot/validate.js';
import { errorMessage } from '../util/errors.js';
import { deriveSeed } from '../util/rng.js';
import { verify } from '../verifier/verify.js';
import { ActorRefused, Actors, type ModelsFromFlags } from './actors.js';
import { Artifacts } from './artifacts.js';
import { BULL_PREFIX, connect, queueKey, type QueueAddress } from './connection.js';
import { JobSchema, packResult, type GradeJob, type Job, type RolloutJob, type ValidateJob } from './jobs.js';

export interface WorkerOptions {
  addr: QueueAddress;
  /** Jobs at once (default: the machine's workers). */
  concurrency: number;
  envs: Map<string, LoadedEnv>;
  runtime: Runtime;
  dataDir: string;
  /** Seconds a job's lease lasts without renewal: how long a killed worker's job waits before another takes it. */
  leaseSec: number;
  /** Shown by `queue status` (default host:pid). */
  name?: string;
  fromFlags?: ModelsFromFlags;
  log?: (line: string) => void;
}

/** What a rollout job returns per seed: the rollout and what the trainer keeps of it (the dashboard's attempt). */
export interface RolloutResult<D = unknown> {
  rollout: Rollout<D> & { retried: boolean };
  detail: AttemptDetail;
}

/** Heartbeats expire after this; `queue status` shows live workers only. */
export const HEARTBEAT_TTL_SEC = 15;
const HEARTBEAT_MS = 2_000;

export class QueueWorker {
  readonly id: string;
  readonly counts = { done: 0, failed: 0, inFlight: 0 };
  private readonly startedAt = new Date().toISOString();
  private lastJobAt = '';
  private readonly builts = new Map<string, Promise<BuiltEnv>>();
  private readonly validators = new Map<string, EnvValidator>();
  private readonly actors: Actors;
  private readonly artifacts: Artifacts;
  private worker?: Worker;
  private beat?: NodeJS.Timeout;

  private constructor(
    private readonly opts: WorkerOptions,
    private readonly redis: Redis,
  ) {
    this.id = opts.name ?? `${hostname()}:${process.pid}`;
    this.artifacts = new Artifacts(redis, opts.addr);
    this.actors = new Actors(this.artifacts, opts.fromFlags);
  }

  static async start(opts: WorkerOptions): Promise<QueueWorker> {
    const w = new QueueWorker(opts, await connect(opts.addr));
    const leaseMs = opts.leaseSec * 1000;
    w.worker = new Worker(opts.addr.name, (job) => w.process(job), {
      connection: opts.addr.connection,
      prefix: BULL_PREFIX,
      // Kept on each job it takes (processedBy): which worker ran what.
      name: w.id,
      concurrency: opts.concurrency,
      lockDuration: leaseMs,
      // A stalled job is looked for a few times per lease; a job may stall twice (two workers lost) before it fails.
      stalledInterval: Math.max(1_000, Math.round(leaseMs / 3)),
      maxStalledCount: 2,
      metrics: { maxDataPoints: 60 * 24 },
    });
    w.worker.on('failed', (job, err) => opts.log?.(`${job?.id ?? '?'} failed: ${err.message}`));
    w.worker.on('error', (err) => opts.log?.(`queue error: ${err.message}`));
    await w.worker.waitUntilReady();
    await w.heartbeat();
    w.beat = setInterval(() => void w.heartbeat().catch(() => {}), HEARTBEAT_MS);
    return w;
  }

  private async heartbeat(): Promise<void> {
    const key = queueKey(this.opts.addr, 'worker', this.id);
    const { done, failed, inFlight } = this.counts;
    await this.redis
      .multi()
      .hset(key, {
        id: this.id,
        host: hostname(),
        pid: String(process.pid),
        concurrency: String(this.opts.concurrency),
        inFlight: String(inFlight),
        done: String(done),
        failed: String(failed),
        startedAt: this.startedAt,
        lastJobAt: this.lastJobAt,
        seenAt: new Date().toISOString(),
      })
      .expire(key, HEARTBEAT_TTL_SEC)
      .exec();
  }

  private async process(job: BullJob): Promise<unknown> {
    const parsed = JobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`malformed job: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`);
    const t0 = performance.now();
    this.counts.inFlight++;
    try {
      const value = await this.run(parsed.data);
      this.counts.done++;
      return packResult(value, performance.now() - t0, this.id);
    } catch (err) {
      this.counts.failed++;
      if (err instanceof ActorRefused || err instanceof Refused) throw new UnrecoverableError(`${this.id}: ${err.message}`);
      throw new Error(`${this.id}: ${errorMessage(err)}`, { cause: err });
    } finally {
      this.counts.inFlight--;
      this.lastJobAt = new Date().toISOString();
    }
  }

  private run(job: Job): Promise<unknown> {
    if (job.kind === 'rollout') return this.rollout(job);
    if (job.kind === 'grade') return this.grade(job);
    return this.validate(job);
  }

  /** This worker's build of an environment, which must be the one the job was made for. */
  private async built(name: string, hash: string): Promise<BuiltEnv> {
    const env = this.opts.envs.get(name);
    if (!env) throw new Refused(`this worker has no environment ${name} (it has ${[...this.opts.envs.keys()].join(', ')})`);
    let p = this.builts.get(name);
    if (!p) {
      p = buildEnvironment(env, { dataDir: this.opts.dataDir, runtime: this.opts.runtime });
      this.builts.set(name, p);
      p.catch(() => this.builts.delete(name));
    }
    const built = await p;
    if (built.hash !== hash) throw new Refused(`this worker's ${name} (source ${built.hash.slice(0, 12)}) is not the job's (${hash.slice(0, 12)})`);
    return built;
  }

  private async task(key: string): Promise<{ task: Task; built: BuiltEnv }> {
    const task = taskFromJSON(await this.artifacts.fetch(key), key);
    return { task, built: await this.built(task.env.name, task.env.hash) };
  }

  private async rollout(job: RolloutJob): Promise<RolloutResult[]> {
    const { task, built } = await this.task(job.task);
    const actors = await this.actors.for(job.actor);
    const out: RolloutResult[] = [];
    for (const seed of job.seeds) {
      let detail: AttemptDetail = {};
      const ctx = {
        built,
        runtime: this.opts.runtime,
        dataDir: this.opts.dataDir,
        reuse: sharedReuse,
        keep: (d: AttemptDetail) => void (detail = d),
        ...(job.maxSteps ? { maxSteps: job.maxSteps } : {}),
      };
      const seedOf = (attempt: number) => (job.retrySeed === 'derived' ? deriveSeed(seed, attempt) : seed);
      const rollout = await rolloutWithRetry(task, (attempt) => actors.forEpisode({ seed: seedOf(attempt), task, built }), ctx, job.version);
      out.push({ rollout, detail });
    }
    return out;
  }

  private async grade(job: GradeJob): Promise<unknown> {
    const { task, built } = await this.task(job.task);
    return verify(task, job.change, { built, runtime: this.opts.runtime, dataDir: this.opts.dataDir });
  }

  private async validate(job: ValidateJob): Promise<unknown> {
    const built = await this.built(job.env.name, job.env.hash);
    const key = `${built.hash}:${job.referenceRuns}:${job.candidateRuns}`;
    let v = this.validators.get(key);
    if (!v)
      this.validators.set(
        key,
        (v = new EnvValidator(built, this.opts.runtime, this.opts.dataDir, { referenceRuns: job.referenceRuns, candidateRuns: job.candidateRuns })),
      );
    return v.check(job.change);
  }

  /** Stops taking jobs; waits for those running unless `force` (then they return to the queue after their lease). */
  async close(force = false): Promise<void> {
    clearInterval(this.beat);
    await this.worker?.close(force);
    await this.actors.close();
    await this.redis.del(queueKey(this.opts.addr, 'worker', this.id)).catch(() => 0);
    this.redis.disconnect();
  }
}

/** A job this worker cannot do as asked (no such environment, another build of it). */
class Refused extends Error {}
