// The dashboard's pages as a browser visits them: one address per view,
// picked from what the store holds (the screenshot command, the benchmark
// and the end-to-end tests all walk this list), and where Chromium is.
import { existsSync } from 'node:fs';
import type { Store } from '../store/store.js';
import { RunQueries } from './runs.js';

export interface PageVisit {
  /** A short name for files and reports. */
  name: string;
  /** The address after the server's root: a hash route. */
  hash: string;
  /** What the page should show, in words (for the screenshot index). */
  shows: string;
}

/**
 * One visit per view: the runs list, a run by rollouts and by time, two runs
 * compared, its tasks, its most attempted task and an attempt. The run is
 * `preferred`, else the most recently updated.
 */
export function dashboardPages(store: Store, dataDir: string, preferred?: string): PageVisit[] {
  const all = new RunQueries(store, dataDir).list();
  const pages: PageVisit[] = [{ name: 'runs', hash: '#/', shows: `the runs list (${all.length} runs) with status and progress` }];
  const runs = [...all.filter((r) => r.name === preferred), ...all.filter((r) => r.name !== preferred)];
  const run = runs[0];
  if (!run) return pages;
  const r = encodeURIComponent(run.name);
  pages.push({ name: 'run', hash: `#/run/${r}`, shows: `run ${run.name}: curves against rollouts, the frontier, the knobs, held-out points` });
  pages.push({ name: 'run-time', hash: `#/run/${r}?by=minutes`, shows: `run ${run.name}: the same curves against minutes` });
  if (runs[1]) {
    pages.push({
      name: 'compare',
      hash: `#/compare/${r}/${encodeURIComponent(runs[1].name)}`,
      shows: `${run.name} against ${runs[1].name} on the same axes`,
    });
  }
  pages.push({ name: 'tasks', hash: `#/tasks/${r}`, shows: `the task browser of run ${run.name}` });
  const task = store.db
    .prepare<[string], { task_id: string }>('SELECT task_id FROM attempts WHERE run = ? GROUP BY task_id ORDER BY COUNT(*) DESC, task_id LIMIT 1')
    .get(run.name);
  if (task) {
    pages.push({ name: 'task', hash: `#/task/${r}/${encodeURIComponent(task.task_id)}`, shows: `task ${task.task_id}: instruction, bug, tests, attempts` });
  }
  // A passing training attempt shows the most: turns, a diff that fixes the bug, a resolved report.
  const attempt =
    store.db
      .prepare<[string], { id: number }>('SELECT id FROM attempts WHERE run = ? AND artifact IS NOT NULL AND reward >= 1 ORDER BY turns DESC, id LIMIT 1')
      .get(run.name) ?? store.db.prepare<[string], { id: number }>('SELECT id FROM attempts WHERE run = ? ORDER BY id DESC LIMIT 1').get(run.name);
  if (attempt)
    pages.push({ name: 'attempt', hash: `#/attempt/${attempt.id}`, shows: `attempt #${attempt.id}: its trajectory turn by turn, final diff, verifier report` });
  return pages;
}

/**
 * A CSS selector that matches once the page at `hash` has drawn (app.js sets
 * body's data-ready when a route finishes). A selector, not a script: the
 * page's content-security policy forbids evaluating strings.
 */
export function readySelector(hash: string): string {
  return `body[data-ready=${JSON.stringify(hash)}]`;
}

/** Debian's chromium (or $CHROMIUM_PATH): the only browser the tests and screenshots drive; none is downloaded. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
}
