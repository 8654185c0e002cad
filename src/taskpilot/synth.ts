// `synth`: generate candidates in each environment, validate them in parallel
// sandboxed workspaces, write the valid ones as task directories, and count
// everything (per strategy and per operator) for the yield table.
import { buildEnvironment, type BuiltEnv } from '../env/build.js';
import type { LoadedEnv } from '../env/load.js';
import type { ChatClient } from '../model/openai.js';
import type { Runtime } from '../runtime/types.js';
import { writeTask, taskId } from '../task/io.js';
import type { BugEdit, HintLevel, Strategy, Task, TestVisibility } from '../task/task.js';
import { TASK_SCHEMA } from '../task/task.js';
import { chooseHeldBack } from '../grading/holdback.js';
import { fileDiff, patchFiles } from '../util/diff.js';
import { matchesAny } from '../util/glob.js';
import { deriveSeed, rng } from '../util/rng.js';
import { pool, type Workers } from '../util/pool.js';
import type { Candidate } from './candidate.js';
import { combineCandidates } from './combine.js';
import { instructionLeaks, llmInstruction, writeInstruction } from './instructions.js';
import type { LlmGenerator } from './llm.js';
import { proceduralAttempts } from './procedural/generate.js';
import { sourceFiles } from './sources.js';
import { reachedByTests } from './reachable.js';
import { EnvValidator, pytestIdFile, type CheckChange, type RejectReason } from './validate.js';
import { handwrittenCandidate, type HandwrittenBug } from './handwritten.js';
import { isStorageFailure } from '../util/storage-failure.js';
import { errorMessage } from '../util/errors.js';

export const STRATEGIES: Strategy[] = ['procedural', 'combine', 'llm-modify', 'llm-rewrite', 'handwritten'];

export interface SynthOptions {
  envs: LoadedEnv[];
  /** Candidates per environment and strategy. */
  n: number;
  strategies: Strategy[];
  /** Validations in parallel; a function lets the number grow (training's restocking once its batch is done). */
  workers: Workers;
  seed: number;
  hint: HintLevel;
  visibility: TestVisibility;
  outDir: string;
  dataDir: string;
  runtime: Runtime;
  operators?: string[];
  llm?: LlmGenerator;
  /** A model that writes the issue text in place of the template writer. */
  issueWriter?: ChatClient;
  referenceRuns?: number;
  candidateRuns?: number;
  onProgress?: (s: SynthStats) => void;
  onTask?: (t: Task) => void;
  /**
   * Validators kept across calls, by environment hash: online synthesis calls
   * synthesize() often, and each validator runs the reference suite once.
   */
  validators?: Map<string, EnvValidator>;
  /** Procedural sites already picked, by environment hash: calls sharing it (a probe's rounds) never pick one twice. */
  sitesTaken?: Map<string, Set<string>>;
  /** Where a candidate's checks run (a queue's workers); in this process by default. */
  checkVia?: (built: BuiltEnv) => CheckChange;
  /** Bugs written by hand (strategy 'handwritten'; handwritten.ts). */
  handwritten?: readonly HandwrittenBug[];
  /** Patch keys of bugs already stored for an environment: duplicates are rejected. */
  knownBugKeys?: (env: string) => string[];
}

export type Outcome = RejectReason | 'no-site' | 'unparseable' | 'no-change' | 'no-unseen-check' | 'valid';

export interface Counts {
  candidates: number;
  applied: number;
  valid: number;
  outcomes: Partial<Record<Outcome, number>>;
}

export interface SynthStats {
  byStrategy: Record<string, Counts>;
  byOperator: Record<string, Counts>;
  byEnv: Record<string, Counts>;
  planned: number;
  done: number;
  tasks: Task[];
  errors: string[];
  /** Every rejected candidate with why (the first MAX_REJECTIONS; counts above hold them all). */
  rejections: Rejection[];
}

export interface Rejection {
  env: string;
  strategy: string;
  operators: string[];
  outcome: Exclude<Outcome, 'valid'>;
  detail: string;
}

export const MAX_REJECTIONS = 2000;

const NO_CANDIDATE: Record<string, string> = {
  'no-site': 'the operator found no place to change in the sampled file',
  unparseable: 'the changed file does not parse',
  'no-change': 'the edit left the code as it was',
};

function counts(): Counts {
  return { candidates: 0, applied: 0, valid: 0, outcomes: {} };
}

