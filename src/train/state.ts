// A training run's state on disk: one JSON file holding everything a resumed
// run needs (the learner's state, pool, controller, which tasks are used,
// held-out results), written to a temporary file and renamed after each
// finished step, so a kill at any moment loses at most the step in flight.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControllerJSON } from '../curriculum/controller.js';
import type { PoolJSON } from '../curriculum/pool.js';
import { errorMessage, UserError } from '../util/errors.js';
import { isRecord, isStringArray } from '../util/guards.js';
import type { TrainConfig } from './config.js';
import type { ForgettingPoint } from './forgetting.js';
import type { PredictorJSON } from '../curriculum/difficulty.js';
import { writeJsonAtomic } from '../util/atomic-json.js';

export const STATE_SCHEMA = 'frognano.train-state/v2';
/** v1 held the embedded policy's checkpoint itself; v2 holds any learner's state (read with a migration). */
const STATE_V1 = 'frognano.train-state/v1';

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

/** Why a run stopped: all its steps, its rollout budget, its time limit, nothing left to train on, or the user (Ctrl-C, SIGTERM). */
export type StopReason = 'steps' | 'budget' | 'time-limit' | 'no-tasks' | 'interrupted';

export interface RunState {
  schema: typeof STATE_SCHEMA;
  config: TrainConfig;
  /** Steps finished. */
  step: number;
  rolloutsUsed: number;
  elapsedMs: number;
  /** Which learner trained the run, and its saved state (Learner.save; checked by Learner.restore). */
  learner: { kind: string; state: unknown };
  pool: PoolJSON;
  controller: ControllerJSON;
  used: string[];
  evalIds: string[];
  /** The uniform and static curricula's fixed task lists. */
  fixedIds: string[] | null;
  heldOut: HeldOutPoint[];
  /** Training groups of sampled batches and the degenerate among them; replay checks that held (regression.ts; absent in older states: 0). */
  groups: { total: number; degenerate: number; heldChecks?: number };
  /** Rollouts the verifier judged tampering (the change forged or dodged the tests); absent in older states: 0. */
  tampering?: number;
  /** The step each training task was first solved (a group passing at least half the time); absent in older states. */
  solvedAt?: Record<string, number>;
  /** Forgetting checks (forgetting.ts); absent in older states or with --forgetting 0. */
  forgetting?: ForgettingPoint[];
  /** The difficulty model and the GRESO-style gate's streaks (curriculum/difficulty.ts); absent in older states. */
  predictor?: PredictorJSON;
  greso?: [string, number][];
  /** Rollouts spent on admission probes (absent in older states). */
  probeRollouts?: number;
  /** Why the last invocation stopped (absent in older states). */
  stop?: StopReason;
}

export function statePath(runDir: string): string {
  return join(runDir, 'state.json');
}

export function saveState(runDir: string, state: RunState): void {
  mkdirSync(runDir, { recursive: true });
  const path = statePath(runDir);
  writeJsonAtomic(path, state);
}

/** The saved state of the run in `runDir`, null when there is none; a UserError naming --fresh when this version cannot read it. */
export function loadState(runDir: string): RunState | null {
  const path = statePath(runDir);
  if (!existsSync(path)) return null;
  const fix = 'pass --fresh to start the run over, or pick another --run';
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UserError(`the run state ${path} cannot be read: ${errorMessage(err)}`, fix);
  }
  const data = isRecord(state) ? state : {};
  const schema = data.schema ?? null;
  if (schema === STATE_V1 && 'policy' in data) {
    // v1 held the embedded policy's checkpoint: it becomes that learner's state, one update per finished step.
    const { policy, ...rest } = data;
    const migrated = {
      ...rest,
      schema: STATE_SCHEMA,
      learner: { kind: 'embedded-policy', state: { version: typeof rest.step === 'number' ? rest.step : 0, policy } },
    };
    if (isRunState(migrated)) return migrated;
  }
  if (schema !== STATE_SCHEMA && schema !== STATE_V1) {
    throw new UserError(
      `the run state ${path} was saved in another format (${JSON.stringify(schema)}; this version reads ${STATE_SCHEMA} and ${STATE_V1})`,
      fix,
    );
  }
  if (!isRunState(state)) throw new UserError(`the run state ${path} is incomplete or damaged`, fix);
  return state;
}

/** The fields a resumed run reads before anything else checks them (the learner checks its own state, the pool and controller theirs). */
function isRunState(x: unknown): x is RunState {
  if (!isRecord(x) || x.schema !== STATE_SCHEMA || !isRecord(x.config) || !isRecord(x.learner) || typeof x.learner.kind !== 'string') return false;
  const counts = ['step', 'rolloutsUsed', 'elapsedMs'].every((k) => typeof x[k] === 'number');
  return (
    counts && isRecord(x.pool) && isRecord(x.controller) && isStringArray(x.used) && isStringArray(x.evalIds) && Array.isArray(x.heldOut) && isRecord(x.groups)
  );
}
