// Results reused by content: a deterministic result (a test run, a graded
// change) computed once and returned again whenever the same thing is asked
// of the same content. One store per process, shared by training, evaluation
// and synthesis; every key includes VERIFIER_VERSION, so results of an older
// verifier are never reused. Sound because validated tasks have no flaky test
// (validation drops them) and only completed results are kept, never a
// timeout or an infrastructure failure.
import { createHash } from 'node:crypto';

/** Bump whenever a change to grading, the test runners' parsing or the verifier could change a result. */
export const VERIFIER_VERSION = 1;

/** What is reused: the agent's own test runs, graded changes, and test runs of synthesis. */
export type ReuseKindName = 'agent-test' | 'verdict' | 'suite';

export interface ReuseCounts {
  hits: number;
  misses: number;
}

/**
 * One kind of result and its type: the layer that makes such results
 * declares it (a verdict in rl/, a suite run in grading/), and its values
 * live in the store they were put in.
 */
export class ReuseKind<T> {
  private readonly tables = new WeakMap<ResultReuse, Map<string, T>>();
  private readonly inFlight = new WeakMap<ResultReuse, Map<string, Promise<T | undefined>>>();

  constructor(readonly name: ReuseKindName) {}

  /** The key of a result: its kind, the verifier's version and everything the result depends on. */
  key(parts: readonly string[]): string {
    const h = createHash('sha256').update(`${this.name}\0v${VERIFIER_VERSION}\0`);
    for (const p of parts) h.update(p).update('\0');
    return `${this.name}:${h.digest('hex')}`;
  }

  /** The result under `key` in `store`; counted there as a hit or a miss. */
  get(store: ResultReuse, key: string): T | undefined {
    const value = this.tables.get(store)?.get(key);
    store.touch(this.name, key, value !== undefined);
    return value;
  }

  /**
   * The result under `key`, or `compute`'s, kept when `keep` gives its size
   * (null: not worth keeping, e.g. a timeout). A result being computed for the
   * same key is waited for, not computed twice: the rollouts of a group start
   * together on the same content. `usable` can refuse a found result.
   */
  async through(
    store: ResultReuse,
    key: string,
    compute: () => Promise<T>,
    opts: { keep: (v: T) => number | null; usable?: (v: T) => boolean },
  ): Promise<{ value: T; reused: boolean }> {
    const ok = (v: T | undefined): v is T => v !== undefined && (opts.usable?.(v) ?? true);
    const known = this.tables.get(store)?.get(key);
    const running = known === undefined ? this.inFlight.get(store)?.get(key) : undefined;
    const found = known ?? (running ? await running.catch(() => undefined) : undefined);
    if (ok(found)) {
      store.touch(this.name, key, true);
      return { value: found, reused: true };
    }
    store.touch(this.name, key, false);
    let flights = this.inFlight.get(store);
    if (!flights) this.inFlight.set(store, (flights = new Map()));
    const mine = compute().then((value) => {
      const bytes = opts.keep(value);
      if (bytes !== null) this.set(store, key, value, bytes);
      return { value, kept: bytes !== null };
    });
    const shared = mine.then(
      (r) => (r.kept ? r.value : undefined),
      () => undefined,
    );
    if (!flights.has(key)) {
      flights.set(key, shared);
      const f = flights;
      void shared.then(() => f.get(key) === shared && f.delete(key));
    }
    return { value: (await mine).value, reused: false };
  }

  /** Remembers a result in `store`; `bytes` estimates its size. */
  set(store: ResultReuse, key: string, value: T, bytes: number): void {
    let table = this.tables.get(store);
    if (!table) {
      table = new Map();
      this.tables.set(store, table);
    }
    const t = table;
    t.set(key, value);
    store.admit(key, bytes, () => t.delete(key));
  }
}

/** A store of reused results: least recently used entries go past `maxBytes` of their estimated size. */
export class ResultReuse {
  private readonly order = new Map<string, { bytes: number; drop: () => void }>();
  private bytes = 0;
  readonly counts: Record<ReuseKindName, ReuseCounts> = {
    'agent-test': { hits: 0, misses: 0 },
    verdict: { hits: 0, misses: 0 },
    suite: { hits: 0, misses: 0 },
  };

  constructor(readonly maxBytes = 256 * 1024 * 1024) {}

  /** Counts a lookup and marks a found entry as recently used. */
  touch(kind: ReuseKindName, key: string, hit: boolean): void {
    if (!hit) {
      this.counts[kind].misses++;
      return;
    }
    this.counts[kind].hits++;
    const e = this.order.get(key);
    if (e) {
      this.order.delete(key);
      this.order.set(key, e);
    }
  }

  /** Accounts for a new entry and drops the least recently used past the budget. */
  admit(key: string, bytes: number, drop: () => void): void {
    const old = this.order.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.order.delete(key);
    }
    this.order.set(key, { bytes, drop });
    this.bytes += bytes;
    for (const [k, e] of this.order) {
      if (this.bytes <= this.maxBytes || k === key) break;
      this.order.delete(k);
      this.bytes -= e.bytes;
      e.drop();
    }
  }

  /** Hits and misses of every kind so far (a copy). */
  snapshot(): Record<ReuseKindName, ReuseCounts> {
    return structuredClone(this.counts);
  }
}

/** The process's store: training, evaluation and synthesis in one process reuse each other's results. */
export const sharedReuse = new ResultReuse();
