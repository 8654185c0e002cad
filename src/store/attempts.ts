// Every attempt a run makes, kept: a row per rollout in the store (outcome,
// verdict, timing) and its trajectory, diff and verifier report as one
// gzipped JSON file beside the database. The files are held within a disk
// budget: past it, the oldest attempts' files go (their rows stay).
import { gunzipSync, gzipSync } from 'node:zlib';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { readBounded } from '../util/bounded-read.js';
import type { Store } from './store.js';

/** Why a rollout ran: a training group, an admission probe, rollouts added to a group (replay, --extend), or a held-out evaluation. */
export type AttemptKind = 'train' | 'probe' | 'more' | 'eval';

export interface RunTaskRow {
  taskId: string;
  env: string;
  strategy: string;
  operators: string[];
  bugs: number;
  hint: string;
  heldOut: boolean;
  dir: string;
}

export interface AttemptRow {
  run: string;
  step: number;
  kind: AttemptKind;
  taskId: string;
  policyVersion: number;
  reward: number | null;
  verdict: string | null;
  cause: string | null;
  stopReason: string;
  turns: number;
  tokens: number | null;
  ms: number;
  verifyMs: number;
  cached: boolean;
  reason: string | null;
}

export interface StoredAttempt extends AttemptRow {
  id: number;
  at: string;
  /** The artifact file (relative to the data directory); null once pruned or never written. */
  artifact: string | null;
  bytes: number;
}

export interface RunRow {
  name: string;
  config: unknown;
  startedAt: string;
  updatedAt: string;
  pid: number | null;
  host: string | null;
  status: string;
  stop: string | null;
  step: number;
  rollouts: number;
}

/** The stored row: RunRow's fields, with the config as JSON and snake_case times. */
type DbRun = Omit<RunRow, 'config' | 'startedAt' | 'updatedAt'> & { config_json: string; started_at: string; updated_at: string };

/** Every run's row, as runStarted and runProgress wrote it. */
export function runRows(store: Store): RunRow[] {
  return store.db
    .prepare<[], DbRun>('SELECT * FROM runs')
    .all()
    .map((r) => ({
      name: r.name,
      config: JSON.parse(r.config_json) as unknown,
      startedAt: r.started_at,
      updatedAt: r.updated_at,
      pid: r.pid,
      host: r.host,
      status: r.status,
      stop: r.stop,
      step: r.step,
      rollouts: r.rollouts,
    }));
}

/** Default disk budget for attempt files: about 40 000 embedded-policy rollouts at 26 KB each (docs/decisions/2026-12-04-dashboard.md). */
export const DEFAULT_ATTEMPT_BUDGET_MB = 1024;

interface DbAttempt {
  id: number;
  run: string;
  step: number;
  kind: AttemptKind;
  task_id: string;
  policy_version: number;
  reward: number | null;
  verdict: string | null;
  cause: string | null;
  stop_reason: string;
  turns: number;
  tokens: number | null;
  ms: number;
  verify_ms: number;
  cached: number;
  reason: string | null;
  at: string;
  artifact: string | null;
  bytes: number;
}

export function attemptOf(r: DbAttempt): StoredAttempt {
  return {
    id: r.id,
    run: r.run,
    step: r.step,
    kind: r.kind,
    taskId: r.task_id,
    policyVersion: r.policy_version,
    reward: r.reward,
    verdict: r.verdict,
    cause: r.cause,
    stopReason: r.stop_reason,
    turns: r.turns,
    tokens: r.tokens,
    ms: r.ms,
    verifyMs: r.verify_ms,
    cached: r.cached === 1,
    reason: r.reason,
    at: r.at,
    artifact: r.artifact,
    bytes: r.bytes,
  };
}

/** Attempts and their artifact files, with the disk budget enforced as they are written. */
export class AttemptLog {
  private readonly budgetBytes: number;
  /** Bytes of artifact files on disk, read from the rows once and then kept up to date. */
  private used: number;

  constructor(
    readonly store: Store,
    readonly dataDir: string,
    budgetMB = DEFAULT_ATTEMPT_BUDGET_MB,
  ) {
    this.budgetBytes = budgetMB * 1024 * 1024;
    this.used = artifactBytes(store);
  }

