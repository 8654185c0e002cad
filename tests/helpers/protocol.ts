// A protocol small enough for a test to run its cells for real: 12 rollouts a run, one held-out attempt per evaluation,
// no forgetting re-tries and no hand-written scoring.
import type { Protocol } from '../../src/evidence/protocol.js';
import type { CurriculumName } from '../../src/train/config.js';

export function smallProtocol(name: string, groups: Protocol['groups'], curricula: readonly CurriculumName[], seeds = [1, 2]): Protocol {
  return {
    name,
    groups,
    seeds,
    arms: curricula.map((c) => ({ name: c, curriculum: c, ablate: [] })),
    budget: 12,
    evalTasks: 1,
    evalAttempts: 1,
    evalEvery: 100,
    forgetting: 0,
    handwrittenAttempts: 0,
  };
}
