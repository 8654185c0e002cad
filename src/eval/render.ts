// The evaluation report as a person reads it: per-task rows (for small runs),
// then pass rates by environment and by strategy, then one summary line.
import { percent, rate as rateOf } from '../util/stats.js';
import { table } from '../util/table.js';
import type { Aggregate, EvalReport } from './report.js';

/** Above this many tasks the per-task rows stay in the JSON report only. */
export const MAX_TASK_ROWS = 40;

function rate(x: number | null): string {
  return x === null ? '-' : percent(x);
}

/** pass@k beside pass@1 only where k is more than 1 (else the two are one column). */
function groupRows(groups: Record<string, Aggregate>, withK: boolean): (string | number)[][] {
  return Object.entries(groups).map(([name, a]) => [
    name,
    a.tasks,
    a.solvedTasks,
    a.scoredAttempts,
    a.passes,
    rate(a.passAt1),
    ...(withK ? [rate(a.passAtK)] : []),
    a.infraFailures,
  ]);
}

function counts(rec: Record<string, number>): string {
  return Object.entries(rec)
    .sort(([, a], [, b]) => b - a)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

export function renderReport(r: EvalReport): string {
  const k = `pass@${r.k}`;
  const withK = r.k > 1;
  const out: string[] = [];
  out.push(`${r.model} on ${r.overall.tasks} task(s) from ${r.tasksSource}: ${r.attemptsPerTask} attempt(s) each, seed ${r.seed}, ${r.runtime} runtime`);
  if (r.scripted) out.push('NOTE: a scripted model is a harness check, not a learned model; its pass rates say whether the wiring works.');
  out.push('');
  if (r.tasks.length <= MAX_TASK_ROWS) {
    out.push(
      table(
        ['task', 'environment', 'strategy', 'rewards', 'pass@1', ...(withK ? [k] : []), 'stop reasons', 'mean s'],
        r.tasks.map((t) => [
          t.id,
          t.env,
          t.strategy,
          t.rewards.map((x) => (x === null ? 'E' : String(x))).join(' '),
          rate(t.passAt1),
          ...(withK ? [rate(t.passAtK)] : []),
          counts(t.stopReasons.reduce<Record<string, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {})),
          (t.ms.reduce((a, b) => a + b, 0) / Math.max(1, t.ms.length) / 1000).toFixed(1),
        ]),
      ),
    );
    out.push('(rewards: 1 solved, 0 not solved, E infrastructure failure)', '');
  }
  const headers = ['tasks', 'solved', 'scored', 'passes', 'pass@1', ...(withK ? [k] : []), 'infra'];
  out.push(table(['environment', ...headers], groupRows(r.byEnv, withK)), '');
  out.push(table(['strategy', ...headers], [...groupRows(r.byStrategy, withK), ...groupRows({ total: r.overall }, withK)]), '');
  const o = r.overall;
  out.push(
    `pass@1 ${rate(o.passAt1)} (${o.passes}/${o.scoredAttempts} scored attempts passed)${withK ? `   ${k} ${rate(o.passAtK)}` : ''}   solved ${rateOf(o.solvedTasks, o.tasks)} of tasks`,
  );
  out.push(
    `infrastructure: ${o.infraRetried} attempt(s) retried, ${o.infraFailures} failed twice and are left out of the pass rates${o.scoredTasks < o.tasks ? ` (${o.tasks - o.scoredTasks} task(s) unscored)` : ''}`,
  );
  out.push(`stop reasons: ${counts(r.stopReasons) || '-'}`);
  out.push(`verdicts: ${counts(r.verdicts ?? {}) || '-'}${r.verdicts?.tampering ? ' (tampering: the change forged or dodged the tests; scored 0)' : ''}`);
  out.push(`total time ${(r.totalMs / 1000).toFixed(1)} s`);
  return out.join('\n');
}
