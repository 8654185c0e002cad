// The RL contract: the few types the training loop is written against. Read
// this first. A policy acts through the agent harness and leaves a trajectory;
// the verifier's reward turns each trajectory into a rollout; the rollouts of
// one task form a group; an advantage estimator scores each rollout against
// its group; a learner consumes the groups and produces the next policy
// version. The trainer (src/train) and evaluation (src/eval) know only these
// types; the embedded policy (src/policy/learner.ts) is one learner, a
// language model trained through a remote engine is another.
import type { Model } from '../model/types.js';
import type { StopReason } from '../agent/trajectory.js';
import type { TaskPool } from '../curriculum/pool.js';
import type { Task } from '../task/task.js';
import type { Verdict } from '../verifier/verify.js';

/** What a learner needs from one turn of a language model: tokens, never re-tokenized text. */
export interface TokenTurn {
  promptTokens: number[];
  sampledTokens: number[];
  /** Log-probability of each sampled token under the policy that sampled it. */
  logprobs: number[];
  /** 1 where a sampled token is trained on, 0 where it is not (aligned with sampledTokens). */
  lossMask: number[];
  /** The sampler weights that produced the tokens (a sampler checkpoint's path or a model name). */
  weights: string;
}

/**
 * One model turn as the learner sees it: the tools it called and the data its
 * learner needs (`D`: the embedded policy's choice features, a language
 * model's TokenTurn). Absent data: the turn trains nothing.
 */
export interface Turn<D> {
  tools: string[];
  learner?: D;
}

/** An episode of the agent harness, turn by turn, and why it ended. */
export interface Trajectory<D> {
  turns: Turn<D>[];
  stopReason: StopReason | 'infra-error';
}

/**
 * An actor: one episode's model. It is a harness Model whose turns carry the
 * learner's data (ModelTurn.learner), so what the learner uses travels in the
 * trajectory and nowhere else.
 */
export type Actor<D> = Model<D>;

/** A policy version: what acts in rollouts. Versions count the updates behind it. */
export interface Policy<D> {
  readonly version: number;
  /** A fresh actor for one episode; `greedy` asks for its most probable actions (evaluation). */
  actor(episode: { seed: number; greedy?: boolean }): Actor<D> | Promise<Actor<D>>;
}

/**
 * A policy version as it travels to a worker on another machine (src/queue):
 * the learner that made it, its version, and what an actor needs (the
 * embedded policy's weights; a language model's sampler checkpoint name).
 */
export interface PolicySnapshot {
  learner: string;
  version: number;
  data: unknown;
}

/** A task attempted once by one policy version, graded by the verifier. */
export interface Rollout<D = unknown> {
  taskId: string;
  trajectory: Trajectory<D>;
  /** The verifier's reward in [0, 1]; null: an infrastructure failure (no sign the tests ran), never scored. */
  reward: number | null;
  /** Absent when the rollout failed before grading. */
  verdict?: Verdict;
  /** The policy version that acted. */
  policyVersion: number;
  /** Model turns taken. */
  steps: number;
  ms: number;
  verifyMs: number;
  /** The verdict was reused from an identical earlier change. */
  cached: boolean;
  reason?: string;
}

/** G rollouts of one task by one policy version. */
export type Group<D = unknown> = Rollout<D>[];

/** Scores each rollout of a group against the others; null where the reward is null. */
export interface AdvantageEstimator {
  readonly name: string;
  advantages(rewards: readonly (number | null)[]): (number | null)[];
}

/** A group as a learner receives it: its rollouts, their advantages, and whether it carries no signal (all rewards equal). */
export interface ScoredGroup<D> {
  taskId: string;
  rollouts: Rollout<D>[];
  advantages: (number | null)[];
  degenerate: boolean;
}

/** What one update reports. */
export interface UpdateResult {
  /** The version the update produced (the next rollouts act with it). */
  version: number;
  /** Norm of the first gradient step (0: nothing to learn from). */
  gradNorm: number;
  /** The learner's own figures for the step (a language model's tokens, response length, truncation share), kept in the step's metrics. */
  metrics?: Record<string, number>;
}

