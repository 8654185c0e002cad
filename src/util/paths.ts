import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The frognano package root (where envs/ and docs/ live). */
export const packageRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The bundled starter environments. */
export const starterEnvsDir = join(packageRoot, 'envs');

/** The bundled hand-written bugs, a held-out set never trained on (docs/evidence/protocol.md). */
export const handwrittenBugsDir = join(packageRoot, 'evidence', 'handwritten');

/** The catalogue of pinned public repositories (`env add --from-catalogue`). */
export const catalogueFile = join(packageRoot, 'catalogue', 'environments.json');

/**
 * The project data directory: registry, snapshots, dependency layers and
 * temporary workspaces. `FROGNANO_HOME` overrides the default `./.frognano`.
 */
export function dataDir(override?: string): string {
  const dir = dataDirPath(override);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Where the data directory is, without making it (to name it in a message). */
export function dataDirPath(override?: string): string {
  return resolve(override ?? process.env.FROGNANO_HOME ?? '.frognano');
}

export function subdir(root: string, ...parts: string[]): string {
  const dir = join(root, ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Scripts exported tasks ship: Harbor's grader and the report reader (src/interop/). */
export const exportAssetsDir = join(packageRoot, 'assets', 'exports');

/** The guard graded test runs load before any code of the change (docs/verifier.md, "Tamper evidence"). */
export const guardAssetsDir = join(packageRoot, 'assets', 'guard');
