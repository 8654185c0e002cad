// A task: one problem in one environment. Stored as a self-describing
// directory (see writeTask): the instruction, metadata with provenance and
// knobs, the bug patch, the reference fix, the test lists, and a reference to
// the environment (its spec and the hash of its source).
import type { EnvironmentSpec } from '../env/spec.js';

export const TASK_SCHEMA = 'frognano.task/v1';

export type Strategy = 'procedural' | 'llm-modify' | 'llm-rewrite' | 'combine' | 'imported' | 'handwritten';
export type HintLevel = 'full' | 'symptom' | 'minimal';
export type TestVisibility = 'visible' | 'hidden';

/** The family of the operator that made a bug; `llm` for a change a model wrote, `handwritten` for one a person wrote. */
export type BugFamily = 'operations' | 'control' | 'removal' | 'class' | 'llm' | 'handwritten';

/** Where and how a bug was made: recorded in the task's provenance. */
export interface BugEdit {
  operator: string;
  family: BugFamily;
  file: string;
  line: number;
  column: number;
}

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
  /** FAIL_TO_PASS tests removed from the agent's copy of their files: graded, never seen (absent on older tasks). */
  heldBack?: string[];
  /** How the verifier lays out the tests of a graded run: honeypots and moved files (absent: made before honeypots). */
  grading?: GradingLayout;
  knobs: TaskKnobs;
  provenance: Provenance;
  stats: { createdAt: string; validation?: ValidationStats };
}

/**
 * The graded run's test layout, checked when the task was made (see
 * docs/verifier.md). Honeypot twins are versions of project tests that expect
 * a specific other value: on honest code each fails while the test it copies
 * passes, so a twin reported passed beside a passing original means results
 * were forged or equality faked.
 */
export interface GradingLayout {
  /** Test files written over their own path for the graded run: a project file with twins (and generated checks) beside its tests. */
  files: { path: string; content: string; like: string }[];
  /** Full copies of a project test file (Python, ava), written under fresh names at every grading in place of the file. */
  groups?: CopyGroup[];
  /** Each same-file twin's id in the graded run and the required test it contradicts. */
  twins: { id: string; of: string }[];
  /** Required tests that report under a repeat id (a twin ran before them): graded-run id to task id. */
  renamed: Record<string, string>;
  /** Files that are copies, in layouts made before copy groups: none of their results belongs to a real test. */
  copies: string[];
  /** ava, in layouts made before copy groups: the names copies' tests report under ("test › core"). */
  copyPrefixes?: string[];
  /** pytest: move each file holding a required test to a fresh name for every graded run. */
  relocate: boolean;
  /** Repeat ids (" [n]") of required tests' names that honest runs report besides them. */
  repeats: string[];
  /** Words for fresh test file names in the project's style. */
  words: string[];
  /** Tests generated from the reference fix on inputs no visible test tried: graded like failing tests, never shown (their ids). */
  checks?: string[];
  /** Why the task has no generated check, where it has none (absent on layouts made before checks). */
  noChecks?: string;
  /** Graded runs load the guard (assets/guard): true where the check ran quiet with it on the broken state and the fix; absent on layouts made before it. */
  guard?: boolean;
  /** Why they do not, where the guard raised an alarm on the broken state or the fix. */
  unguarded?: string;
}

/**
 * One project test file as m+1 full copies: every test of the file in each,
 * in the same order and shape. A chosen test differs between copies only in
 * one expected value; its graded version sits in the copy `graded` names,
 * drawn per test, its twins in the others. Every other test is the same in
 * all copies and graded in `home`.
 */
export interface CopyGroup {
  /** The project file the copies stand in for. */
  like: string;
  contents: string[];
  /** Tests by their id below the file ("::TestX::test_y" for pytest, the title for ava): the copy that holds the graded version. */
  graded: Record<string, number>;
  /** Copies whose version of the test is a checked honeypot (failed on both the broken state and the fix). */
  decoys: Record<string, number[]>;
  home: number;
  /** ava: the report's name prefix of the project file ("test › core › "), whose file part becomes each copy's. */
  avaPrefix?: string;
}

export interface ValidationStats {
  referenceRuns: number;
  candidateRuns: number;
  droppedFlaky: string[];
  candidateMs: number;
}
