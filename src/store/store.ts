// The store: one SQLite database in the data directory for the registry of
// environments, the results of checks, tasks, runs and their attempts (see
// attempts.ts). Large artifacts live beside it.
import Database from 'better-sqlite3';
import { join } from 'node:path';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS environments (
  name TEXT PRIMARY KEY,
  spec_json TEXT NOT NULL,
  base_dir TEXT NOT NULL,
  origin TEXT NOT NULL,
  added_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS env_checks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  env TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  runtime TEXT NOT NULL,
  accepted INTEGER NOT NULL,
  summary_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tasks (
  id TEXT PRIMARY KEY,
  env TEXT NOT NULL,
  strategy TEXT NOT NULL,
  dir TEXT NOT NULL,
  bug_key TEXT NOT NULL,
  f2p INTEGER NOT NULL,
  p2p INTEGER NOT NULL,
  knobs_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tasks_env ON tasks(env);
CREATE TABLE IF NOT EXISTS train_metrics (
  run TEXT NOT NULL,
  step INTEGER NOT NULL,
  metrics_json TEXT NOT NULL,
  PRIMARY KEY (run, step)
);
CREATE TABLE IF NOT EXISTS env_check_tests (
  check_id INTEGER NOT NULL REFERENCES env_checks(id) ON DELETE CASCADE,
  test_id TEXT NOT NULL,
  statuses TEXT NOT NULL,
  duration_ms REAL,
  PRIMARY KEY (check_id, test_id)
);
CREATE TABLE IF NOT EXISTS runs (
  name TEXT PRIMARY KEY,
  config_json TEXT NOT NULL,
  started_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  pid INTEGER,
  host TEXT,
  status TEXT NOT NULL,
  stop TEXT,
  step INTEGER NOT NULL DEFAULT 0,
  rollouts INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS run_tasks (
  run TEXT NOT NULL,
  task_id TEXT NOT NULL,
  env TEXT NOT NULL,
  strategy TEXT NOT NULL,
  operators TEXT NOT NULL,
  bugs INTEGER NOT NULL,
  hint TEXT NOT NULL,
  held_out INTEGER NOT NULL,
  dir TEXT NOT NULL,
  PRIMARY KEY (run, task_id)
);
CREATE TABLE IF NOT EXISTS attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run TEXT NOT NULL,
  step INTEGER NOT NULL,
  kind TEXT NOT NULL,
  task_id TEXT NOT NULL,
  policy_version INTEGER NOT NULL,
  reward REAL,
  verdict TEXT,
  cause TEXT,
  stop_reason TEXT NOT NULL,
  turns INTEGER NOT NULL,
  tokens INTEGER,
  ms REAL NOT NULL,
  verify_ms REAL NOT NULL,
  cached INTEGER NOT NULL,
  reason TEXT,
  at TEXT NOT NULL,
  artifact TEXT,
  bytes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS attempts_run ON attempts(run, id);
CREATE INDEX IF NOT EXISTS attempts_task ON attempts(run, task_id);
`;

export interface RegisteredEnv {
  /** The environment spec as stored: plain JSON, validated by the env registry when it reads it back. */
  spec: unknown;
  baseDir: string;
  origin: string;
  addedAt: string;
}

export interface CheckRecord {
  env: string;
  runtime: string;
  accepted: boolean;
  summary: Record<string, unknown>;
  tests: { id: string; statuses: string[]; durationMs?: number }[];
}

/** The store's SQLite file in the data directory. */
export const STORE_FILE = 'frognano.db';

export class Store {
  readonly db: Database.Database;

  constructor(dataDir: string) {
    this.db = new Database(join(dataDir, STORE_FILE));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
  }

  /** Registers an environment; one of the same name is replaced, with its checks (they were of the old one). */
  addEnvironment(spec: { readonly name: string }, baseDir: string, origin: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM env_checks WHERE env = ?').run(spec.name);
      this.db
        .prepare(
          `INSERT INTO environments (name, spec_json, base_dir, origin, added_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(name) DO UPDATE SET spec_json = excluded.spec_json, base_dir = excluded.base_dir, origin = excluded.origin, added_at = excluded.added_at`,
        )
        .run(spec.name, JSON.stringify(spec), baseDir, origin, new Date().toISOString());
    })();
  }

  environments(): RegisteredEnv[] {
    const rows = this.db
      .prepare<[], { spec_json: string; base_dir: string; origin: string; added_at: string }>('SELECT * FROM environments ORDER BY name')
      .all();
    return rows.map((r) => ({ spec: JSON.parse(r.spec_json), baseDir: r.base_dir, origin: r.origin, addedAt: r.added_at }));
  }

  removeEnvironment(name: string): boolean {
    return this.db.prepare('DELETE FROM environments WHERE name = ?').run(name).changes > 0;
  }

  recordCheck(rec: CheckRecord): number {
    const insert = this.db.transaction(() => {
      const id = Number(
        this.db
          .prepare('INSERT INTO env_checks (env, checked_at, runtime, accepted, summary_json) VALUES (?, ?, ?, ?, ?)')
          .run(rec.env, new Date().toISOString(), rec.runtime, rec.accepted ? 1 : 0, JSON.stringify(rec.summary)).lastInsertRowid,
      );
      const stmt = this.db.prepare('INSERT INTO env_check_tests (check_id, test_id, statuses, duration_ms) VALUES (?, ?, ?, ?)');
      for (const t of rec.tests) stmt.run(id, t.id, t.statuses.join(','), t.durationMs ?? null);
      return id;
    });
    return insert();
  }

  /** The latest check of each environment. */
  latestChecks(): Map<string, { accepted: boolean; checkedAt: string; summary: Record<string, unknown> }> {
    const rows = this.db
      .prepare<[], { env: string; accepted: number; checked_at: string; summary_json: string }>(
        `SELECT env, accepted, checked_at, summary_json FROM env_checks c
         WHERE id = (SELECT MAX(id) FROM env_checks WHERE env = c.env)`,
      )
      .all();
    return new Map(rows.map((r) => [r.env, { accepted: r.accepted === 1, checkedAt: r.checked_at, summary: JSON.parse(r.summary_json) }]));
  }

  /** Tests the latest check of an environment saw give different results across its runs. */
  flakyTests(env: string): string[] {
    return this.db
      .prepare<[string], { test_id: string; statuses: string }>(
        `SELECT test_id, statuses FROM env_check_tests WHERE check_id = (SELECT MAX(id) FROM env_checks WHERE env = ?)`,
      )
      .all(env)
      .filter((r) => new Set(r.statuses.split(',')).size > 1)
      .map((r) => r.test_id);
  }

  addTask(t: { id: string; env: string; strategy: string; dir: string; bugKey: string; f2p: number; p2p: number; knobs: unknown }): void {
    this.db
      .prepare(`INSERT OR REPLACE INTO tasks (id, env, strategy, dir, bug_key, f2p, p2p, knobs_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(t.id, t.env, t.strategy, t.dir, t.bugKey, t.f2p, t.p2p, JSON.stringify(t.knobs), new Date().toISOString());
  }

  /** Bug keys of the stored tasks of an environment (to reject duplicates). */
  taskBugKeys(env: string): string[] {
    return this.db
      .prepare<[string], { bug_key: string }>('SELECT bug_key FROM tasks WHERE env = ?')
      .all(env)
      .map((r) => r.bug_key);
  }

  taskCount(): number {
    return this.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM tasks').get()?.n ?? 0;
  }

  /** One training step's metrics (a resumed step overwrites its earlier row). */
  addTrainMetrics(run: string, step: number, metrics: unknown): void {
    this.db.prepare('INSERT OR REPLACE INTO train_metrics (run, step, metrics_json) VALUES (?, ?, ?)').run(run, step, JSON.stringify(metrics));
  }

  trainMetrics(run: string): unknown[] {
    const rows = this.db.prepare<[string], { metrics_json: string }>('SELECT metrics_json FROM train_metrics WHERE run = ? ORDER BY step').all(run);
    return rows.map((r) => JSON.parse(r.metrics_json) as unknown);
  }

  close(): void {
    this.db.close();
  }
}
