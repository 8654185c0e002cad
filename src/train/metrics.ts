// What each training step reports (metrics.jsonl, the store, the progress
// line): the contract's core figures and the curriculum's.
import { existsSync, readFileSync } from 'node:fs';
import { writeTextAtomic } from '../util/atomic-json.js';
import { StateError } from '../util/errors.js';
import type { QueueFigures } from '../queue/client.js';
import type { SampleReason } from '../curriculum/pool.js';
import { isSuccess } from '../curriculum/probe.js';
import { isDegenerate } from '../rl/advantages.js';
import type { CoreStepMetrics, Group } from '../rl/contract.js';
import { isRecord } from '../util/guards.js';

/** Why a group's task was in the batch: the frontier sampler's reason, the fixed set of uniform / static, or the fallback when nothing was admitted yet. */
export type GroupReason = SampleReason | 'fixed' | 'fallback';

/** One sampled task of a step: why, its passing / scored rollouts, the policy's figure for it before them, and `held` for a replay check that held. */
export interface BatchEntry {
  taskId: string;
  reason: GroupReason;
  passed: number;
  scored: number;
  figure?: number;
  held?: true;
}

export interface StepMetrics extends CoreStepMetrics {
  curriculum: string;
  /** When the step finished, and the run's training time by then (all invocations); absent in older metrics. */
  at?: string;
  elapsedMs?: number;
  batch: BatchEntry[];
  /** Replays of retired tasks whose check held: every rollout of the probe's size passed, so no group was run (regression.ts). */
  heldChecks: number;
  /** Groups of admission probes that found a task in band; they train too (not counted in `groups`). */
  probeGroups: number;
  /** Rollouts added to all-fail groups (--extend), in all. */
  extended: number;
  /** Active tasks whose posterior followed their figure after the update, and how many it retired. */
  reestimated: { moved: number; retired: number };
  poolHistogram: number[];
  poolCounts: Record<string, number>;
  /** skipped: tasks the difficulty gate kept from a probe; probeRollouts: rollouts spent on probes. */
  yield: { candidates: number; valid: number; probed: number; admitted: number; screened: number; skipped?: number; probeRollouts?: number };
  knobs: Record<string, number>;
  heldOutSolveRate?: number;
  /** The held-out rollouts that passed, of those scored (with heldOutSolveRate). */
  heldOutSolved?: number;
  heldOutAttempts?: number;
  /** The held-out tasks' mean figure (the embedded policy's reach): nearly free of sampling noise. */
  heldOutReach?: number;
  /** Training tasks solved earlier tried again at this step's evaluation (--forgetting), and those still solved. */
  forgetting?: { tried: number; solved: number };
  /** Rollouts dropped for acting with a policy version older than the learner allows (absent: none). */
  stale?: number;
  /** Why rollouts failed for the infrastructure (up to three distinct reasons; absent: none). */
  infraReasons?: string[];
  /** Share of the step's graded rollouts (probes included) the verifier judged tampering. */
  tamperingShare: number;
  /** The learner's own figures (UpdateResult.metrics), e.g. a language model's tokens per step. */
  learner?: Record<string, number>;
  ms: { synthesis: number; probe: number; rollouts: number; update: number; eval: number };
  /** Results reused by content this step (grading/reuse.ts): the agent's test runs, graded changes, synthesis's test runs. */
  cache: { testHits: number; testMisses: number; verdictHits?: number; verdictMisses?: number; suiteHits?: number; suiteMisses?: number };
  /** With --queue: this invocation's jobs so far, found finished, failed, and the median cost of the queue and of the work per job. */
  queue?: QueueFigures;
}

/** The groups' mean reward (infrastructure failures left out) and infrastructure failures. */
export function batchStats(groups: readonly Group[]): { meanReward: number; infraFailures: number } {
  const all = groups.flat().map((r) => r.reward);
  const rewards = all.filter((r): r is number => r !== null);
  return { meanReward: rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : 0, infraFailures: all.length - rewards.length };
}

/** Groups with mixed rewards. */
export const nonDegenerateCount = (groups: readonly Group[]): number => groups.filter((rs) => !isDegenerate(rs.map((r) => r.reward))).length;

export function batchEntry(taskId: string, reason: GroupReason, rs: Group, figure: number | null, heldCheck: boolean): BatchEntry {
  const scored = rs.filter((r) => r.reward !== null);
  return {
    taskId,
    reason,
    passed: scored.filter((r) => isSuccess(r.reward)).length,
    scored: scored.length,
    ...(figure !== null ? { figure } : {}),
    ...(heldCheck ? { held: true } : {}),
  };
}

/**
 * A run's JSONL log made consistent with its saved state before a resumed
 * invocation appends to it: lines of steps after `step` go (a run killed
 * after a step's line was written but before its state was saved redoes that
 * step), and a last line cut off mid-write (a kill, a full disk) is dropped.
 * Any other line that is not a JSON object is refused with its number, since
 * guessing what it held could lose a step's record. Returns what it repaired.
 */
export function repairRunLog(path: string, step: number): string[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const notes: string[] = [];
  const kept: string[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      m = undefined;
    }
    if (!isRecord(m)) {
      if (i === lines.length - 1 && !text.endsWith('\n')) {
        notes.push(`${path}: dropped line ${i + 1}, cut off mid-write`);
        return;
      }
      throw new StateError(
        `${path} line ${i + 1} is not a JSON object: ${JSON.stringify(line.slice(0, 60))}${line.length > 60 ? '...' : ''}`,
        `remove or correct that line (each line is one step's record), then rerun`,
      );
    }
    if (typeof m.step === 'number' && m.step > step) return;
    kept.push(line);
  });
  const dropped = lines.filter((l) => l.trim() !== '').length - kept.length - notes.length;
  if (dropped > 0) notes.push(`${path}: dropped ${dropped} line${dropped === 1 ? '' : 's'} of steps after the saved step ${step}`);
  if (notes.length) writeTextAtomic(path, kept.map((l) => `${l}\n`).join(''));
  return notes;
}
