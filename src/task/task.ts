// A task: one problem in one environment. Stored as a self-describing
// directory (see writeTask): the instruction, metadata with provenance and
// knobs, the bug patch, the reference fix, the test lists, and a reference to
// the environment (its spec and the hash of its source).
import type { EnvironmentSpec } from '../env/spec.js';
import type { BugEdit } from '../taskpilot/procedural/generate.js';

export const TASK_SCHEMA = 'frognano.task/v1';

export type Strategy = 'procedural' | 'llm-modify' | 'llm-rewrite' | 'combine' | 'imported';
export type HintLevel = 'full' | 'symptom' | 'minimal';
export type TestVisibility = 'visible' | 'hidden';

export interface TaskKnobs {
  /** How many validated bugs were merged into this one (1 for a single bug). */
  bugs: number;
  hint: HintLevel;
  visibility: TestVisibility;
  /** Operator families the bugs came from. */
  families: string[];
}

export interface Provenance {
  strategy: Strategy;
  /** For procedural bugs: each operator, where it applied. */
  edits: BugEdit[];
  /** Seeds that reproduce the candidate(s). */
  seeds: number[];
  /** For combined tasks: the ids of the tasks merged. */
  parents?: string[];
  /** For LLM generators: the model that wrote the change. */
  model?: string;
  /** Which checkpoint calibrated it (set by the curriculum). */
  calibratedBy?: string;
  /** The raw record of an imported task, kept verbatim. */
  original?: unknown;
}

export interface Task {
  schema: typeof TASK_SCHEMA;
  id: string;
  env: { name: string; hash: string; spec: EnvironmentSpec };
  /** The patch that introduces the bug into the environment's snapshot. */
  bugPatch: string;
  /** The reference fix: applied to the broken state, it restores the snapshot. */
  fixPatch: string;
  instruction: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  /** Test files removed from the agent's workspace (restored only for grading). */
  hiddenFiles: string[];
  knobs: TaskKnobs;
  provenance: Provenance;
  stats: { createdAt: string; validation?: ValidationStats };
}

export interface ValidationStats {
  referenceRuns: number;
  candidateRuns: number;
  droppedFlaky: string[];
  candidateMs: number;
}
