// What a queue is doing: jobs waiting, running, finished and failed (with
// reasons), each live worker's slots and jobs in flight (from heartbeats), and
// throughput from BullMQ's per-minute metrics. `frognano queue status` prints it.
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { table } from '../util/table.js';
import { BULL_PREFIX, connect, queueKey, type QueueAddress } from './connection.js';

export interface WorkerRow {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  inFlight: number;
  done: number;
  failed: number;
  startedAt: string;
  lastJobAt: string;
  seenAt: string;
}

export interface QueueStatus {
  queue: string;
  /** Jobs waiting for a worker (waiting, delayed for a retry, prioritized). */
  depth: number;
  counts: Record<string, number>;
  workers: WorkerRow[];
  /** Jobs finished per minute over the last five minutes, and failed ones. */
  perMinute: { completed: number; failed: number };
  /** The most recent failed jobs and why. */
  failures: { id: string; kind: string; reason: string; at: string }[];
}

/** Live workers, from their heartbeat keys. */
export async function workerRows(redis: Redis, addr: QueueAddress): Promise<WorkerRow[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', queueKey(addr, 'worker', '*'), 'COUNT', 200);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  const rows = await Promise.all(keys.map((k) => redis.hgetall(k)));
  const num = (v: string | undefined) => (v && Number.isFinite(Number(v)) ? Number(v) : 0);
  return rows
    .filter((r) => r.id)
    .map((r) => ({
      id: r.id!,
      host: r.host ?? '',
      pid: num(r.pid),
      concurrency: num(r.concurrency),
      inFlight: num(r.inFlight),
      done: num(r.done),
      failed: num(r.failed),
      startedAt: r.startedAt ?? '',
      lastJobAt: r.lastJobAt ?? '',
      seenAt: r.seenAt ?? '',
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

export async function queueStatus(addr: QueueAddress): Promise<QueueStatus> {
  const redis = await connect(addr);
  const queue = new Queue(addr.name, { connection: addr.connection, prefix: BULL_PREFIX });
  try {
    const [counts, workers, completed, failedMetrics, failed] = await Promise.all([
      queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'),
      workerRows(redis, addr),
      queue.getMetrics('completed', 0, 4),
      queue.getMetrics('failed', 0, 4),
      queue.getFailed(0, 4),
    ]);
    const perMinute = (m: { data: number[] }) => Math.round((m.data.reduce((a, b) => a + b, 0) / 5) * 10) / 10;
    return {
      queue: addr.display,
      depth: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
      counts,
      workers,
      perMinute: { completed: perMinute(completed), failed: perMinute(failedMetrics) },
      failures: failed.map((j) => ({ id: j.id ?? '', kind: j.name, reason: j.failedReason, at: new Date(j.finishedOn ?? j.timestamp).toISOString() })),
    };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

export function renderStatus(s: QueueStatus): string {
  const c = s.counts;
  const lines = [
    `queue ${s.queue}`,
    `jobs: ${s.depth} waiting, ${c.active ?? 0} running, ${c.completed ?? 0} completed (kept a week), ${c.failed ?? 0} failed`,
    `throughput: ${s.perMinute.completed} jobs/min completed, ${s.perMinute.failed} failed (last 5 minutes)`,
  ];
  if (s.workers.length === 0) lines.push('workers: none alive (start one with `frognano worker --queue URL`)');
  else {
    const slots = s.workers.reduce((n, w) => n + w.concurrency, 0);
    lines.push(`workers: ${s.workers.length} alive, ${slots} job slots`);
    lines.push(
      table(
        ['worker', 'slots', 'in flight', 'done', 'failed', 'last job'],
        s.workers.map((w) => [w.id, String(w.concurrency), String(w.inFlight), String(w.done), String(w.failed), w.lastJobAt || '-']),
      ),
    );
  }
  if (s.failures.length) {
    lines.push('recent failures:');
    for (const f of s.failures) lines.push(`  ${f.at} ${f.kind} ${f.id}: ${f.reason}`);
  }
  return lines.join('\n');
}
