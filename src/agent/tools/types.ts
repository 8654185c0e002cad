// The tool protocol. Each tool is one file; its result keeps what the model
// sees (`output`) apart from what a person sees (`display`).
import type { ToolSpec } from '../../model/types.js';
import type { Workspace } from '../../workspace/workspace.js';

export interface ToolContext {
  workspace: Workspace;
  /** Where the workspace root appears to the model and to commands (e.g. /workspace). */
  workdir: string;
  /** Per-call time limit for commands, in ms. */
  commandTimeoutMs: number;
  /** Variables every command runs with: the environment's test variables, so the agent's test runs are the grader's. */
  env?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ToolResult {
  /** What goes back to the model (the agent loop truncates it to the observation limit). */
  output: string;
  /** A short line for people (progress, logs). */
  display?: string;
  /** True when the call failed (bad arguments, missing file, non-zero exit is NOT an error). */
  isError?: boolean;
}

export interface Tool {
  spec: ToolSpec;
  /** `args` is the parsed JSON object; the tool validates it and answers errors as results. */
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}
