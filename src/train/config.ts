// Training run settings and the defaults `frognano train` uses, sized for a short run on 2 CPU cores.
// Why each default: docs/decisions/2026-12-03-training-defaults.md.
import type { Gate } from '../curriculum/difficulty.js';
import type { OperatorFamily } from '../curriculum/knobs.js';
import type { LearnedWeights } from '../policy/learner.js';
import type { TrackedTasks } from '../policy/replay.js';
import type { CreditMethod } from '../policy/update.js';
import type { AdvantageMethod } from '../rl/advantages.js';
import type { RunConfig } from '../rl/contract.js';
import type { LmConfig } from '../lm/config.js';

export const LEARNERS = ['embedded', 'tinker'] as const;
export type LearnerKind = (typeof LEARNERS)[number];

/**
 * Tasks a step takes when `left` rollouts of the budget remain: the batch,
 * or near the end fewer tasks at full groups (a group of 2 comes back all
 * equal half the time at p = 0.5); at least one.
 */
export function batchSize(cfg: Pick<TrainConfig, 'batch' | 'group'>, left: number): number {
  return Math.min(cfg.batch, Math.max(1, Math.floor(left / cfg.group)));
}

export type CurriculumName = 'frontier' | 'uniform' | 'static';
export const CURRICULA: CurriculumName[] = ['frontier', 'uniform', 'static'];

/**
 * Parts of the frontier curriculum a run can switch off, to measure what each carries (docs/evidence/protocol.md):
 * restocking after the first pool, pass-rate-weighted sampling, the difficulty controller, the admission probe, replay
 * of retired tasks.
 */
export const ABLATIONS = ['restock', 'weighting', 'controller', 'probe', 'replay'] as const;
export type Ablation = (typeof ABLATIONS)[number];

/** The loop's settings (RunConfig), the curriculum's and the embedded learner's. */
export interface TrainConfig extends RunConfig {
  /** What learns: the embedded policy, or a language model through the Tinker API (settings in `lm`). */
  learner: LearnerKind;
  lm?: LmConfig;
  curriculum: CurriculumName;
  /** Frontier parts switched off (none by default). */
  ablate: Ablation[];
  /** What may skip a fresh task's admission probe: nothing, the difficulty model, or GRESO-style streaks (curriculum/difficulty.ts). */
  gate: Gate;
  /** Environments trained on. */
  envs: string[];
  /** Environments never trained on: the held-out solve rate is measured on their tasks. */
  heldOut: string[];
  /** Which active tasks' posteriors follow the policy's figure after an update: 'trained' or 'all' (policy/replay.ts). */
  track: TrackedTasks;
  /** Rollouts an all-fail group may gain, a wave at a time, until one passes (extend.ts; 0: never). */
  extend: number;
  advantage: AdvantageMethod;
  /** Which repair choices of a rollout share its advantage (policy/update.ts). */
  credit: CreditMethod;
  lr: number;
  /** Optimizer steps per training step, on the same rollouts (PPO-style clipping after the first). */
  epochs: number;
  /** Which weights training moves: the dense features only, or also the hashed edit-kind slots. */
  learn: LearnedWeights;
  /** Admission probe size (early stop on mixed results). */
  probe: number;
  target: number;
  /** Active tasks the frontier curriculum keeps in its pool. */
  poolTarget: number;
  /** Held-out tasks per held-out environment, and rollouts per held-out task. */
  evalTasks: number;
  evalRollouts: number;
  evalEvery: number;
  /** Training tasks solved earlier tried again at each held-out evaluation, to track forgetting (0: none). */
  forgetting: number;
  /** Operator families training tasks may use (those that apply to each environment's language). */
  families: OperatorFamily[];
  /** Tasks synthesized up front for the uniform and static curricula, per training environment. */
  initialTasks: number;
}

// The JavaScript starters only: the other starters' suites are too slow for the default run. --envs / --held-out widen it.
export const DEFAULT_TRAIN_ENVS = ['durations', 'lru-cache', 'semver-ranges'];
export const DEFAULT_HELD_OUT = ['md-tokens'];

export const TRAIN_DEFAULTS: TrainConfig = {
  learner: 'embedded',
  curriculum: 'frontier',
  ablate: [],
  gate: 'none',
  envs: DEFAULT_TRAIN_ENVS,
  heldOut: DEFAULT_HELD_OUT,
  seed: 1,
  // The budget ends a run; steps is a ceiling, so a step that spends less (a replay check that held) leaves it to later steps.
  steps: 20,
  budget: 300,
  // Groups of 8, so a task near the target rarely gives an all-equal (uninformative) group.
  batch: 2,
  group: 8,
  // 'all' did no better than the untrained policy on held-out tasks in default runs.
  track: 'trained',
  extend: 0,
  advantage: 'rloo',
  // Credit, lr and epochs were chosen offline with bench/policy-sim.ts.
  credit: 'repair',
  lr: 0.5,
  epochs: 4,
  // Dense only: the edit-kind weights learned the curriculum's task mix rather than a skill.
  learn: 'dense',
  // Operations bugs: the edits the embedded policy's candidates undo and its naturalness features recognise.
  // --families widens it.
  families: ['operations'],
  workers: 2,
  probe: 4,
  target: 0.5,
  poolTarget: 8,
  evalTasks: 12,
  evalRollouts: 1,
  evalEvery: 6,
  forgetting: 0,
  initialTasks: 3,
  timeLimitMin: 11,
};

export { LEARNED_WEIGHTS, learnableSlots, type LearnedWeights } from '../policy/learner.js';
export { TRACKED_TASKS, type TrackedTasks } from '../policy/replay.js';
