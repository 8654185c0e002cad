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
}