function tally(stats: SynthStats, keys: { strategy: string; operators: string[]; env: string }, outcome: Outcome, detail?: string): void {
  if (outcome !== 'valid' && stats.rejections.length < MAX_REJECTIONS) {
    stats.rejections.push({ ...keys, outcome, detail: (detail ?? NO_CANDIDATE[outcome] ?? outcome).split('\n')[0]!.slice(0, 500) });
  }
  const targets = [
    (stats.byStrategy[keys.strategy] ??= counts()),
    (stats.byEnv[keys.env] ??= counts()),
    ...keys.operators.map((op) => (stats.byOperator[op] ??= counts())),
  ];
  for (const c of targets) {
    c.candidates++;
    if (!['no-site', 'unparseable', 'no-change'].includes(outcome)) c.applied++;
    if (outcome === 'valid') c.valid++;
    c.outcomes[outcome] = (c.outcomes[outcome] ?? 0) + 1;
  }
  stats.done++;
}

function patches(files: Candidate['files']): { bugPatch: string; fixPatch: string; originals: Record<string, string> } {
  const rels = Object.keys(files).sort();
  return {
    bugPatch: rels.map((r) => fileDiff(r, files[r]!.before, files[r]!.after)).join(''),
    fixPatch: rels.map((r) => fileDiff(r, files[r]!.after, files[r]!.before)).join(''),
    originals: Object.fromEntries(rels.map((r) => [r, files[r]!.before])),
  };
}

/** The test file of a test id: pytest ids carry it (a mocha suite title before "::" is none); TAP ids get it from the failure location. */
/**
 * Whether a failing test's file can be withheld from the agent: only a test file, never code. A doctest's file is the
 * module it documents, and a file the bug edits is where the fix goes; hiding either left the fix unwritable.
 */
function hideable(file: string, testPaths: readonly string[], bugPatch: string): boolean {
  // A package's __init__.py or a conftest.py holds more than tests: hiding it would break imports of the rest.
  if (/(^|\/)(__init__|conftest)\.py$/.test(file)) return false;
  return matchesAny(file, testPaths) && !patchFiles(bugPatch).includes(file);
}

function testFileOf(id: string, known: Record<string, string>): string | undefined {
  return known[id] ?? pytestIdFile(id);
}

async function validateOne(c: Candidate, v: EnvValidator, built: BuiltEnv, opts: SynthOptions, stats: SynthStats): Promise<Task | null> {
  const keys = { strategy: c.strategy, operators: c.operators, env: c.env };
  const change = patches(c.files);
  const verdict = await v.validate(change);
  if (!verdict.valid) {
    tally(stats, keys, verdict.reason, verdict.detail);
    return null;
  }
  const spec = built.env.spec;
  const files = verdict.f2p.map((id) => testFileOf(id, verdict.testFiles));
  const canHide = opts.visibility === 'hidden' && files.every((f) => f !== undefined && hideable(f, spec.testPaths, change.bugPatch));
  // Where the failing tests stay visible, some are held back for grading alone; the instruction names only the rest.
  const heldBack = canHide ? [] : await chooseHeldBack(built.snapshot, spec, verdict.f2p, rng(deriveSeed('held-back', change.bugPatch)));
  // Every failing test in sight and no check generated from the fix: returning the visible outputs for their inputs would earn 1.
  // Hand-written bugs are for evaluation alone, where nothing is trained on the reward: they are kept.
  if (c.strategy !== 'handwritten' && !canHide && heldBack.length === 0 && !verdict.grading.checks?.length) {
    tally(
      stats,
      keys,
      'no-unseen-check',
      `no test the agent cannot see: a single failing test and no generated check (${verdict.grading.noChecks ?? 'no honeypot or check could be laid out'})`,
    );
    return null;
  }
  const visible = verdict.f2p.filter((id) => !heldBack.includes(id));
  const input = { envName: spec.name, language: spec.language, f2p: visible, failures: verdict.failures, hint: opts.hint };
  let instruction: string;
  try {
    instruction = c.issue ?? (opts.issueWriter ? await llmInstruction(opts.issueWriter, input, change.bugPatch) : writeInstruction(input));
  } catch (err) {
    tally(stats, keys, 'infra', `the issue writer failed: ${errorMessage(err)}`);
    return null;
  }
  const leaks = instructionLeaks(instruction, change.fixPatch);
  if (leaks.length > 0) {
    tally(stats, keys, 'leak', `the instruction gives away the fix: ${leaks.slice(0, 3).join(', ')}`);
    return null;
  }
  const task: Task = {
    schema: TASK_SCHEMA,
    id: taskId(spec.name, c.strategy, change.bugPatch),
    env: { name: spec.name, hash: built.hash, spec },
    bugPatch: change.bugPatch,
    fixPatch: change.fixPatch,
    instruction,
    FAIL_TO_PASS: verdict.f2p,
    PASS_TO_PASS: verdict.p2p,
    hiddenFiles: canHide ? [...new Set(files.filter((f): f is string => Boolean(f)))].sort() : [],
    ...(heldBack.length ? { heldBack } : {}),
    grading: verdict.grading,
    knobs: {
      bugs: c.parents?.length ?? 1,
      hint: opts.hint,
      visibility: canHide ? 'hidden' : 'visible',
      families: [...new Set(c.edits.map((e) => e.family))].sort(),
    },
    provenance: {
      strategy: c.strategy,
      edits: c.edits,
      seeds: c.seeds,
      ...(c.parents ? { parents: c.parents } : {}),
      ...(c.model ? { model: c.model } : {}),
    },
    stats: {
      createdAt: new Date().toISOString(),
      validation: {
        referenceRuns: opts.referenceRuns ?? 3,
        candidateRuns: opts.candidateRuns ?? 2,
        droppedFlaky: verdict.dropped,
        candidateMs: Math.round(verdict.candidateMs),
      },
    },
  };
  writeTask(opts.outDir, task);
  tally(stats, keys, 'valid');
  stats.tasks.push(task);
  opts.onTask?.(task);
  return task;
}

