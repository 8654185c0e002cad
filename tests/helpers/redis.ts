// A real Redis server for queue tests: the one .ci/run starts
// ($FROGNANO_TEST_REDIS, each test on a queue name of its own), or else a
// redis-server this helper starts on a free loopback port. Never a mock.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { parseQueueUrl } from '../../src/queue/connection.js';

export interface TestRedis {
  /** A redis:// URL with a queue name no other test uses. */
  url: string;
  stop(): Promise<void>;
}

/** Why queue tests cannot run here, or undefined when they can. */
export function redisMissing(): string | undefined {
  if (process.env.FROGNANO_TEST_REDIS) return undefined;
  return spawnSync('redis-server', ['--version']).status === 0 ? undefined : 'redis-server is not installed (.ci/run installs it from the system packages)';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function ready(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const r = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {});
    try {
      await r.connect();
      await r.ping();
      r.disconnect();
      return;
    } catch {
      r.disconnect();
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  throw new Error('redis-server did not answer within 10 s');
}

/** Deletes every key of the test's queue (BullMQ's and ours) on a shared server. */
async function dropQueue(url: string): Promise<void> {
  const addr = parseQueueUrl(url);
  const r = new Redis({ ...addr.connection, maxRetriesPerRequest: 1 });
  r.on('error', () => {});
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `frognano:${addr.name}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}

export async function startRedis(): Promise<TestRedis> {
  const queue = `test-${randomUUID().slice(0, 8)}`;
  const shared = process.env.FROGNANO_TEST_REDIS;
  if (shared) {
    const url = `${shared.replace(/\?.*$/, '')}?queue=${queue}`;
    return { url, stop: () => dropQueue(url) };
  }
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await ready(port, child);
  return {
    url: `redis://127.0.0.1:${port}?queue=${queue}`,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((done) => child.once('exit', done));
    },
  };
}
