// `frognano worker`: run rollout, grading and validation jobs from a queue on
// this machine's sandboxes. `frognano queue status`: what the queue is doing.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { allEnvironments } from '../env/registry.js';
import { JobQueue } from '../queue/client.js';
import { parseQueueUrl, type QueueAddress } from '../queue/connection.js';
import { queueStatus, renderStatus } from '../queue/status.js';
import { QueueWorker } from '../queue/worker.js';
import { selectRuntime } from '../runtime/select.js';
import { Store } from '../store/store.js';
import { interceptSignals } from '../util/signals.js';
import { UserError } from '../util/errors.js';
import { defaultWorkers, describeWorkers } from '../util/machine.js';
import { dataDir } from '../util/paths.js';
import type { CliContext } from './context.js';
import { intFlag, stringFlag } from './flags.js';
import { modelFactory } from './models.js';

/** Seconds a job's lease lasts by default: a killed worker's job is taken by another after this. */
export const DEFAULT_LEASE_SEC = 60;

export const WORKER_HELP = `Usage: frognano worker --queue redis://HOST:PORT [options]

Pulls jobs from the queue (roll out a task with a policy version, grade a
change, validate a candidate bug), runs them in this machine's sandboxes and
returns the results. Environments are this machine's own (starter ones and
those added with frognano env add); a job for an environment this machine
lacks, or builds from other sources, is refused with its reason. Ctrl-C (or
SIGTERM) finishes the jobs in flight and stops; a second one stops at once
(those jobs go to another worker after their lease). See docs/queue.md.

  --queue URL          redis://[:PASSWORD@]HOST:PORT[/DB][?queue=NAME] (default $FROGNANO_QUEUE)
  --concurrency N      jobs at once (default: one per core, fewer if memory is short)
  --lease-sec S        how long a job's lease lasts unrenewed: a worker killed mid-job loses its
                       job to another after this (default ${DEFAULT_LEASE_SEC})
  --name NAME          as queue status shows it (default HOST:PID)
  --runtime NAME       the sandbox (default bwrap where it works)`;

export const QUEUE_HELP = `Usage: frognano queue status --queue redis://HOST:PORT [--json]

Jobs waiting, running, completed and failed (with the latest reasons), the
live workers with their job slots and jobs in flight, and jobs per minute.`;

/** The --queue flag (or $FROGNANO_QUEUE), parsed; undefined when neither is given. */
export function queueFlag(f: CliContext['flags']): QueueAddress | undefined {
  const text = stringFlag(f, 'queue') ?? process.env.FROGNANO_QUEUE;
  return text ? parseQueueUrl(text) : undefined;
}

/** A run's name on the queue, kept in its directory: a resumed run finds its finished jobs, a fresh one starts clean. */
export function queueRunId(runDir: string, runName: string): string {
  const file = join(runDir, 'queue-run');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(runDir, { recursive: true });
  const id = `${runName}-${randomUUID().slice(0, 8)}`;
  writeFileSync(file, `${id}\n`);
  return id;
}

/** Opens a run's queue and says how many job slots its workers have. */
export async function openQueue(addr: QueueAddress, run: string, say: (line: string) => void): Promise<{ queue: JobQueue; slots: number }> {
  const queue = await JobQueue.open(addr, run);
  const slots = await queue.capacity();
  say(`queue: ${addr.display}, ${slots} job slot${slots === 1 ? '' : 's'} on live workers${slots === 0 ? ' (none yet: jobs wait until a worker starts)' : ''}`);
  return { queue, slots };
}

export async function workerCommand(ctx: CliContext): Promise<number> {
  const f = ctx.flags;
  const addr = queueFlag(f);
  if (!addr) throw new UserError('worker needs a queue', 'pass --queue redis://HOST:PORT');
  const dir = dataDir(stringFlag(f, 'data-dir'));
  const store = new Store(dir);
  const envs = new Map(allEnvironments(store).map((e) => [e.spec.name, e]));
  store.close();
  const concurrency = intFlag(f.concurrency, '--concurrency', defaultWorkers(), 1);
  const runtime = selectRuntime({ name: stringFlag(f, 'runtime') ?? 'auto', warn: ctx.err });
  const worker = await QueueWorker.start({
    addr,
    concurrency,
    envs,
    runtime,
    dataDir: dir,
    leaseSec: intFlag(f['lease-sec'], '--lease-sec', DEFAULT_LEASE_SEC, 2),
    ...(stringFlag(f, 'name') ? { name: stringFlag(f, 'name')! } : {}),
    fromFlags: modelFactory,
    log: (line) => ctx.err(line),
  });
  ctx.err(
    `worker ${worker.id} on ${addr.display}: ${describeWorkers(concurrency, f.concurrency !== undefined)
      .replace('workers:', 'job slots:')
      .replace('--workers', '--concurrency')}`,
  );
  ctx.err(`environments: ${[...envs.keys()].join(', ')}; runtime ${runtime.name}`);
  let release = () => {};
  await new Promise<void>((stop) => {
    let stopping: false | 'after' | 'now' = false;
    release = interceptSignals(() => {
      if (stopping === 'now') return false; // a third signal: no more waiting on close
      if (stopping) {
        stopping = 'now';
        ctx.err('stopping now; running jobs go back to the queue after their lease (again to exit at once)');
        void worker.close(true).then(stop);
        return true;
      }
      stopping = 'after';
      ctx.err(`stopping after ${worker.counts.inFlight} job(s) in flight (Ctrl-C again to stop now)`);
      void worker.close().then(stop);
      return true;
    });
  });
  release();
  ctx.err(`worker ${worker.id} stopped: ${worker.counts.done} jobs done, ${worker.counts.failed} failed`);
  return 0;
}

export async function queueCommand(ctx: CliContext): Promise<number> {
  const [sub] = ctx.positionals;
  if (sub !== 'status') throw new UserError(sub ? `unknown queue command "${sub}"` : 'queue needs a command', 'use frognano queue status --queue URL');
  const addr = queueFlag(ctx.flags);
  if (!addr) throw new UserError('queue status needs a queue', 'pass --queue redis://HOST:PORT');
  const s = await queueStatus(addr);
  ctx.out(ctx.flags.json ? JSON.stringify(s, null, 2) : renderStatus(s));
  return 0;
}