interface EnvWork {
  built: BuiltEnv;
  validator: EnvValidator;
  candidates: Candidate[];
  /** Single-bug candidates of this env with their files, kept for combination. */
  singles: { task: Task; files: Candidate['files']; edits: BugEdit[] }[];
}

/** Hand-written bugs validated into tasks: the issue text is the instruction, the tests stay visible as in a real repository. */
export function synthesizeHandwritten(
  bugs: readonly HandwrittenBug[],
  opts: Pick<SynthOptions, 'envs' | 'workers' | 'outDir' | 'dataDir' | 'runtime'> & Partial<Pick<SynthOptions, 'referenceRuns' | 'candidateRuns'>>,
): Promise<SynthStats> {
  return synthesize({ ...opts, n: 0, strategies: ['handwritten'], handwritten: bugs, seed: 0, hint: 'symptom', visibility: 'visible' });
}

export async function synthesize(opts: SynthOptions): Promise<SynthStats> {
  const stats: SynthStats = { byStrategy: {}, byOperator: {}, byEnv: {}, planned: 0, done: 0, tasks: [], errors: [], rejections: [] };
  const works: EnvWork[] = [];
  for (const env of opts.envs) {
    let built: BuiltEnv;
    try {
      built = await buildEnvironment(env, { dataDir: opts.dataDir, runtime: opts.runtime });
    } catch (err) {
      if (isStorageFailure(err, opts.dataDir)) throw err; // the disk, not this candidate or rollout: the command stops and says so
      stats.errors.push(`${env.spec.name}: ${errorMessage(err)}`);
      continue;
    }
    const validator =
      opts.validators?.get(built.hash) ??
      new EnvValidator(built, opts.runtime, opts.dataDir, {
        ...(opts.referenceRuns !== undefined ? { referenceRuns: opts.referenceRuns } : {}),
        ...(opts.candidateRuns !== undefined ? { candidateRuns: opts.candidateRuns } : {}),
        ...(opts.checkVia ? { check: opts.checkVia(built) } : {}),
      });
    opts.validators?.set(built.hash, validator);
    validator.remember(opts.knownBugKeys?.(env.spec.name) ?? []);
    const files = sourceFiles(built.snapshot, env.spec);
    // Generated bugs go where the tests' imports reach (reachable.ts); all files where the reading finds none.
    const reached = reachedByTests(built.snapshot, env.spec, files);
    const targets = reached ? files.filter((f) => reached.has(f.rel)) : files;
    const candidates: Candidate[] = [];
    if (opts.strategies.includes('procedural')) {
      for await (const a of proceduralAttempts(targets, {
        n: opts.n,
        seed: opts.seed,
        salt: env.spec.name,
        ...(opts.operators ? { operators: opts.operators } : {}),
        ...(opts.sitesTaken ? { taken: opts.sitesTaken.get(built.hash) ?? opts.sitesTaken.set(built.hash, new Set()).get(built.hash)! } : {}),
      })) {
        if (a.candidate) {
          candidates.push({
            env: env.spec.name,
            strategy: 'procedural',
            operators: [a.operator],
            edits: [a.candidate.edit],
            seeds: [a.seed],
            files: a.candidate.files,
          });
        } else {
          tally(stats, { strategy: 'procedural', operators: [a.operator], env: env.spec.name }, a.failure!);
          stats.planned++;
        }
      }
    }
    if (opts.strategies.includes('handwritten')) {
      for (const bug of opts.handwritten ?? []) {
        if (bug.env !== env.spec.name) continue;
        const made = handwrittenCandidate(bug, files);
        if ('error' in made) {
          stats.errors.push(made.error);
          tally(stats, { strategy: 'handwritten', operators: ['handwritten'], env: env.spec.name }, 'apply-failed', made.error);
          stats.planned++;
        } else candidates.push(made);
      }
    }
    for (const strategy of ['llm-modify', 'llm-rewrite'] as const) {
      if (!opts.strategies.includes(strategy)) continue;
      if (!opts.llm) throw new Error(`strategy ${strategy} needs a model: pass --model and --base-url`);
      for (let i = 0; i < opts.n; i++) {
        stats.planned++;
        const made = await opts.llm.generate(strategy, targets, { seed: opts.seed, salt: env.spec.name, index: i });
        if ('failure' in made) tally(stats, { strategy, operators: [strategy], env: env.spec.name }, made.failure);
        else
          candidates.push({
            env: env.spec.name,
            strategy,
            operators: [strategy],
            edits: [made.edit],
            seeds: [made.seed],
            files: made.files,
            model: opts.llm.model,
          });
        stats.planned--;
        opts.onProgress?.(stats);
      }
    }
    stats.planned += candidates.length;
    works.push({ built, validator, candidates, singles: [] });
  }

  // Combinations are counted in the plan up front (at most n per environment),
  // so progress never runs backwards when they are made.
  const reserved = opts.strategies.includes('combine') ? works.length * opts.n : 0;
  stats.planned += reserved;

  // Phase 1: single bugs, every environment's candidates through one pool of workers.
  const jobs = works.flatMap((w) => w.candidates.map((c, k) => ({ w, c, k })));
  await pool(jobs, opts.workers, async ({ w, c, k }) => {
    try {
      const task = await validateOne(c, w.validator, w.built, opts, stats);
      // By candidate, not by which validation finished first: combinations are drawn from this list.
      if (task) w.singles[k] = { task, files: c.files, edits: c.edits };
    } catch (err) {
      if (isStorageFailure(err, opts.dataDir)) throw err; // the disk, not this candidate or rollout: the command stops and says so
      stats.errors.push(`${c.env}: ${errorMessage(err).split('\n')[0]}`);
      tally(stats, { strategy: c.strategy, operators: c.operators, env: c.env }, 'infra', errorMessage(err));
    }
    opts.onProgress?.(stats);
  });

  // Phase 2: combinations of validated bugs of one environment (2 to 4 each).
  if (opts.strategies.includes('combine')) {
    const combos = works.flatMap((w) =>
      combineCandidates(
        w.singles.filter((x) => x !== undefined),
        { n: opts.n, seed: opts.seed, salt: w.built.env.spec.name },
      ).map((c) => ({ w, c })),
    );
    stats.planned += combos.length - reserved;
    opts.onProgress?.(stats);
    await pool(combos, opts.workers, async ({ w, c }) => {
      try {
        await validateOne(c, w.validator, w.built, opts, stats);
      } catch (err) {
        if (isStorageFailure(err, opts.dataDir)) throw err; // the disk, not this candidate or rollout: the command stops and says so
        stats.errors.push(`${c.env}: ${errorMessage(err).split('\n')[0]}`);
        tally(stats, { strategy: c.strategy, operators: c.operators, env: c.env }, 'infra', errorMessage(err));
      }
      opts.onProgress?.(stats);
    });
  }
  return stats;
}
