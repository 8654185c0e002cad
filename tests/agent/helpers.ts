// Shared setup for the agent tests: a workspace under the default runtime
// (bwrap here) and the tool context the loop would give the tools.
import { selectRuntime } from '../../src/runtime/select.js';
import type { ToolContext } from '../../src/agent/tools/types.js';
import type { Workspace } from '../../src/workspace/workspace.js';
import { makeWorkspace } from '../helpers/workspace.js';

export const runtime = selectRuntime({ warn: () => {} });

export function contextFor(ws: Workspace, commandTimeoutMs = 20_000): ToolContext {
  return { workspace: ws, workdir: ws.runtime.workdir(ws.mounts), commandTimeoutMs };
}

/** Runs `fn` with a fresh workspace holding `files`, disposing it afterwards. */
export async function withWorkspace<T>(files: Record<string, string>, fn: (ws: Workspace, ctx: ToolContext) => Promise<T>): Promise<T> {
  const ws = await makeWorkspace(runtime, files);
  try {
    return await fn(ws, contextFor(ws));
  } finally {
    ws.dispose();
  }
}
