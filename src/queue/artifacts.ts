// Inputs that many jobs share (a task with its hidden tests, a policy
// version's weights) travel once through Redis, named by the hash of their
// content, and are kept by each worker in memory: nothing of them is written
// where a sandbox could read it. They expire a week after their last use.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import { canonicalJson } from '../util/canonical-json.js';
import { queueKey, type QueueAddress } from './connection.js';

const TTL_SEC = 7 * 24 * 3600;
/** The largest artifact a worker accepts (a policy's weights are a few MB). */
const MAX_BYTES = 256 * 1024 * 1024;

export type ArtifactKind = 'task' | 'policy';

export class Artifacts {
  private readonly published = new Set<string>();
  private readonly held = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    private readonly addr: QueueAddress,
    /** Artifacts kept in memory at most (the oldest is dropped first). */
    private readonly keep = 256,
  ) {}

  /** Stores a value (once per process) and returns its key: the same content, the same key, whatever its keys' order. */
  async publish(kind: ArtifactKind, value: unknown): Promise<string> {
    const text = canonicalJson(value);
    const key = `${kind}-${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
    if (!this.published.has(key)) {
      await this.redis.set(queueKey(this.addr, 'artifact', key), gzipSync(text), 'EX', TTL_SEC);
      this.published.add(key);
      this.remember(key, text);
    }
    return key;
  }

  /** A value's JSON by key: from memory, else from Redis; throws for a key that has expired or was never published. */
  async fetch(key: string): Promise<string> {
    const had = this.held.get(key);
    if (had !== undefined) return had;
    const redisKey = queueKey(this.addr, 'artifact', key);
    const [raw] = await Promise.all([this.redis.getBuffer(redisKey), this.redis.expire(redisKey, TTL_SEC)]);
    if (!raw) throw new Error(`artifact ${key} is not in the queue (expired, or published to another queue)`);
    const text = gunzipSync(raw, { maxOutputLength: MAX_BYTES }).toString('utf8');
    if (createHash('sha256').update(text).digest('hex').slice(0, 40) !== key.split('-')[1]) throw new Error(`artifact ${key} does not match its hash`);
    this.remember(key, text);
    return text;
  }

  private remember(key: string, value: string): void {
    this.held.set(key, value);
    if (this.held.size > this.keep) this.held.delete(this.held.keys().next().value!);
  }
}
