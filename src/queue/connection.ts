// Where a queue lives: a Redis server named by a URL, and the queue's name on
// it. BullMQ keeps its keys under a prefix; ours (artifacts, worker
// heartbeats) sit beside them under the same queue name.
import { Redis } from 'ioredis';
import { errorMessage, UserError } from '../util/errors.js';

export interface QueueAddress {
  /** As given, without a password (printed in progress and status lines). */
  display: string;
  connection: { host: string; port: number; db: number; password?: string; username?: string };
  /** The queue's name (`?queue=NAME`, default `frognano`): several runs or projects can share one server. */
  name: string;
}

export const DEFAULT_QUEUE_NAME = 'frognano';
const PREFIX = 'frognano';

/** `redis://[[user]:password@]HOST[:PORT][/DB][?queue=NAME]` parsed; a clear error for anything else. */
export function parseQueueUrl(text: string): QueueAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(`--queue ${JSON.stringify(text)} is not a URL`, 'pass redis://HOST:PORT (for example redis://127.0.0.1:6379)');
  }
  if (url.protocol !== 'redis:') throw new UserError(`--queue must be a redis:// URL, not ${url.protocol}//`, 'pass redis://HOST:PORT');
  if (!url.hostname) throw new UserError(`--queue ${text} names no host`, 'pass redis://HOST:PORT');
  const port = url.port ? Number(url.port) : 6379;
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText ? Number(dbText) : 0;
  if (!Number.isInteger(db) || db < 0) throw new UserError(`--queue ${text}: the database must be a number, not ${JSON.stringify(dbText)}`);
  const name = url.searchParams.get('queue') ?? DEFAULT_QUEUE_NAME;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) throw new UserError(`--queue ${text}: a queue name is letters, digits, '.', '_' or '-'`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const connection = {
    host,
    port,
    db,
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
  };
  const display = `redis://${url.hostname}:${port}${db ? `/${db}` : ''}${name !== DEFAULT_QUEUE_NAME ? `?queue=${name}` : ''}`;
  return { display, connection, name };
}

/** BullMQ's key prefix for every queue of this project. */
export const BULL_PREFIX = PREFIX;

/** A key of ours for this queue (artifacts, workers). */
export function queueKey(addr: QueueAddress, ...parts: string[]): string {
  return [PREFIX, addr.name, 'x', ...parts].join(':');
}

/**
 * A Redis connection, checked with a PING so that a wrong address fails at
 * once with a message rather than retrying forever. BullMQ needs
 * maxRetriesPerRequest null on connections that block.
 */
export async function connect(addr: QueueAddress, opts: { blocking?: boolean } = {}): Promise<Redis> {
  const redis = new Redis({ ...addr.connection, lazyConnect: true, maxRetriesPerRequest: opts.blocking ? null : 3, connectTimeout: 5_000 });
  // Errors arrive as events (ioredis reconnects after a drop); the last one says why a first connection failed.
  let last: unknown;
  redis.on('error', (err) => void (last = err));
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new UserError(
      `cannot reach the queue's Redis at ${addr.display}: ${errorMessage(last ?? err)}`,
      'start one (redis-server --port 6379) or check --queue',
    );
  }
  return redis;
}