  /** A task the run attempted, as the browser filters it (first record wins). */
  addTask(run: string, t: RunTaskRow): void {
    this.store.db
      .prepare(`INSERT OR IGNORE INTO run_tasks (run, task_id, env, strategy, operators, bugs, hint, held_out, dir) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(run, t.taskId, t.env, t.strategy, t.operators.join(','), t.bugs, t.hint, t.heldOut ? 1 : 0, t.dir);
  }

  /** Records one attempt; its artifact (any JSON data) is gzipped beside the database. Returns the attempt's id. */
  record(a: AttemptRow, artifact: unknown): number {
    const db = this.store.db;
    const id = Number(
      db
        .prepare(
          `INSERT INTO attempts (run, step, kind, task_id, policy_version, reward, verdict, cause, stop_reason, turns, tokens, ms, verify_ms, cached, reason, at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          a.run,
          a.step,
          a.kind,
          a.taskId,
          a.policyVersion,
          a.reward,
          a.verdict,
          a.cause,
          a.stopReason,
          a.turns,
          a.tokens,
          Math.round(a.ms),
          Math.round(a.verifyMs),
          a.cached ? 1 : 0,
          a.reason,
          new Date().toISOString(),
        ).lastInsertRowid,
    );
    const rel = artifactPath(a.run, id);
    const data = gzipSync(JSON.stringify(artifact));
    const path = join(this.dataDir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
    db.prepare('UPDATE attempts SET artifact = ?, bytes = ? WHERE id = ?').run(rel, data.length, id);
    this.used += data.length;
    if (this.used > this.budgetBytes) this.used -= pruneToBudget(this.store, this.dataDir, this.budgetBytes, this.used);
    return id;
  }

  /** Marks a run as going (this process) or stopped, with how far it got. */
  runStarted(name: string, config: unknown, at: { step: number; rollouts: number }): void {
    const now = new Date().toISOString();
    this.store.db
      .prepare(
        `INSERT INTO runs (name, config_json, started_at, updated_at, pid, host, status, step, rollouts) VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?)
         ON CONFLICT(name) DO UPDATE SET config_json = excluded.config_json, updated_at = excluded.updated_at, pid = excluded.pid,
           host = excluded.host, status = 'running', stop = NULL, step = excluded.step, rollouts = excluded.rollouts`,
      )
      .run(name, JSON.stringify(config), now, now, process.pid, hostname(), at.step, at.rollouts);
  }

  runProgress(name: string, at: { step: number; rollouts: number }, stop?: string): void {
    this.store.db
      .prepare(`UPDATE runs SET updated_at = ?, step = ?, rollouts = ?, status = ?, stop = ? WHERE name = ?`)
      .run(new Date().toISOString(), at.step, at.rollouts, stop === undefined ? 'running' : 'stopped', stop ?? null, name);
  }
}

/** Where an attempt's artifact lives, relative to the data directory. */
export function artifactPath(run: string, id: number): string {
  return join('attempts', encodeURIComponent(run), `${id}.json.gz`);
}

export function artifactBytes(store: Store, run?: string): number {
  const sql = `SELECT COALESCE(SUM(bytes), 0) AS n FROM attempts WHERE artifact IS NOT NULL${run === undefined ? '' : ' AND run = ?'}`;
  const stmt = store.db.prepare<unknown[], { n: number }>(sql);
  return (run === undefined ? stmt.get() : stmt.get(run))?.n ?? 0;
}

/** Deletes the oldest artifact files until at most `budget` bytes remain; their rows stay, marked pruned. Returns the bytes freed. */
export function pruneToBudget(store: Store, dataDir: string, budget: number, used = artifactBytes(store)): number {
  let freed = 0;
  const oldest = store.db.prepare<[], { id: number; artifact: string; bytes: number }>(
    'SELECT id, artifact, bytes FROM attempts WHERE artifact IS NOT NULL ORDER BY id LIMIT 500',
  );
  const mark = store.db.prepare('UPDATE attempts SET artifact = NULL WHERE id = ?');
  while (used - freed > budget) {
    const rows = oldest.all();
    if (rows.length === 0) break;
    for (const r of rows) {
      if (used - freed <= budget) break;
      rmSync(join(dataDir, r.artifact), { force: true });
      mark.run(r.id);
      freed += r.bytes;
    }
  }
  return freed;
}

/** Removes a run's attempts, tasks, metrics rows and files from the store; the bytes freed. */
export function forgetRun(store: Store, dataDir: string, run: string): number {
  const bytes = artifactBytes(store, run);
  store.db.transaction(() => {
    for (const table of ['attempts', 'run_tasks', 'train_metrics']) store.db.prepare(`DELETE FROM ${table} WHERE run = ?`).run(run);
    store.db.prepare('DELETE FROM runs WHERE name = ?').run(run);
  })();
  rmSync(join(dataDir, 'attempts', encodeURIComponent(run)), { recursive: true, force: true });
  return bytes;
}

/** An attempt's artifact file is read back no larger than this, packed or not: our own gzipped JSON, but a trajectory quotes what the agent printed. */
export const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;

/** The parsed artifact of an attempt (the file relative to the data directory); throws when it cannot be read. */
export function readArtifact(dataDir: string, rel: string): unknown {
  const raw = readBounded(join(dataDir, rel), MAX_ARTIFACT_BYTES);
  return JSON.parse(gunzipSync(raw, { maxOutputLength: MAX_ARTIFACT_BYTES }).toString('utf8')) as unknown;
}

/** A run's attempts in the order they were made, of one kind or all. */
export function runAttempts(store: Store, run: string, kind?: AttemptKind): StoredAttempt[] {
  const rows = kind
    ? store.db.prepare<[string, string], DbAttempt>('SELECT * FROM attempts WHERE run = ? AND kind = ? ORDER BY id').all(run, kind)
    : store.db.prepare<[string], DbAttempt>('SELECT * FROM attempts WHERE run = ? ORDER BY id').all(run);
  return rows.map(attemptOf);
}
