// All environments FrogNano knows: the bundled starters and those registered
// with `env add` (kept in the store).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { RegisteredEnv, Store } from '../store/store.js';
import { errorMessage, UserError } from '../util/errors.js';
import { git } from '../util/git.js';
import { isRecord } from '../util/guards.js';
import { inferEnvironment, type InferOptions, type Inference } from './infer.js';
import { loadSpecFile, SPEC_FILE, starterEnvs, type LoadedEnv } from './load.js';
import { validateSpec, type EnvironmentSpec } from './spec.js';

export function allEnvironments(store: Store): LoadedEnv[] {
  const starters = starterEnvs();
  const registered = store
    .environments()
    .map((r) => ({ spec: validateSpec(r.spec, `in the store (added by \`${r.origin}\`)`), origin: r.origin, baseDir: r.baseDir, builtin: false }));
  return [...starters, ...registered].map((e) => {
    const flaky = store.flakyTests(e.spec.name);
    return flaky.length ? { ...e, flaky } : e;
  });
}

export function findEnvironment(store: Store, name: string): LoadedEnv {
  const all = allEnvironments(store);
  const env = all.find((e) => e.spec.name === name);
  if (!env) {
    throw new UserError(
      `no environment named "${name}"`,
      `known: ${all.map((e) => e.spec.name).join(', ') || '(none)'}; add one with \`frognano env add <path>\``,
    );
  }
  return env;
}

function looksLikeGitUrl(target: string): boolean {
  return /^(https?|git|ssh|file):\/\//.test(target) || /^[\w.-]+@[\w.-]+:/.test(target) || target.endsWith('.git');
}

/** The environment `env add` registered, and the registration it replaced (with `force`), if any. */
export interface AddedEnvironment {
  spec: EnvironmentSpec;
  replaced?: RegisteredEnv;
  /** How the spec was decided: the runner and what named it. */
  inferred?: Omit<Inference, 'spec'>;
}

/** The registration stored under a name, if any. */
export function registeredEnvironment(store: Store, name: string): RegisteredEnv | undefined {
  return store.environments().find((r) => isRecord(r.spec) && r.spec.name === name);
}

/**
 * Refuses a name that is taken: a starter's always (it cannot be replaced),
 * a registered environment's unless `force`. Returns the registration that
 * `force` will replace.
 */
function claimName(store: Store, name: string, force: boolean): RegisteredEnv | undefined {
  if (starterEnvs().some((e) => e.spec.name === name)) {
    throw new UserError(`"${name}" is the name of a starter environment`, 'pass --name <another-name>; a starter cannot be replaced, even with --force');
  }
  const existing = registeredEnvironment(store, name);
  if (existing && !force) {
    throw new UserError(
      `an environment named "${name}" is already registered (added by \`${existing.origin}\` at ${existing.addedAt})`,
      'pass --force to replace it, or --name <another-name> to register this one beside it',
    );
  }
  return existing;
}

/**
 * Registers a local directory or a git URL. A name already registered is
 * refused unless `force`, which replaces that registration.
 */
export async function addEnvironment(store: Store, target: string, opts: InferOptions & { ref?: string; force?: boolean } = {}): Promise<AddedEnvironment> {
  const force = opts.force ?? false;
  // A name given up front is checked before any clone or inference.
  if (opts.name) claimName(store, opts.name, force);
  let spec: EnvironmentSpec;
  let inferred: Omit<Inference, 'spec'> | undefined;
  let baseDir = '/';
  const infer = (dir: string, source: EnvironmentSpec['source']) => {
    const { spec: s, ...why } = inferEnvironment(dir, source, opts);
    inferred = why;
    return s;
  };
  if (looksLikeGitUrl(target) && !existsSync(target)) {
    // Inspect a temporary clone; the build step clones again into the data directory.
    const tmp = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'frognano-add-'));
    try {
      await git(['clone', '-q', '--depth', '50', target, tmp]);
      if (opts.ref) await checkoutRef(tmp, opts.ref);
      const ref = (await git(['rev-parse', 'HEAD'], { cwd: tmp })).trim();
      spec = infer(tmp, { git: target, ref });
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError(`could not clone ${target}: ${errorMessage(err)}`, 'check the URL and that this machine can reach it');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  } else {
    const dir = isAbsolute(target) ? target : resolve(target);
    if (!existsSync(dir)) throw new UserError(`${target} does not exist`, 'pass a repository directory or a git URL');
    if (existsSync(join(dir, SPEC_FILE))) {
      // The directory carries its own spec: keep its source, resolved against it.
      const own = loadSpecFile(join(dir, SPEC_FILE));
      spec = opts.name ? { ...own.spec, name: opts.name } : own.spec;
      baseDir = dir;
    } else {
      spec = infer(dir, { path: dir });
    }
  }
  const replaced = claimName(store, spec.name, force);
  store.addEnvironment(spec, baseDir, `env add ${target}`);
  return { spec, ...(replaced ? { replaced } : {}), ...(inferred ? { inferred } : {}) };
}

/** Checks out a ref in a shallow clone: fetched on its own when it is older than the clone's depth (a pinned commit). */
async function checkoutRef(dir: string, ref: string): Promise<void> {
  try {
    await git(['checkout', '-q', '--detach', ref], { cwd: dir });
  } catch {
    await git(['fetch', '-q', '--depth', '1', 'origin', ref], { cwd: dir });
    await git(['checkout', '-q', '--detach', 'FETCH_HEAD'], { cwd: dir });
  }
}
