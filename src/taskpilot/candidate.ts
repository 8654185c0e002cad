// A bug candidate on its way to the validator: what synth generates and
// combine merges. Its own module so that combine need not import synth.
import type { BugEdit, Strategy } from '../task/task.js';

/** One candidate on its way to the validator. */
export interface Candidate {
  env: string;
  strategy: Strategy;
  operators: string[];
  edits: BugEdit[];
  seeds: number[];
  files: Record<string, { before: string; after: string }>;
  parents?: string[];
  model?: string;
  /** A hand-written bug's issue text: the task's instruction, in place of one written from the failing tests. */
  issue?: string;
}
