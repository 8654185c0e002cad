import { join } from 'node:path';
import type { Runtime } from '../runtime/types.js';
import { Workspace, type WorkspaceOptions } from '../workspace/workspace.js';
import type { BuiltEnv } from './build.js';

/** A fresh workspace of a built environment, in the data directory's tmp/. */
export function envWorkspace(
  built: BuiltEnv,
  runtime: Runtime,
  dataDir: string,
  extra: Pick<WorkspaceOptions, 'patch' | 'removeFiles' | 'prepare' | 'prepareKey'> = {},
): Promise<Workspace> {
  return Workspace.create({ snapshot: built.snapshot, layers: built.layers, runtime, baseDir: join(dataDir, 'tmp'), ...extra });
}
