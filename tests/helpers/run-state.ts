// A run state as the trainer saves it, for tests of what reads one (resume checks, the summary).
import { DifficultyController } from '../../src/curriculum/controller.js';
import { TaskPool } from '../../src/curriculum/pool.js';
import { EmbeddedLearner } from '../../src/policy/learner.js';
import type { TrainConfig } from '../../src/train/config.js';
import { STATE_SCHEMA, type RunState } from '../../src/train/state.js';

export function runState(config: TrainConfig, fields: Partial<RunState> = {}): RunState {
  return {
    schema: STATE_SCHEMA,
    config,
    step: 1,
    rolloutsUsed: 16,
    elapsedMs: 1000,
    learner: { kind: 'embedded-policy', state: new EmbeddedLearner(config).save() },
    pool: new TaskPool().toJSON(),
    controller: new DifficultyController().toJSON(),
    used: [],
    evalIds: [],
    fixedIds: null,
    heldOut: [],
    groups: { total: 0, degenerate: 0 },
    ...fields,
  };
}
