// How an update moved a task's pass rate, read off the policy itself: one update can teach a task outright, which
// the posterior would only learn by spending a group. After each update a tracked task's posterior mean moves by its
// FIGURE's change on the logit scale (reach, or the replay of its passing rollouts); figures are crude as levels, so
// only their changes are used. See docs/decisions/2026-12-02-pass-rate-figures.md.
import { mean } from '../curriculum/posterior.js';
import type { TaskPool } from '../curriculum/pool.js';
import { isSuccess } from '../curriculum/probe.js';
import type { Rollout } from '../rl/contract.js';
import { MAX_ATTEMPTS } from './agent.js';
import { decisionsOf, type EmbeddedTurn } from './decisions.js';
import type { LinearPolicy } from './linear.js';

type RolloutResult = Rollout<EmbeddedTurn>;

/** Which tasks' figures follow an update: those trained on (by replay), or every active task (by reach). */
export type TrackedTasks = 'trained' | 'all';
export const TRACKED_TASKS: TrackedTasks[] = ['trained', 'all'];

/** The model's pass-rate estimate from one passing rollout's kept repairs, Π_j 1 − (1 − q_j)^attempts (null: none kept). */
export function replayPassRate(policy: LinearPolicy, r: RolloutResult, attempts = MAX_ATTEMPTS): number | null {
  const kept = decisionsOf(r.trajectory).filter((d) => !d.undone);
  if (!isSuccess(r.reward) || kept.length === 0) return null;
  return kept.reduce((p, d) => p * (1 - (1 - Math.exp(policy.logprob(d))) ** attempts), 1);
}

/** Mean estimate over a task's passing rollouts, or null when it had none. */
export function taskReplayRate(policy: LinearPolicy, rollouts: readonly RolloutResult[]): number | null {
  const rates = rollouts.map((r) => replayPassRate(policy, r)).filter((x): x is number => x !== null);
  return rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null;
}

/** A figure this high retires an active task outright ('all' mode): training on it would waste the group. */
export const FIGURE_SOLVED = 0.9;

/** Passing rollouts kept per task: enough to average out one lucky path, small enough to replay every step. */
const EXAMPLES_PER_TASK = 2;

/** A change in a task's model estimate since its posterior last took evidence. */
export interface EstimateMove {
  before: number;
  after: number;
}

/** The model's pass-rate figure for a task under the policy's current weights; null when it has none. */
export type Estimator = (taskId: string) => number | null;

/**
 * Per tracked task, the figure its posterior mean stands for (its ANCHOR) and, without an estimator figure, its
 * latest passing rollouts to replay. In memory only: a resumed run re-anchors its active tasks.
 * Mode (`--track`): 'trained' follows the tasks trained on, by replay; 'all' every active task, retired at FIGURE_SOLVED.
 */
export class PassRateTracker {
  private readonly anchors = new Map<string, number>();
  private readonly examples = new Map<string, RolloutResult[]>();
  private readonly estimate: Estimator;

  /** `estimate` gives a task's figure when it has a better one than its examples (reach from its opening); only the 'all' mode reads it. */
  constructor(
    private readonly policy: LinearPolicy,
    readonly mode: TrackedTasks = 'trained',
    estimate: Estimator = () => null,
  ) {
    this.estimate = mode === 'all' ? estimate : () => null;
  }

  /** Whether the estimator (tasks' reach from their kept openings) is read after updates: only then are openings worth keeping. */
  get readsEstimates(): boolean {
    return this.mode === 'all';
  }

  /** The figure the tracker moves a task by: its estimator's, else its examples' replay (null: neither). */
  figure(taskId: string): number | null {
    return this.estimate(taskId) ?? this.replayed(taskId);
  }

  private replayed(taskId: string): number | null {
    const ex = this.examples.get(taskId);
    return ex ? taskReplayRate(this.policy, ex) : null;
  }

  /** Before an update: the observed tasks re-anchor at the current weights, since their posteriors just took its evidence. */
  observe(groups: readonly RolloutResult[][]): void {
    for (const g of groups) {
      const id = g[0]?.taskId;
      if (id === undefined) continue;
      // The estimator's figure is read once here (a reach is a thousand draws).
      let f = this.estimate(id);
      if (f === null) {
        const passing = g.filter((r) => replayPassRate(this.policy, r) !== null);
        if (passing.length) this.examples.set(id, [...passing, ...(this.examples.get(id) ?? [])].slice(0, EXAMPLES_PER_TASK));
        f = this.replayed(id);
      }
      if (f !== null) this.anchors.set(id, f);
    }
  }

  /** Anchors tasks at their figure under the current weights (those with one). */
  anchor(ids: Iterable<string>): void {
    for (const id of ids) {
      const f = this.figure(id);
      if (f !== null) this.anchors.set(id, f);
    }
  }

  /**
   * After an update: each wanted task's figure at its anchor and now, the anchor moving to now. Tasks `forget` names
   * are dropped (rejected tasks never train again).
   */
  moves(wanted: (taskId: string) => boolean = () => true, forget: (taskId: string) => boolean = () => false): Map<string, EstimateMove> {
    const out = new Map<string, EstimateMove>();
    for (const [id, before] of this.anchors) {
      if (forget(id)) {
        this.anchors.delete(id);
        this.examples.delete(id);
        continue;
      }
      if (!wanted(id)) continue;
      const after = this.figure(id);
      if (after === null) continue;
      out.set(id, { before, after });
      this.anchors.set(id, after);
    }
    return out;
  }

  /** After an update: moves the posteriors of the active tasks this mode follows, forgets rejected ones; counts moved and retired. */
  follow(pool: TaskPool, trainedOn: ReadonlySet<string>): { moved: number; retired: number } {
    const out = { moved: 0, retired: 0 };
    const stateOf = (id: string) => pool.get(id)?.state;
    const wanted = (id: string) => stateOf(id) === 'active' && (this.mode === 'all' || trainedOn.has(id));
    for (const [id, move] of this.moves(wanted, (id) => stateOf(id) === 'rejected')) {
      const outcome = followFigure(pool, id, move, this.mode === 'all' ? FIGURE_SOLVED : Infinity);
      if (outcome !== 'unchanged') out.moved++;
      if (outcome === 'retired') out.retired++;
    }
    return out;
  }

  get size(): number {
    return this.anchors.size;
  }
}

const EDGE = 0.02;
const clamp = (p: number) => Math.min(1 - EDGE, Math.max(EDGE, p));
const logit = (p: number) => Math.log(clamp(p) / (1 - clamp(p)));

/** `mean` moved on the logit scale by the change from `before` to `after`, kept inside [0.02, 0.98]. */
export function shiftedMean(mean: number, before: number, after: number): number {
  const z = logit(mean) + logit(after) - logit(before);
  return clamp(1 / (1 + Math.exp(-z)));
}

/** An active task after its figure moved: retired at a figure of `solved` or more, else its mean shifted by the change. */
export function followFigure(pool: TaskPool, taskId: string, { before, after }: EstimateMove, solved = FIGURE_SOLVED): 'retired' | 'moved' | 'unchanged' {
  const e = pool.get(taskId);
  if (!e || e.state !== 'active') return 'unchanged';
  if (after >= solved) {
    pool.setState(taskId, 'retired');
    return 'retired';
  }
  if (before === after) return 'unchanged';
  return pool.shift(taskId, shiftedMean(mean(e.posterior), before, after)).state === 'retired' ? 'retired' : 'moved';
}
