// What the dashboard shows of tasks and attempts: a run's tasks with their
// observed pass rates (filtered by environment, generator, operator, pass
// rate), one task with its instruction, bug, tests and attempts, and one
// attempt with its trajectory, diff and verifier report.
import { attemptOf, readArtifact, type RunTaskRow, type StoredAttempt } from '../store/attempts.js';
import type { Store } from '../store/store.js';
import { readTask } from '../task/io.js';
import { errorMessage } from '../util/errors.js';

export interface TaskFilter {
  env?: string;
  strategy?: string;
  operator?: string;
  /** Observed pass rate bounds, inclusive. */
  min?: number;
  max?: number;
  heldOut?: boolean;
}

/** A run's task as the browser lists it: what was recorded of it, and its attempts' outcomes. */
export interface TaskRowView extends Omit<RunTaskRow, 'dir'> {
  attempts: number;
  scored: number;
  passed: number;
  /** Passing over scored attempts; null when none was scored. */
  passRate: number | null;
}

export interface TaskDetail extends TaskRowView {
  instruction: string;
  bugPatch: string;
  tests: { FAIL_TO_PASS: string[]; PASS_TO_PASS: string[]; hiddenFiles: string[] };
  /** Why the task directory could not be read (moved or deleted); the attempts are still shown. */
  missing?: string;
  attemptList: StoredAttempt[];
}

export interface AttemptView extends Omit<StoredAttempt, 'artifact'> {
  /** The trajectory, change and report; null when pruned by the disk budget (`pruned`) or unreadable. */
  artifact: unknown;
  detail: unknown;
  pruned: boolean;
}

interface DbTaskRow {
  task_id: string;
  env: string;
  strategy: string;
  operators: string;
  bugs: number;
  hint: string;
  held_out: number;
  dir: string;
  attempts: number;
  scored: number;
  passed: number;
}

const TASK_ROWS = `SELECT t.task_id, t.env, t.strategy, t.operators, t.bugs, t.hint, t.held_out, t.dir,
  COUNT(a.id) AS attempts, COUNT(a.reward) AS scored, COALESCE(SUM(a.reward >= 1), 0) AS passed
  FROM run_tasks t LEFT JOIN attempts a ON a.run = t.run AND a.task_id = t.task_id
  WHERE t.run = ?`;

function rowView(r: DbTaskRow): TaskRowView {
  return {
    taskId: r.task_id,
    env: r.env,
    strategy: r.strategy,
    operators: r.operators ? r.operators.split(',') : [],
    bugs: r.bugs,
    hint: r.hint,
    heldOut: r.held_out === 1,
    attempts: r.attempts,
    scored: r.scored,
    passed: r.passed,
    passRate: r.scored ? r.passed / r.scored : null,
  };
}

export class TaskQueries {
  constructor(
    readonly store: Store,
    readonly dataDir: string,
  ) {}

  /** A run's tasks matching the filter, the most attempted first, and the values each filter can take. */
  list(run: string, f: TaskFilter): { tasks: TaskRowView[]; facets: { envs: string[]; strategies: string[]; operators: string[] } } {
    const all = this.store.db.prepare<[string], DbTaskRow>(`${TASK_ROWS} GROUP BY t.task_id ORDER BY attempts DESC, t.task_id`).all(run).map(rowView);
    const tasks = all.filter(
      (t) =>
        (f.env === undefined || t.env === f.env) &&
        (f.strategy === undefined || t.strategy === f.strategy) &&
        (f.operator === undefined || t.operators.includes(f.operator)) &&
        (f.heldOut === undefined || t.heldOut === f.heldOut) &&
        (f.min === undefined || (t.passRate !== null && t.passRate >= f.min)) &&
        (f.max === undefined || (t.passRate !== null && t.passRate <= f.max)),
    );
    const sorted = (xs: string[]) => [...new Set(xs)].sort();
    return {
      tasks,
      facets: { envs: sorted(all.map((t) => t.env)), strategies: sorted(all.map((t) => t.strategy)), operators: sorted(all.flatMap((t) => t.operators)) },
    };
  }

  /** One task of a run with everything about it; undefined when the run never attempted it. */
  task(run: string, id: string): TaskDetail | undefined {
    const row = this.store.db.prepare<[string, string], DbTaskRow>(`${TASK_ROWS} AND t.task_id = ? GROUP BY t.task_id`).get(run, id);
    if (!row || row.task_id === null) return undefined;
    const attemptList = this.store.db
      .prepare<[string, string], Parameters<typeof attemptOf>[0]>('SELECT * FROM attempts WHERE run = ? AND task_id = ? ORDER BY id')
      .all(run, id)
      .map(attemptOf);
    const base = { ...rowView(row), attemptList };
    try {
      const t = readTask(row.dir);
      return {
        ...base,
        instruction: t.instruction,
        bugPatch: t.bugPatch,
        tests: { FAIL_TO_PASS: t.FAIL_TO_PASS, PASS_TO_PASS: t.PASS_TO_PASS, hiddenFiles: t.hiddenFiles },
      };
    } catch (err) {
      return { ...base, instruction: '', bugPatch: '', tests: { FAIL_TO_PASS: [], PASS_TO_PASS: [], hiddenFiles: [] }, missing: errorMessage(err) };
    }
  }

  /** One attempt with its artifact; undefined for an unknown id. */
  attempt(id: number): AttemptView | undefined {
    const row = this.store.db.prepare<[number], Parameters<typeof attemptOf>[0]>('SELECT * FROM attempts WHERE id = ?').get(id);
    if (!row) return undefined;
    const a = attemptOf(row);
    let artifact: unknown = null;
    let detail: unknown = null;
    if (a.artifact !== null) {
      try {
        artifact = readArtifact(this.dataDir, a.artifact);
      } catch (err) {
        detail = `the attempt's file cannot be read: ${errorMessage(err)}`;
      }
    }
    return { ...a, artifact, detail, pruned: a.artifact === null };
  }
}