/**
 * A learner: turns scored groups into the next policy version. `update` may
 * run remotely and take time; the trainer awaits it and drops rollouts that
 * are more than `maxStaleness` versions behind the policy it then holds.
 * `save` returns the whole state a resumed run needs as JSON data (weights,
 * optimizer, or a remote checkpoint's name) and `restore` checks and takes it back; `exportTo` writes
 * what a user runs (the embedded policy's policy.json).
 */
export interface Learner<D> {
  /** Written into the run state; a run resumes only with a learner of the same kind. */
  readonly kind: string;
  policy(): Policy<D>;
  update(groups: ScoredGroup<D>[], estimator: AdvantageEstimator): Promise<UpdateResult>;
  readonly maxStaleness: number;
  save(): unknown;
  /** Throws, saying why, for a state this learner cannot continue from. */
  restore(state: unknown): void;
  exportTo?(runDir: string): void;
  /** The current policy version for queue workers; absent: this learner's rollouts run in the trainer's process only. */
  snapshot?(): PolicySnapshot | Promise<PolicySnapshot>;
  /** Releases what the learner holds (a remote session's heartbeats). */
  close?(): void;
  /** Optional estimates of the policy's own pass rates, which sharpen the frontier curriculum (see PolicyFigures). */
  figures?(ctx: FigureContext): PolicyFigures<D>;
}

/** What a learner's figures may use: running its policy on a task without grading (an opening). */
export interface FigureContext {
  seed: number;
  workers: number;
  /** Runs an actor on a task in a fresh workspace, ungraded (rl/rollout.ts `work`); throws on an infrastructure failure. */
  work(task: Task, actor: Model): Promise<void>;
}

/**
 * A policy's own estimates of its pass rate on tasks, read without rollouts.
 * The embedded policy computes them exactly from its recorded choices; a
 * learner without them trains on the curriculum's observed pass rates alone.
 */
export interface PolicyFigures<D> {
  /** A new task's estimated pass rate (null: none), read before it is probed. */
  screen(task: Task): Promise<number | null>;
  /** The figure the curriculum holds for a task (null: none). */
  figure(taskId: string): number | null;
  /** Before an update: the groups it will learn from. */
  observe(groups: readonly Group<D>[]): void;
  /** After an update: how each tracked task's figure moved (its posterior follows). */
  follow(pool: TaskPool, trained: ReadonlySet<string>): { moved: number; retired: number };
  /** A resumed run: tasks to track again under the restored weights. */
  resume(active: Task[]): Promise<void>;
  /** Held-out tasks' mean estimated pass rate (and each task's), or undefined when none can be read. */
  heldOut(tasks: Task[]): Promise<{ mean: number; byTask: Record<string, number> } | undefined>;
}

/** The loop's own settings; a trainer adds its curriculum's and its learner's (src/train/config.ts). */
export interface RunConfig {
  seed: number;
  /** Training steps at most. */
  steps: number;
  /** Rollouts at most, counting those that admit tasks (evaluation excluded). */
  budget: number;
  /** Tasks per step (B) and rollouts per task (G). */
  batch: number;
  group: number;
  /** Rollouts in parallel. */
  workers: number;
  /** Stop after the step that passes this many minutes of an invocation (0: no limit). */
  timeLimitMin: number;
}

/** What every step reports, whatever the learner; a trainer adds its curriculum's figures (src/train/metrics.ts). */
export interface CoreStepMetrics {
  step: number;
  /** Rollouts spent so far. */
  rollouts: number;
  /** Mean reward of the step's sampled groups (infrastructure failures left out). */
  meanReward: number;
  groups: number;
  /** Groups with mixed rewards: the ones that carry a gradient. */
  nonDegenerate: number;
  nonDegenerateShare: number;
  infraFailures: number;
  /** Rollouts the verifier judged tampering. */
  tampering: number;
  gradNorm: number;
}
