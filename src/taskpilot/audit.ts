// The pool audit: a random sample of accepted tasks re-validated with more runs than synthesis used, and checked for
// leaks (the instruction or the agent's workspace giving the fix away), so the share of invalid or leaking tasks in
// the pool is reported with a confidence bound rather than assumed to be zero.
import type { BuiltEnv } from '../env/build.js';
import type { Runtime } from '../runtime/types.js';
import type { Task } from '../task/task.js';
import { pool as inParallel } from '../util/pool.js';
import { rng, shuffle } from '../util/rng.js';
import { wilson } from '../util/stats.js';
import { instructionLeaks } from './instructions.js';
import { revalidate } from './revalidate.js';

export interface AuditOptions {
  sample: number;
  /** Clean and broken runs of each sampled task (synthesis uses 2 and 2 in training, 3 and 2 in synth). */
  runs: number;
  seed: number;
  workers: number;
}

export const AUDIT_DEFAULTS: AuditOptions = { sample: 30, runs: 5, seed: 1, workers: 2 };

export type AuditOutcome = 'valid' | 'invalid' | 'leaking';

export interface AuditEntry {
  taskId: string;
  outcome: AuditOutcome;
  detail: string;
}

export interface AuditReport {
  pool: number;
  entries: AuditEntry[];
  invalid: number;
  leaking: number;
  /** 95% Wilson intervals on the share of invalid, leaking, and either, in the pool the sample was drawn from. */
  invalidShare: [number, number];
  leakingShare: [number, number];
  badShare: [number, number];
}

/** One task's audit: leaks first (a leaking task is unusable however its tests behave), then its labels with more runs. */
async function auditOne(task: Task, built: BuiltEnv, runtime: Runtime, dataDir: string, runs: number): Promise<AuditEntry> {
  const leaks = instructionLeaks(task.instruction, task.fixPatch);
  if (leaks.length) return { taskId: task.id, outcome: 'leaking', detail: `the instruction holds fix lines: ${leaks.slice(0, 2).join(' | ')}` };
  const r = await revalidate(task, built, runtime, dataDir, { referenceRuns: runs, candidateRuns: runs });
  if (!r.verdict.valid)
    return { taskId: task.id, outcome: r.verdict.reason === 'leak' ? 'leaking' : 'invalid', detail: `${r.verdict.reason}: ${r.verdict.detail}` };
  if (!r.ok) {
    const lost = [...r.lostF2P.map((t) => `F2P ${t}`), ...r.lostP2P.map((t) => `P2P ${t}`)];
    return {
      taskId: task.id,
      outcome: 'invalid',
      detail: `labels that did not reproduce in ${runs} runs: ${lost.slice(0, 3).join(', ')}${lost.length > 3 ? ` and ${lost.length - 3} more` : ''}`,
    };
  }
  return { taskId: task.id, outcome: 'valid', detail: `F2P ${task.FAIL_TO_PASS.length} and P2P ${task.PASS_TO_PASS.length} reproduce in ${runs} runs` };
}

export async function auditTasks(
  tasks: readonly Task[],
  builtFor: (t: Task) => Promise<BuiltEnv>,
  runtime: Runtime,
  dataDir: string,
  opts: AuditOptions = AUDIT_DEFAULTS,
  onDone: (e: AuditEntry, done: number, total: number) => void = () => {},
): Promise<AuditReport> {
  const sample = shuffle(
    [...tasks].sort((a, b) => a.id.localeCompare(b.id)),
    rng(opts.seed),
  ).slice(0, opts.sample);
  const entries: AuditEntry[] = new Array(sample.length);
  let done = 0;
  await inParallel(
    sample.map((t, k) => ({ t, k })),
    opts.workers,
    async ({ t, k }) => {
      entries[k] = await auditOne(t, await builtFor(t), runtime, dataDir, opts.runs);
      onDone(entries[k], ++done, sample.length);
    },
  );
  const invalid = entries.filter((e) => e.outcome === 'invalid').length;
  const leaking = entries.filter((e) => e.outcome === 'leaking').length;
  return {
    pool: tasks.length,
    entries,
    invalid,
    leaking,
    invalidShare: wilson(invalid, entries.length),
    leakingShare: wilson(leaking, entries.length),
    badShare: wilson(invalid + leaking, entries.length),
  };
}
