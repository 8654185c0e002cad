// The embedded policy as a learner of the RL contract: its actors are
// EmbeddedAgents over one LinearPolicy, its update is the policy gradient of
// update.ts, its state the weights and optimizer, saved whole with the run.
import { join } from 'node:path';
import { isRecord } from '../util/guards.js';
import type { AdvantageEstimator, FigureContext, Learner, Policy, PolicyFigures, PolicySnapshot, ScoredGroup, UpdateResult } from '../rl/contract.js';
import { EmbeddedAgent } from './agent.js';
import type { EmbeddedTurn } from './decisions.js';
import { DENSE_FEATURES, FEATURE_DIM } from './features.js';
import { embeddedFigures, type TrackedTasks } from './figures.js';
import { LinearPolicy, type PolicyCheckpoint } from './linear.js';
import { updatePolicy, type CreditMethod } from './update.js';

export type LearnedWeights = 'dense' | 'all';
export const LEARNED_WEIGHTS: LearnedWeights[] = ['dense', 'all'];

/** How many weights (from slot 0) training moves: the dense ones, or all. */
export function learnableSlots(learn: LearnedWeights): number {
  return learn === 'dense' ? DENSE_FEATURES.length : FEATURE_DIM;
}

export interface EmbeddedLearnerOptions {
  lr: number;
  /** Optimizer steps per update on the same rollouts (PPO-style clipping after the first). */
  epochs: number;
  credit: CreditMethod;
  learn: LearnedWeights;
  /** Which tasks' pass-rate figures follow an update (figures.ts). */
  track: TrackedTasks;
}

/** The embedded learner's saved state. */
export interface EmbeddedLearnerState {
  version: number;
  policy: PolicyCheckpoint;
}

export const EMBEDDED_KIND = 'embedded-policy';

export class EmbeddedLearner implements Learner<EmbeddedTurn> {
  readonly kind = EMBEDDED_KIND;
  /** Updates run in-process between steps: every rollout acts for the current version. */
  readonly maxStaleness = 0;
  private version = 0;

  constructor(
    private readonly opts: EmbeddedLearnerOptions,
    private weights: LinearPolicy = new LinearPolicy(),
  ) {}

  /** The weights now (updates change them in place). */
  get linear(): LinearPolicy {
    return this.weights;
  }

  policy(): Policy<EmbeddedTurn> {
    const weights = this.weights;
    return { version: this.version, actor: ({ seed, greedy }) => new EmbeddedAgent(weights, { seed, ...(greedy ? { greedy } : {}) }) };
  }

  async update(groups: ScoredGroup<EmbeddedTurn>[], estimator: AdvantageEstimator): Promise<UpdateResult> {
    const gradNorm = updatePolicy(this.weights, groups, estimator, this.opts.lr, this.opts.credit, this.opts.epochs, learnableSlots(this.opts.learn));
    this.version++;
    return { version: this.version, gradNorm };
  }

  save(): EmbeddedLearnerState {
    return { version: this.version, policy: this.weights.toJSON() };
  }

  restore(state: unknown): void {
    if (!isRecord(state) || typeof state.version !== 'number') throw new Error('not the state of an embedded-policy learner');
    this.weights = LinearPolicy.fromJSON(state.policy); // throws, naming the mismatch, for another feature version
    this.version = state.version;
  }

  /** The checkpoint users load (`eval --policy`). */
  snapshot(): PolicySnapshot {
    return { learner: EMBEDDED_KIND, version: this.version, data: this.weights.toJSON() };
  }

  exportTo(runDir: string): void {
    this.weights.save(join(runDir, 'policy.json'));
  }

  figures(ctx: FigureContext): PolicyFigures<EmbeddedTurn> {
    return embeddedFigures(this.weights, this.opts.track, ctx);
  }
}
