// From a task to the pieces that run it: its environment (found by name in
// the registry and checked against the source hash the task was made on) and
// the original content of the files its bug changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildEnvironment, type BuiltEnv } from '../env/build.js';
import { findEnvironment } from '../env/registry.js';
import type { Runtime } from '../runtime/types.js';
import type { Store } from '../store/store.js';
import { patchFiles } from '../util/diff.js';
import { UserError } from '../util/errors.js';
import type { Task } from './task.js';

export async function taskEnvironment(task: Task, store: Store, dataDir: string, runtime: Runtime): Promise<BuiltEnv> {
  const env = findEnvironment(store, task.env.name);
  const built = await buildEnvironment(env, { dataDir, runtime });
  if (built.hash !== task.env.hash) {
    throw new UserError(
      `environment "${task.env.name}" changed since task ${task.id} was made (source hash ${built.hash}, task made on ${task.env.hash})`,
      'restore the environment at that state, or synthesize the task again',
    );
  }
  return built;
}

/** Original content of the files a patch changes, read from the snapshot. */
export function originalsOf(built: BuiltEnv, patch: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of patchFiles(patch)) {
    try {
      out[rel] = readFileSync(join(built.snapshot, rel), 'utf8');
    } catch {
      /* a file the bug creates */
    }
  }
  return out;
}
