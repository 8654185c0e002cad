// A training run's state on disk: one JSON file holding everything a resumed
// run needs (policy weights and optimizer, pool, controller, which tasks are
// used, held-out results), written to a temporary file and renamed after each
// finished step, so a kill at any moment loses at most the step in flight.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PoolJSON } from '../curriculum/pool.js';
import { UserError } from '../util/errors.js';
import type { PolicyCheckpoint } from '../policy/linear.js';
import type { TrainConfig } from './config.js';

export const STATE_SCHEMA = 'frognano.train-state/v1';

export interface HeldOutPoint {
  step: number;
  rollouts: number;
  solveRate: number;
  /** Rollouts that passed, of those scored (absent in older states). */
  solved?: number;
  attempts?: number;
  /** Mean chance the fix is among the policy's first MAX_ATTEMPTS repair choices (heldout.ts, reachOfHeldOut). */
  reach?: number;
  /** Each held-out task's reach, for paired comparisons between points (absent in older states). */
  reachByTask?: Record<string, number>;
}

/** Why a run stopped: all its steps, its rollout budget, its time limit, or nothing left to train on. */
export type StopReason = 'steps' | 'budget' | 'time-limit' | 'no-tasks';

export interface RunState {
  schema: typeof STATE_SCHEMA;
  config: TrainConfig;
  /** Steps finished. */
  step: number;
  rolloutsUsed: number;
  elapsedMs: number;
  policy: PolicyCheckpoint;
  pool: PoolJSON;
  controller: unknown;
  used: string[];
  evalIds: string[];
  /** The uniform and static curricula's fixed task lists. */
  fixedIds: string[] | null;
  heldOut: HeldOutPoint[];
  /** Training groups of sampled batches and the degenerate among them; replay checks that held (regression.ts; absent in older states: 0). */
  groups: { total: number; degenerate: number; heldChecks?: number };
  /** Rollouts the verifier judged tampering (the change forged or dodged the tests); absent in older states: 0. */
  tampering?: number;
  /** Why the last invocation stopped (absent in older states). */
  stop?: StopReason;
}

export function statePath(runDir: string): string {
  return join(runDir, 'state.json');
}

export function saveState(runDir: string, state: RunState): void {
  mkdirSync(runDir, { recursive: true });
  const path = statePath(runDir);
  writeFileSync(`${path}.tmp`, JSON.stringify(state));
  renameSync(`${path}.tmp`, path);
}

/** The saved state of the run in `runDir`, null when there is none; a UserError naming --fresh when it cannot be read by this version. */
export function loadState(runDir: string): RunState | null {
  const path = statePath(runDir);
  if (!existsSync(path)) return null;
  const fix = 'pass --fresh to start the run over, or pick another --run';
  let state: { schema?: unknown };
  try {
    state = JSON.parse(readFileSync(path, 'utf8')) as { schema?: unknown };
  } catch (err) {
    throw new UserError(`the run state ${path} cannot be read: ${(err as Error).message}`, fix);
  }
  if (state?.schema !== STATE_SCHEMA) {
    throw new UserError(`the run state ${path} was saved in another format (${JSON.stringify(state?.schema ?? null)}; this version reads ${STATE_SCHEMA})`, fix);
  }
  return state as RunState;
}
