// `env scan`: many repositories onboarded unattended. Each is cloned at its
// pinned commit, added with zero flags, checked, probed with a small
// procedural synthesis, and its valid tasks graded with the reference fix
// (must earn 1) and an empty change (must not). One result line a
// repository in results.jsonl: a rerun skips what is there (resume).
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildEnvironment } from '../env/build.js';
import { addEnvironment, findEnvironment, registeredEnvironment } from '../env/registry.js';
import type { LoadedEnv } from '../env/load.js';
import { checkEnvironment, checkRecord } from '../grading/env-check.js';
import { runEval } from '../eval/run.js';
import { oracleModel } from '../eval/oracle.js';
import { ScriptedModel } from '../model/scripted.js';
import type { Runtime } from '../runtime/types.js';
import type { Store } from '../store/store.js';
import { referenceFiles } from '../task/reference.js';
import type { Task } from '../task/task.js';
import { synthesize } from '../taskpilot/synth.js';
import type { EnvValidator } from '../taskpilot/validate.js';
import { deriveSeed } from '../util/rng.js';
import { errorMessage, UserError } from '../util/errors.js';
import { git } from '../util/git.js';
import { isRecord } from '../util/guards.js';
import { pool } from '../util/pool.js';
import { isStorageFailure } from '../util/storage-failure.js';
import { checkClass, type ScanClass } from './scan-classes.js';
import type { ScanItem } from './scan-list.js';

export interface ScanResult {
  name: string;
  target: string;
  commit: string | null;
  class: ScanClass;
  /** What decided the class, in a line or a few (the check's first error, the synthesis's rejections). */
  detail: string;
  language?: string;
  runner?: string;
  tests?: number;
  runSeconds?: number[];
  checkSeconds?: number;
  candidates?: number;
  valid?: number;
  /** Rejected candidates by reason (no-f2p, timeout, ...). */
  rejected?: Record<string, number>;
  referenceSolved?: number;
  emptyPassed?: number;
  seconds: number;
  finishedAt: string;
}

export interface ScanOptions {
  store: Store;
  dataDir: string;
  runtime: Runtime;
  outDir: string;
  workers: number;
  /** Procedural candidates the probe tries at most (it stops at WANTED valid tasks). */
  probe: number;
  seed: number;
  onStart?: (item: ScanItem) => void;
  onResult?: (r: ScanResult, done: number, total: number) => void;
  onProgress?: (item: ScanItem, step: string) => void;
}

export const RESULTS_FILE = 'results.jsonl';

/** The probe's rounds: candidates each, and the valid tasks that end it early. */
const ROUND = 4;
const WANTED = 3;

/** Results already written (a line cut off by a kill is ignored, and its repository scanned again). */
export function readResults(outDir: string): ScanResult[] {
  const path = join(outDir, RESULTS_FILE);
  if (!existsSync(path)) return [];
  const out: ScanResult[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue; // a last line cut off mid-write
    }
    if (isScanResult(parsed)) out.push(parsed);
  }
  return out;
}

function isScanResult(x: unknown): x is ScanResult {
  return isRecord(x) && typeof x.name === 'string' && typeof x.class === 'string' && typeof x.finishedAt === 'string';
}

/** Scans the items not yet in results.jsonl, `workers` at a time; returns every result, old and new. */
export async function scanRepositories(items: ScanItem[], opts: ScanOptions): Promise<ScanResult[]> {
  mkdirSync(opts.outDir, { recursive: true });
  const done = new Map(readResults(opts.outDir).map((r) => [r.name, r]));
  const todo = items.filter((i) => !done.has(i.name));
  let finished = items.length - todo.length;
  await pool(todo, opts.workers, async (item) => {
    opts.onStart?.(item);
    const r = await scanOne(item, opts);
    // Only kept repositories stay registered (for train --envs, synth, and the catalogue).
    if (r.class !== 'kept' && ownedByScan(opts, item)) opts.store.removeEnvironment(item.name);
    appendFileSync(join(opts.outDir, RESULTS_FILE), `${JSON.stringify(r)}\n`);
    done.set(item.name, r);
    opts.onResult?.(r, ++finished, items.length);
  });
  return items.map((i) => done.get(i.name)).filter((r): r is ScanResult => r !== undefined);
}

function sourceOf(opts: ScanOptions, item: ScanItem): string {
  return join(opts.outDir, 'sources', item.name);
}

/** True when the registration under the item's name is this scan's (a user's own environment is never replaced). */
function ownedByScan(opts: ScanOptions, item: ScanItem): boolean {
  const r = registeredEnvironment(opts.store, item.name);
  return r !== undefined && r.origin === `env add ${sourceOf(opts, item)}`;
}

async function cloneAt(item: ScanItem, dir: string): Promise<string> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, '..'), { recursive: true });
  await git(['clone', '-q', '--no-checkout', item.target, dir], { timeoutMs: 600_000 });
  await git(['checkout', '-q', '--detach', item.commit ?? 'HEAD'], { cwd: dir, timeoutMs: 300_000 });
  return (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
}

