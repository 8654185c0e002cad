// Reading environment specs from disk: the bundled starter environments and
// any spec file a user points at.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { starterEnvsDir } from '../util/paths.js';
import { SpecError, validateSpec, type EnvironmentSpec } from './spec.js';
import { errorMessage } from '../util/errors.js';

export const SPEC_FILE = 'environment.json';

export interface LoadedEnv {
  spec: EnvironmentSpec;
  /** Where the spec came from (a file path or "registry"). */
  origin: string;
  /** Directory a `source.path` is resolved against. */
  baseDir: string;
  builtin: boolean;
  /** Tests the latest `env check` saw flaky (from the store): never a task's label. */
  flaky?: string[];
}

export function parseSpecText(text: string, where: string): EnvironmentSpec {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SpecError(where, [{ field: '(file)', problem: `is not valid JSON (${errorMessage(err)})`, fix: 'correct the JSON syntax' }]);
  }
  return validateSpec(raw, where);
}

export function loadSpecFile(path: string, builtin = false): LoadedEnv {
  const file = resolve(path);
  if (!existsSync(file)) throw new Error(`no environment spec at ${file}`);
  return { spec: parseSpecText(readFileSync(file, 'utf8'), file), origin: file, baseDir: dirname(file), builtin };
}

/** The bundled starter environments, sorted by name. */
export function starterEnvs(): LoadedEnv[] {
  if (!existsSync(starterEnvsDir)) return [];
  return readdirSync(starterEnvsDir)
    .filter((name) => existsSync(join(starterEnvsDir, name, SPEC_FILE)))
    .sort()
    .map((name) => loadSpecFile(join(starterEnvsDir, name, SPEC_FILE), true));
}

/** The directory holding the environment's source, for `source.path` specs. */
export function sourceDir(env: LoadedEnv): string | null {
  const src = env.spec.source;
  if (!('path' in src)) return null;
  return isAbsolute(src.path) ? src.path : join(env.baseDir, src.path);
}
