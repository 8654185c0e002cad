// Rollouts added to a step's groups after they ran (all-fail extension, replay fill-up).
import type { Rollout } from '../rl/contract.js';

/**
 * What a step hands to code that adds rollouts to groups already run (all-fail
 * extension, replay fill-up): each rollout is spent before it runs, so work
 * running alongside (restocking probes) cannot overrun the budget.
 */
export interface MoreRollouts {
  workers: number;
  /** Rollouts left in the budget. */
  budgetLeft: () => number;
  spend: () => void;
  /** The `index`-th rollout of the task's group (indices continue the group's). */
  run: (taskId: string, index: number) => Promise<Rollout>;
}
