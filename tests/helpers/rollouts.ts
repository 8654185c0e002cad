// Rollouts made by hand for tests of what consumes them (curriculum, updates):
// the embedded policy's decisions travel in the trajectory, as real rollouts carry them.
import type { Decision } from '../../src/policy/linear.js';
import { trajectoryOf, type EmbeddedTurn } from '../../src/policy/decisions.js';
import type { Rollout } from '../../src/rl/contract.js';

export function rolloutOf(taskId: string, reward: number | null, decisions: Decision[] = [], policyVersion = 0): Rollout<EmbeddedTurn> {
  return { taskId, reward, trajectory: trajectoryOf(decisions), policyVersion, steps: 1, ms: 0, verifyMs: 0, cached: false };
}
