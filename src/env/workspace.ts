import type { Runtime } from '../runtime/types.js';
import { workspaceBase } from '../workspace/base.js';
import { Workspace, type WorkspaceOptions } from '../workspace/workspace.js';
import type { BuiltEnv } from './build.js';

/** A fresh workspace of a built environment: in memory when there is room, else in the data directory's tmp/ (workspace/base.ts). */
export function envWorkspace(
  built: BuiltEnv,
  runtime: Runtime,
  dataDir: string,
  extra: Pick<WorkspaceOptions, 'patch' | 'removeFiles' | 'prepare' | 'prepareKey' | 'spares'> = {},
): Promise<Workspace> {
  return Workspace.create({ snapshot: built.snapshot, layers: built.layers, runtime, baseDir: workspaceBase(dataDir, built.snapshot), ...extra });
}
