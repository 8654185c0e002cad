// The evaluation report: per task its rewards, stop reasons and times; pass@1
// and pass@k overall, by environment and by strategy. Attempts that failed for
// infrastructure reasons (reward null) are counted apart and left out of
// every pass rate: a task with none scored is "unscored", never a failure.
import type { TaskResult } from './run.js';
import { mean, passAtK } from './passk.js';

export const EVAL_SCHEMA = 'frognano.eval/v1';

export interface Aggregate {
  tasks: number;
  /** Tasks with at least one scored attempt (the pass rates are over these). */
  scoredTasks: number;
  attempts: number;
  scoredAttempts: number;
  passes: number;
  /** Tasks solved at least once. */
  solvedTasks: number;
  /** Attempts that failed for infrastructure reasons twice (first try and retry). */
  infraFailures: number;
  /** Attempts whose first try failed for infrastructure reasons (retried once). */
  infraRetried: number;
  /** Mean over scored tasks of c/n; null when no task was scored. */
  passAt1: number | null;
  /** Mean over scored tasks of 1 - C(n-c,k)/C(n,k) (k capped at a task's n). */
  passAtK: number | null;
}

export interface TaskEntry {
  id: string;
  env: string;
  strategy: string;
  rewards: (number | null)[];
  stopReasons: string[];
  ms: number[];
  steps: number[];
  seeds: number[];
  n: number;
  c: number;
  passAt1: number | null;
  passAtK: number | null;
  infra: number;
  /** The verifier's verdict per attempt (null where it never reached one). */
  verdicts: (string | null)[];
  reasons?: (string | null)[];
  trajectories?: string[];
}

export interface EvalReport extends ReportMeta {
  schema: typeof EVAL_SCHEMA;
  overall: Aggregate;
  byEnv: Record<string, Aggregate>;
  byStrategy: Record<string, Aggregate>;
  stopReasons: Record<string, number>;
  /** Attempts by verdict: pass, fail, tampering (the change forged or dodged the tests), infra. */
  verdicts: Record<string, number>;
  tasks: TaskEntry[];
}

function num(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

export function taskEntry(r: TaskResult, k: number): TaskEntry {
  const scored = r.attempts.filter((a) => a.reward !== null);
  const n = scored.length;
  const c = scored.filter((a) => a.reward === 1).length;
  const reasons = r.attempts.map((a) => a.reason ?? null);
  const trajectories = r.attempts.flatMap((a) => (a.trajectory ? [a.trajectory] : []));
  return {
    id: r.id,
    env: r.env,
    strategy: r.strategy,
    rewards: r.attempts.map((a) => a.reward),
    stopReasons: r.attempts.map((a) => a.stopReason),
    ms: r.attempts.map((a) => a.ms),
    steps: r.attempts.map((a) => a.steps),
    seeds: r.attempts.map((a) => a.seed),
    n,
    c,
    passAt1: n ? c / n : null,
    passAtK: n ? passAtK(n, c, k) : null,
    infra: r.attempts.length - n,
    verdicts: r.attempts.map((a) => a.verdict ?? null),
    ...(reasons.some((x) => x !== null) ? { reasons } : {}),
    ...(trajectories.length ? { trajectories } : {}),
  };
}

export function aggregate(entries: TaskEntry[], retried: number): Aggregate {
  const scored = entries.filter((e) => e.n > 0);
  return {
    tasks: entries.length,
    scoredTasks: scored.length,
    attempts: entries.reduce((s, e) => s + e.rewards.length, 0),
    scoredAttempts: entries.reduce((s, e) => s + e.n, 0),
    passes: entries.reduce((s, e) => s + e.c, 0),
    solvedTasks: entries.filter((e) => e.c > 0).length,
    infraFailures: entries.reduce((s, e) => s + e.infra, 0),
    infraRetried: retried,
    passAt1: num(mean(scored.map((e) => e.passAt1!))),
    passAtK: num(mean(scored.map((e) => e.passAtK!))),
  };
}

function groupBy(results: TaskResult[], entries: TaskEntry[], key: (e: TaskEntry) => string): Record<string, Aggregate> {
  const names = [...new Set(entries.map(key))].sort();
  return Object.fromEntries(
    names.map((name) => {
      const idx = entries.map((e, i) => (key(e) === name ? i : -1)).filter((i) => i >= 0);
      const retried = idx.reduce((s, i) => s + results[i]!.attempts.filter((a) => a.retried).length, 0);
      return [
        name,
        aggregate(
          idx.map((i) => entries[i]!),
          retried,
        ),
      ];
    }),
  );
}

export interface ReportMeta {
  model: string;
  /** True for scripted models: a harness check, not a model's score. */
  scripted: boolean;
  tasksSource: string;
  k: number;
  attemptsPerTask: number;
  seed: number;
  workers: number;
  runtime: string;
  startedAt: string;
  totalMs: number;
}

export function buildReport(results: TaskResult[], meta: ReportMeta): EvalReport {
  const entries = results.map((r) => taskEntry(r, meta.k));
  const retried = results.reduce((s, r) => s + r.attempts.filter((a) => a.retried).length, 0);
  const stopReasons: Record<string, number> = {};
  for (const e of entries) for (const s of e.stopReasons) stopReasons[s] = (stopReasons[s] ?? 0) + 1;
  const verdicts: Record<string, number> = {};
  for (const e of entries) for (const v of e.verdicts) if (v) verdicts[v] = (verdicts[v] ?? 0) + 1;
  return {
    schema: EVAL_SCHEMA,
    ...meta,
    overall: aggregate(entries, retried),
    byEnv: groupBy(results, entries, (e) => e.env),
    byStrategy: groupBy(results, entries, (e) => e.strategy),
    stopReasons,
    verdicts,
    tasks: entries,
  };
}