async function scanOne(item: ScanItem, opts: ScanOptions): Promise<ScanResult> {
  const t0 = performance.now();
  const base = { name: item.name, target: item.target, commit: item.commit ?? null };
  const finish = (r: Partial<ScanResult> & { class: ScanClass; detail: string }): ScanResult => ({
    ...base,
    ...r,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    finishedAt: new Date().toISOString(),
  });
  const step = (s: string) => opts.onProgress?.(item, s);
  try {
    if (registeredEnvironment(opts.store, item.name) && !ownedByScan(opts, item)) {
      return finish({
        class: 'scan-error',
        detail: `an environment named "${item.name}" is already registered, not by this scan: give this repository another name in the list`,
      });
    }
    step('cloning');
    const dir = sourceOf(opts, item);
    try {
      base.commit = await cloneAt(item, dir);
    } catch (err) {
      return finish({ class: 'clone-failed', detail: errorMessage(err).split('\n')[0]! });
    }
    step('adding');
    let spec;
    let runner: string | undefined;
    try {
      const added = await addEnvironment(opts.store, dir, { name: item.name, force: true });
      spec = added.spec;
      runner = added.inferred?.runner;
    } catch (err) {
      if (err instanceof UserError) return finish({ class: 'not-inferred', detail: err.message });
      throw err;
    }
    const described = { language: spec.language, ...(runner ? { runner } : {}) };
    step('checking');
    const env = findEnvironment(opts.store, item.name);
    const c0 = performance.now();
    const check = await checkEnvironment(env, { dataDir: opts.dataDir, runtime: opts.runtime, onProgress: (m) => step(m.replace(`${item.name}: `, '')) });
    opts.store.recordCheck(checkRecord(check));
    const checked = {
      ...described,
      tests: check.total,
      runSeconds: check.runMs.map((ms) => Math.round(ms / 10) / 100),
      checkSeconds: Math.round((performance.now() - c0) / 100) / 10,
    };
    if (!check.accepted) return finish({ ...checked, class: checkClass(check, spec.setup), detail: check.reasons.join('\n') });
    return await probe(item, env, opts, checked, finish, step);
  } catch (err) {
    if (isStorageFailure(err, opts.dataDir) || isStorageFailure(err, opts.outDir)) throw err;
    return finish({ class: 'scan-error', detail: errorMessage(err).split('\n').slice(0, 3).join('\n') });
  }
}

/** The probe of an accepted environment: a small synthesis, then the reference fix and an empty change on each valid task. */
async function probe(
  item: ScanItem,
  env: LoadedEnv,
  opts: ScanOptions,
  checked: Partial<ScanResult>,
  finish: (r: Partial<ScanResult> & { class: ScanClass; detail: string }) => ScanResult,
  step: (s: string) => void,
): Promise<ScanResult> {
  const tasks: Task[] = [];
  // Rounds of ROUND candidates until WANTED are valid or --probe are tried: a fixed small probe
  // rejected a repository whose yield is one in four one time in ten (0.75^8).
  const validators = new Map<string, EnvValidator>();
  const sitesTaken = new Map<string, Set<string>>();
  const outcomes: Record<string, number> = {};
  let candidates = 0;
  for (let round = 0; candidates < opts.probe && tasks.length < WANTED; round++) {
    const n = Math.min(ROUND, opts.probe - candidates);
    step(`synthesizing: ${tasks.length} valid of ${candidates}, ${n} more`);
    const stats = await synthesize({
      envs: [env],
      n,
      strategies: ['procedural'],
      workers: 1,
      seed: deriveSeed(opts.seed, 'probe', round),
      hint: 'symptom',
      // Training's ladder has rungs of both: a bug that fails one visible test and no check is a task only with its test hidden.
      visibility: round % 2 === 0 ? 'visible' : 'hidden',
      outDir: join(opts.outDir, 'tasks', item.name),
      dataDir: opts.dataDir,
      runtime: opts.runtime,
      validators,
      sitesTaken,
      onTask: (t) => tasks.push(t),
    });
    const counts = stats.byEnv[item.name];
    if (!counts || counts.candidates === 0) break; // no operator has a site: more rounds make nothing
    candidates += counts.candidates;
    for (const [k, v] of Object.entries(counts.outcomes)) outcomes[k] = (outcomes[k] ?? 0) + (v ?? 0);
  }
  const rejected = Object.fromEntries(Object.entries(outcomes).filter(([k]) => k !== 'valid'));
  const synthesized = { ...checked, candidates, valid: tasks.length, rejected };
  if (tasks.length === 0) {
    const why = Object.entries(rejected)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    return finish({ ...synthesized, class: 'no-valid-task', detail: `0 of ${synthesized.candidates} candidates valid (${why || 'none made'})` });
  }
  const built = await buildEnvironment(env, { dataDir: opts.dataDir, runtime: opts.runtime });
  const byTask = new Map(tasks.map((t) => [t.id, built]));
  const grade = async (label: string, model: (t: Task) => Promise<ScriptedModel>) => {
    step(`grading ${tasks.length} tasks with ${label}`);
    const results = await runEval({
      tasks,
      built: byTask,
      models: { forEpisode: ({ task }) => model(task) },
      attempts: 1,
      seed: opts.seed,
      workers: 1,
      runtime: opts.runtime,
      dataDir: opts.dataDir,
    });
    return results.filter((r) => r.attempts[0]?.reward === 1).map((r) => r.id);
  };
  const solved = await grade('the reference fix', async (t) => oracleModel(await referenceFiles(t, built.snapshot)));
  const empty = await grade('an empty change', async () => new ScriptedModel([{ content: 'Scripted no-op: submitting without a change.' }], { name: 'noop' }));
  const graded = { ...synthesized, referenceSolved: solved.length, emptyPassed: empty.length };
  if (empty.length > 0) return finish({ ...graded, class: 'empty-change-passes', detail: `an empty change earned 1 on ${empty.join(', ')}` });
  if (solved.length < tasks.length) {
    const failed = tasks.filter((t) => !solved.includes(t.id)).map((t) => t.id);
    return finish({ ...graded, class: 'reference-fails', detail: `the reference fix did not earn 1 on ${failed.join(', ')}` });
  }
  return finish({ ...graded, class: 'kept', detail: `${tasks.length} of ${synthesized.candidates} candidates valid; every reference fix earns 1` });
}
