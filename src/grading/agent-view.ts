// What an agent works on: the task's broken state in a fresh workspace, with
// its hidden test files removed and its held-back tests cut from their files.
// Grading restores both (the verifier starts from the snapshot).
import type { BuiltEnv } from '../env/build.js';
import { envWorkspace } from '../env/workspace.js';
import type { Runtime } from '../runtime/types.js';
import type { Task } from '../task/task.js';
import type { Workspace } from '../workspace/workspace.js';
import { rewriteKeepingTimes, withoutHeldBack } from './holdback.js';

export async function agentWorkspace(task: Task, built: BuiltEnv, runtime: Runtime, dataDir: string): Promise<Workspace> {
  const edits = task.heldBack?.length ? await withoutHeldBack(built.snapshot, task.env.spec, task.heldBack) : {};
  return envWorkspace(built, runtime, dataDir, {
    patch: task.bugPatch,
    removeFiles: task.hiddenFiles,
    // The cut is the same for every workspace of the task: part of the task's image.
    ...(Object.keys(edits).length
      ? { prepare: (tree) => rewriteKeepingTimes(tree.root, edits), prepareKey: `held-back:${JSON.stringify(task.heldBack)}` }
      : {}),
  });
}
