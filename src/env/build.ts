// Building an environment once: a snapshot of its source (what every
// workspace is copied from) and its dependency layer (what setup produced,
// mounted read-only into every workspace). The snapshot is cached by a hash
// of the spec and the source; the layer by its setup steps and lockfiles
// (layerKey), so environments that share a lockfile share one layer.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { LAYER_CACHES, type Runtime } from '../runtime/types.js';
import { hostPython } from '../runtime/host.js';
import { git } from '../util/git.js';
import { isRecord } from '../util/guards.js';
import { subdir } from '../util/paths.js';
import { sourceDir, type LoadedEnv } from './load.js';
import { expandSystemPackages } from './runners/system-packages.js';

const run = promisify(execFile);

/** Never part of a snapshot: version control and caches that leak or churn. */
const ALWAYS_SKIP = new Set(['.git', '__pycache__', '.pytest_cache', '.mypy_cache', '.frognano']);

export interface BuiltEnv {
  env: LoadedEnv;
  hash: string;
  snapshot: string;
  layers: { rel: string; host: string }[];
  /** True when this call built it; false when the cache was used. */
  built: boolean;
  setupMs: number;
}

function skipped(rel: string, layer: string[]): boolean {
  const parts = rel.split('/');
  if (parts.some((p) => ALWAYS_SKIP.has(p))) return true;
  return layer.some((l) => rel === l || rel.startsWith(`${l}/`));
}

/**
 * The repository's files as git names them when `root` is a work tree:
 * tracked files (whatever .gitignore says; a project may commit its build
 * under an ignored dist/) and untracked ones git would add. Null elsewhere.
 */
function gitListed(root: string): string[] | null {
  if (!existsSync(join(root, '.git'))) return null;
  try {
    const out = execFileSync('git', ['-c', 'core.quotePath=false', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      maxBuffer: 256 * 1024 * 1024,
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' },
    });
    return [...new Set(out.toString('utf8').split('\0').filter(Boolean))].sort();
  } catch {
    return null; // not a repository git can read: every file is walked instead
  }
}

function walkFiles(root: string, layer: string[], dir = root, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const rel = relative(root, path);
    if (skipped(rel, layer)) continue;
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) walkFiles(root, layer, path, out);
    else out.push(rel);
  }
  return out;
}

/** The files of a snapshot: git's list in a work tree (a submodule walked whole), every file elsewhere; caches, .git and the layer never. */
export function listFiles(root: string, layer: string[]): string[] {
  const listed = gitListed(root);
  if (!listed) return walkFiles(root, layer);
  const out: string[] = [];
  for (const rel of listed) {
    if (skipped(rel, layer)) continue;
    const st = statSync(join(root, rel), { throwIfNoEntry: false });
    if (!st) continue; // deleted in the work tree and not yet committed
    if (st.isDirectory()) walkFiles(root, layer, join(root, rel), out);
    else out.push(rel);
  }
  return out;
}

export function hashSource(env: LoadedEnv, dir: string): string {
  const h = createHash('sha256').update(JSON.stringify(env.spec));
  for (const rel of listFiles(dir, env.spec.layer)) {
    h.update(rel)
      .update('\0')
      .update(readFileSync(join(dir, rel)))
      .update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

/** A local checkout of a git source, cloned once into the data directory. */
async function checkout(env: LoadedEnv, dataDir: string): Promise<string> {
  const src = env.spec.source;
  if (!('git' in src)) throw new Error('not a git source');
  const dir = join(subdir(dataDir, 'sources'), env.spec.name);
  if (!existsSync(join(dir, '.git'))) {
    rmSync(dir, { recursive: true, force: true });
    await git(['clone', '-q', src.git, dir], { cwd: dataDir });
  }
  if (src.ref) await git(['checkout', '-q', '--detach', src.ref], { cwd: dir });
  return dir;
}

export function substitute(raw: string): string {
  const command = expandSystemPackages(raw);
  if (!command.includes('{python}')) return command;
  const py = hostPython();
  if (!py) throw new Error('a setup step needs {python} but no Python interpreter was found (set FROGNANO_PYTHON)');
  return command.replaceAll('{python}', py.executable);
}

async function npmRegistry(): Promise<Record<string, string>> {
  try {
    const { stdout } = await run('npm', ['config', 'get', 'registry']);
    return { npm_config_registry: stdout.trim() };
  } catch {
    return {};
  }
}

export interface BuildOptions {
  dataDir: string;
  runtime: Runtime;
  onProgress?: (message: string) => void;
  /** Rebuild even when a cached build exists. */
  force?: boolean;
}

/** Files whose content decides what setup installs: lockfiles first, manifests where there is no lockfile. */
const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', '.npmrc'];
const PY_MANIFESTS = /^(requirements[^/]*\.txt|requirements\/[^/]+\.txt|pyproject\.toml|setup\.py|setup\.cfg)$/;

/**
 * The dependency layer's key: the setup steps, the layer paths, the variables
 * setup runs with, and the content of the lockfiles (or, without one, the
 * dependency fields of package.json and the Python manifests). Two
 * environments with the same key share one layer, built once.
 */
export function layerKey(spec: LoadedEnv['spec'], src: string): string {
  const h = createHash('sha256').update(JSON.stringify({ setup: spec.setup, layer: spec.layer, env: spec.test.env }));
  const files = readdirSync(src).filter((f) => LOCKFILES.includes(f) || PY_MANIFESTS.test(f));
  if (existsSync(join(src, 'requirements')))
    files.push(
      ...readdirSync(join(src, 'requirements'))
        .map((f) => `requirements/${f}`)
        .filter((f) => PY_MANIFESTS.test(f)),
    );
  for (const rel of files.sort()) {
    const path = join(src, rel);
    if (statSync(path).isFile()) h.update(rel).update('\0').update(readFileSync(path)).update('\0');
  }
  const pkgPath = join(src, 'package.json');
  if (existsSync(pkgPath) && !files.some((f) => f !== '.npmrc' && LOCKFILES.includes(f))) {
    // No lockfile: what npm install resolves is decided by the dependency fields alone.
    let pkg: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(pkgPath, 'utf8'));
      if (isRecord(parsed)) pkg = parsed;
    } catch {
      h.update(readFileSync(pkgPath)); // unreadable: the whole file is the key
    }
    const fields = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'overrides', 'workspaces', 'bin'];
    h.update(JSON.stringify(fields.map((f) => pkg[f] ?? null)));
  }
  return h.digest('hex').slice(0, 16);
}

