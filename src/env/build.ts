// Building an environment once: a snapshot of its source (what every
// workspace is copied from) and its dependency layer (what setup produced,
// mounted read-only into every workspace). Both are cached by a hash of the
// spec and the source, so a rebuild happens only when either changes.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { Runtime } from '../runtime/types.js';
import { hostPython } from '../runtime/host.js';
import { git } from '../util/git.js';
import { subdir } from '../util/paths.js';
import { sourceDir, type LoadedEnv } from './load.js';

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

function listFiles(root: string, layer: string[], dir = root, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const rel = relative(root, path);
    if (skipped(rel, layer)) continue;
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) listFiles(root, layer, path, out);
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

export function substitute(command: string): string {
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

export async function buildEnvironment(env: LoadedEnv, opts: BuildOptions): Promise<BuiltEnv> {
  const { spec } = env;
  const src = sourceDir(env) ?? (await checkout(env, opts.dataDir));
  if (!existsSync(src)) throw new Error(`${spec.name}: source directory ${src} does not exist`);
  const hash = hashSource(env, src);
  const home = join(subdir(opts.dataDir, 'envs', spec.name), hash);
  const snapshot = join(home, 'snapshot');
  const layers = spec.layer.map((rel) => ({ rel, host: join(home, 'layer', rel) }));
  if (existsSync(join(home, 'ready')) && !opts.force) return { env, hash, snapshot, layers, built: false, setupMs: 0 };

  rmSync(home, { recursive: true, force: true });
  const staging = `${home}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'snapshot'), { recursive: true });
  for (const rel of listFiles(src, spec.layer)) {
    cpSync(join(src, rel), join(staging, 'snapshot', rel), { preserveTimestamps: true, verbatimSymlinks: true });
  }

  let setupMs = 0;
  if (spec.setup.length > 0) {
    opts.onProgress?.(`${spec.name}: building the dependency layer (${spec.setup.length} setup step(s))`);
    const started = performance.now();
    const build = join(staging, 'build');
    const out = join(staging, 'out');
    cpSync(join(staging, 'snapshot'), build, { recursive: true });
    mkdirSync(out);
    const uid = 199999;
    if (process.getuid?.() === 0 && opts.runtime.isolated) await run('chown', ['-R', `${uid}:${uid}`, build, out]);
    const mounts = { root: build, layers: [], outDir: out, uid };
    const env = await npmRegistry();
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
        rmSync(staging, { recursive: true, force: true });
        const why = res.timedOut ? 'timed out' : (res.spawnError ?? `exited ${res.exitCode}`);
        const tail = `${res.stdout}\n${res.stderr}`.trimEnd().split('\n').slice(-20).join('\n');
        throw new Error(`${spec.name}: setup step "${step}" ${why}:\n${tail}`);
      }
    }
    for (const { rel } of layers) {
      const made = join(build, rel);
      if (!existsSync(made)) {
        rmSync(staging, { recursive: true, force: true });
        throw new Error(`${spec.name}: setup did not create the layer path "${rel}"; fix "layer" or "setup" in the spec`);
      }
      mkdirSync(join(staging, 'layer', rel, '..'), { recursive: true });
      renameSync(made, join(staging, 'layer', rel));
    }
    rmSync(build, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
    setupMs = performance.now() - started;
  }
  writeFileSync(join(staging, 'ready'), new Date().toISOString());
  renameSync(staging, home);
  return { env, hash, snapshot, layers, built: true, setupMs };
}
