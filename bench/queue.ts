// Issue 24's benchmark: rollouts per wall-clock minute of `frognano train`
// (default settings, --time-limit 0, a fixed budget) run in one process and
// through a Redis queue with 1, 2 and 4 worker processes (one job slot each,
// the trainer's --workers equal to the slots), back to back on this machine;
// then the queue's own cost per job: grading jobs that do no work (a refused
// change), sent one at a time to one worker. Needs `npm run build` and
// redis-server. Every rate with its counts.
//
//   npx tsx bench/queue.ts [--budget 100] [--workers 1,2,4] [--pings 200]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { JobQueue } from '../src/queue/client.js';
import { parseQueueUrl } from '../src/queue/connection.js';
import { readTasks } from '../src/task/io.js';
import { isRecord } from '../src/util/guards.js';
import { median } from '../src/util/stats.js';
import { table } from '../src/util/table.js';

const { values } = parseArgs({
  options: {
    budget: { type: 'string', default: '100' },
    workers: { type: 'string', default: '1,2,4' },
    pings: { type: 'string', default: '200' },
    port: { type: 'string', default: '6399' },
  },
});
const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'frognano.js');
const url = `redis://127.0.0.1:${values.port}`;
const scratch = mkdtempSync(join(tmpdir(), 'fn-bench-queue-'));

const redis = spawn('redis-server', ['--port', values.port!, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 500));

function startWorkers(n: number, tag: string): ChildProcess[] {
  return Array.from({ length: n }, (_, i) =>
    spawn(
      process.execPath,
      [CLI, 'worker', '--queue', `${url}?queue=${tag}`, '--concurrency', '1', '--name', `${tag}-${i}`, '--data-dir', join(scratch, `${tag}-w${i}`)],
      {
        stdio: 'ignore',
      },
    ),
  );
}

async function stop(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((done) => {
          w.once('exit', () => done());
          w.kill('SIGTERM');
        }),
    ),
  );
}

interface Row {
  how: string;
  min: number;
  rollouts: number;
  jobs?: number;
  overheadMs?: number;
  workMs?: number;
}

function train(how: string, dataDir: string, extra: string[]): Row {
  console.error(`${how}: train --budget ${values.budget} --time-limit 0 ${extra.join(' ')} ...`);
  const t0 = performance.now();
  const res = spawnSync(process.execPath, [CLI, 'train', '--data-dir', dataDir, '--time-limit', '0', '--budget', values.budget!, ...extra], {
    encoding: 'utf8',
  });
  const min = (performance.now() - t0) / 60_000;
  if (res.status !== 0) throw new Error(`${how}: train failed:\n${res.stderr.slice(-2000)}`);
  const last: unknown = JSON.parse(
    readFileSync(join(dataDir, 'runs', 'default', 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .at(-1)!,
  );
  if (!isRecord(last) || typeof last.rollouts !== 'number') throw new Error(`${how}: no metrics`);
  const q = isRecord(last.queue) ? last.queue : undefined;
  const num = (k: string) => (q && typeof q[k] === 'number' ? q[k] : undefined);
  return { how, min, rollouts: last.rollouts, jobs: num('jobs'), overheadMs: num('overheadMs'), workMs: num('workMs') };
}

const rows: Row[] = [];
try {
  const local = join(scratch, 'local');
  rows.push(train('in-process, --workers 2', local, ['--workers', '2']));
  for (const n of values.workers!.split(',').map(Number)) {
    const tag = `bench${n}`;
    const workers = startWorkers(n, tag);
    await new Promise((r) => setTimeout(r, 3_000));
    rows.push(train(`queue, ${n} worker${n > 1 ? 's' : ''}`, join(scratch, tag), ['--queue', `${url}?queue=${tag}`, '--workers', String(n)]));
    await stop(workers);
  }

  // The queue's own cost: a job whose work is nothing (a refused change is graded 0 without a sandbox).
  const workers = startWorkers(1, 'ping');
  await new Promise((r) => setTimeout(r, 3_000));
  const client = await JobQueue.open(parseQueueUrl(`${url}?queue=ping`), 'ping');
  const task = readTasks(join(local, 'runs', 'default', 'tasks'))[0]!;
  const wall: number[] = [];
  for (let i = 0; i < Number(values.pings); i++) {
    const t0 = performance.now();
    await client.grade(task, { refused: { code: 'too-large', message: `ping ${i}` } });
    wall.push(performance.now() - t0);
  }
  const f = client.figures();
  await client.close();
  await stop(workers);
  console.log(
    table(
      ['how', 'min', 'rollouts/min', 'queue jobs', 'queue cost/job (median)', 'work/job (median)'],
      rows.map((r) => [
        r.how,
        r.min.toFixed(2),
        `${(r.rollouts / r.min).toFixed(1)} (${r.rollouts}/${r.min.toFixed(2)} min)`,
        r.jobs === undefined ? '-' : String(r.jobs),
        r.overheadMs === undefined ? '-' : `${r.overheadMs} ms`,
        r.workMs === undefined ? '-' : `${r.workMs} ms`,
      ]),
    ),
  );
  console.log(
    `queue round trip of a job with no work, one worker, one at a time: median ${median(wall)!.toFixed(1)} ms over ${wall.length} jobs (work on the worker: median ${f.workMs} ms; the rest: median ${f.overheadMs} ms)`,
  );
} finally {
  redis.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
}