export async function buildEnvironment(env: LoadedEnv, opts: BuildOptions): Promise<BuiltEnv> {
  const { spec } = env;
  const src = sourceDir(env) ?? (await checkout(env, opts.dataDir));
  if (!existsSync(src)) throw new Error(`${spec.name}: source directory ${src} does not exist`);
  const hash = hashSource(env, src);
  const home = join(subdir(opts.dataDir, 'envs', spec.name), hash);
  const snapshot = join(home, 'snapshot');
  const layerHome = spec.setup.length ? join(subdir(opts.dataDir, 'layers'), layerKey(spec, src)) : null;
  const layers = layerHome ? spec.layer.map((rel) => ({ rel, host: join(layerHome, rel) })) : [];
  const layerReady = layerHome !== null && existsSync(join(layerHome, 'ready')) && !opts.force;
  if (existsSync(join(home, 'ready')) && !opts.force && (layerHome === null || layerReady)) return { env, hash, snapshot, layers, built: false, setupMs: 0 };

  rmSync(home, { recursive: true, force: true });
  const staging = `${home}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'snapshot'), { recursive: true });
  for (const rel of listFiles(src, spec.layer)) {
    cpSync(join(src, rel), join(staging, 'snapshot', rel), { preserveTimestamps: true, verbatimSymlinks: true });
  }

  let setupMs = 0;
  if (layerHome && !layerReady) {
    const started = performance.now();
    await buildLayer(spec, join(staging, 'snapshot'), layerHome, opts).catch((err: unknown) => {
      rmSync(staging, { recursive: true, force: true });
      throw err;
    });
    setupMs = performance.now() - started;
  } else if (layerHome) opts.onProgress?.(`${spec.name}: the dependency layer is shared with an environment of the same lockfile and setup`);
  writeFileSync(join(staging, 'ready'), new Date().toISOString());
  renameSync(staging, home);
  return { env, hash, snapshot, layers, built: true, setupMs };
}

/** Runs setup on a copy of the snapshot and keeps the layer paths it made, under `layerHome`. */
async function buildLayer(spec: LoadedEnv['spec'], snapshot: string, layerHome: string, opts: BuildOptions): Promise<void> {
  opts.onProgress?.(`${spec.name}: building the dependency layer (${spec.setup.length} setup step(s))`);
  const staging = `${layerHome}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const build = join(staging, 'build');
  const out = join(staging, 'out');
  cpSync(snapshot, build, { recursive: true });
  mkdirSync(out);
  try {
    const uid = 199999;
    if (process.getuid?.() === 0 && opts.runtime.isolated) await run('chown', ['-R', `${uid}:${uid}`, build, out]);
    const mounts = { root: build, layers: [], outDir: out, uid };
    // The test environment (--env values among it) holds for setup too: a variable a build needs is usually one the tests need.
    // HUSKY=0: a prepare script installing git hooks fails in a copy with no .git.
    const env = { HUSKY: '0', ...spec.test.env, ...(await npmRegistry()) };
    for (const step of spec.setup) {
      opts.onProgress?.(`${spec.name}: $ ${step}`);
      const res = await opts.runtime.exec(mounts, {
        argv: ['sh', '-c', substitute(step)],
        network: true,
        env,
        timeoutMs: 15 * 60 * 1000,
        limits: { memoryMb: 4096, maxOutputBytes: 16 * 1024 * 1024 },
      });
      if (res.exitCode !== 0) {
        const why = res.timedOut ? 'timed out' : (res.spawnError ?? `exited ${res.exitCode}`);
        const tail = `${res.stdout}\n${res.stderr}`.trimEnd().split('\n').slice(-20).join('\n');
        throw new Error(`${spec.name}: setup step "${step}" ${why}:\n${tail}`);
      }
    }
    for (const rel of spec.layer) {
      const made = join(build, rel);
      if (!existsSync(made)) throw new Error(`${spec.name}: setup did not create the layer path "${rel}"; fix "layer" or "setup" in the spec`);
      mkdirSync(join(staging, 'layer', rel, '..'), { recursive: true });
      renameSync(made, join(staging, 'layer', rel));
      // Mount points for the caches runners write at run time (the layer itself is read-only then).
      for (const cache of LAYER_CACHES[rel] ?? []) mkdirSync(join(staging, 'layer', rel, cache), { recursive: true });
    }
    writeFileSync(join(staging, 'layer', 'ready'), new Date().toISOString());
    rmSync(layerHome, { recursive: true, force: true });
    renameSync(join(staging, 'layer'), layerHome);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
