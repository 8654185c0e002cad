// Running a protocol in chunks: each cell is a training run in its own directory (resumable step by step), then its
// hand-written score; a finished cell leaves result.json and is never run again. A chunk stops at its time limit
// (the running cell checkpoints and stops after its step) and the next invocation picks up where it stopped.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isStorageFailure } from '../util/storage-failure.js';
import { join } from 'node:path';
import { buildEnvironment } from '../env/build.js';
import { isSuccess } from '../curriculum/probe.js';
import type { LoadedEnv } from '../env/load.js';
import type { ResultReuse } from '../grading/reuse.js';
import { EmbeddedLearner } from '../policy/learner.js';
import { rolloutWithRetry } from '../rl/rollout.js';
import type { Learner } from '../rl/contract.js';
import type { Runtime } from '../runtime/types.js';
import { readTasks } from '../task/io.js';
import type { Task } from '../task/task.js';
import type { HandwrittenBug } from '../taskpilot/handwritten.js';
import { synthesizeHandwritten } from '../taskpilot/synth.js';
import type { TrainConfig } from '../train/config.js';
import { solveRate } from '../train/heldout.js';
import { train, type TrainEvent } from '../train/trainer.js';
import { deriveSeed } from '../util/rng.js';
import { rate } from '../util/stats.js';
import { errorMessage, UserError } from '../util/errors.js';
import { clearFailures, countedTries, failuresPath, FAILURES_IN_A_ROW, markShared, MAX_TRIES, readFailures, recordFailure } from './failures.js';
import { cellConfig, cellDir, cellsOf, type Cell, type Protocol } from './protocol.js';
import { isCellResult, onSchedule, type CellResult } from './result.js';
import { waitsForNextChunk } from './pace.js';
import { writeJsonAtomic } from '../util/atomic-json.js';

export interface EvidenceDeps {
  envs: Map<string, LoadedEnv>;
  runtime: Runtime;
  /** Where every cell's run, the shared task banks and the results go. */
  outDir: string;
  /** The hand-written bugs (scored when the protocol asks for them). */
  handwritten: readonly HandwrittenBug[];
  reuse?: ResultReuse;
  /** This invocation's time: no cell starts after it, and the running one stops at its next step boundary. */
  hours: number;
  /** Run only these held-out environments' cells (a machine's share when several split a protocol); default all. */
  heldOut?: readonly string[];
  /** The learner every cell trains: the embedded policy by default, or a language model through the Tinker API. */
  learner?: { config: Pick<TrainConfig, 'learner' | 'lm'>; make: (cfg: TrainConfig, cell: Cell) => Learner<unknown> };
  log: (line: string) => void;
  onTrainEvent?: (cell: Cell, e: TrainEvent) => void;
}

export interface ChunkOutcome {
  results: CellResult[];
  total: number;
  /** Cells left for a later invocation. */
  left: number;
  minutes: number;
  /** Cells that failed in this invocation, with why. */
  failed: { cell: string; message: string }[];
  /** Cells given up on after MAX_TRIES failures (a later invocation skips them until their failures file is removed). */
  givenUp: string[];
  /** Why the chunk stopped early, when failures in a row stopped it. */
  halted?: string;
}

/** The wall-clock time, for log lines of a job that runs for hours. */
const clock = () => new Date().toISOString().slice(11, 19);

export const resultPath = (outDir: string, cell: Cell) => join(cellDir(outDir, cell.id), 'result.json');

/** Results of the cells finished so far, their evaluations as scheduled (a malformed file is skipped and reported). */
export function readResults(p: Protocol, outDir: string, log: (line: string) => void = () => {}): CellResult[] {
  const out: CellResult[] = [];
  for (const cell of cellsOf(p)) {
    const path = resultPath(outDir, cell);
    if (!existsSync(path)) continue;
    let data: unknown = null;
    try {
      data = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      // Unreadable (a crash while writing it): the cell's run is finished and checkpointed, so rerunning it only rescores.
    }
    if (isCellResult(data)) out.push(onSchedule(data, p.evalEvery));
    else log(`${path} is not a cell result of this version: that cell will run again`);
  }
  return out;
}

export async function runChunk(p: Protocol, deps: EvidenceDeps): Promise<ChunkOutcome> {
  const t0 = performance.now();
  const leftMin = () => deps.hours * 60 - (performance.now() - t0) / 60_000;
  const cells = cellsOf(p).filter((c) => !deps.heldOut || deps.heldOut.includes(c.group.heldOut));
  const results = readResults(p, deps.outDir, deps.log);
  const ours = new Set(cells.map((c) => c.id));
  const done = new Set(results.map((r) => r.cell).filter((id) => ours.has(id)));
  const failed: ChunkOutcome['failed'] = [];
  const givenUp: string[] = [];
  const inARow: string[] = [];
  let halted: string | undefined;
  for (const cell of cells) {
    if (done.has(cell.id)) continue;
    const runDir = cellDir(deps.outDir, cell.id);
    const before = readFailures(runDir);
    if (countedTries(before) >= MAX_TRIES) {
      givenUp.push(cell.id);
      deps.log(
        `skipping ${cell.id}: it failed ${countedTries(before)} times (last: ${before.at(-1)!.message}); remove ${failuresPath(runDir)} to try it again`,
      );
      continue;
    }
    if (leftMin() <= 0) break;
    const wait = waitsForNextChunk(cell, cells, deps.outDir, (env) => deps.envs.get(env)?.spec.language, leftMin());
    if (wait) {
      deps.log(wait);
      break;
    }
    deps.log(`cell ${cells.indexOf(cell) + 1}/${cells.length}: ${cell.id} (${done.size} done; ${clock()})`);
    let result: CellResult | null;
    try {
      result = await runCell(p, cell, deps, leftMin());
    } catch (err) {
      // A full or read-only disk is no cell's fault: the whole chunk stops and says so (cli/main.ts).
      if (isStorageFailure(err, deps.outDir)) throw err;
      // A user's error (a wrong engine address) keeps its hint: the log line is all the user sees of it.
      const message = err instanceof UserError && err.hint ? `${errorMessage(err)} (${err.hint})` : errorMessage(err);
      const tries = countedTries(recordFailure(runDir, message));
      failed.push({ cell: cell.id, message });
      deps.log(`${cell.id} failed (try ${tries} of ${MAX_TRIES}): ${message}; its run keeps every step it saved, and the next invocation tries it again`);
      if (tries >= MAX_TRIES) givenUp.push(cell.id);
      inARow.push(cell.id);
      if (inARow.length >= FAILURES_IN_A_ROW) {
        // The cause is shared (an engine that stays down): these failures are not the cells' tries, so none is given up for it.
        for (const id of inARow) if (markShared(cellDir(deps.outDir, id)) < MAX_TRIES && givenUp.includes(id)) givenUp.splice(givenUp.indexOf(id), 1);
        halted = `${inARow.length} cells failed in a row, which points at something they share (an engine, the runtime, the data directory); these failures do not count toward the cells' ${MAX_TRIES} tries`;
        break;
      }
      continue;
    }
    inARow.length = 0;
    if (!result) break; // stopped by the chunk's time: resumes next invocation
    writeJsonAtomic(resultPath(deps.outDir, cell), result, 2);
    clearFailures(runDir);
    deps.log(
      `${cell.id} done: held-out ${rate(result.final.solved, result.final.attempts)}, hand-written ${rate(result.handwritten.solved, result.handwritten.attempts)}, ${result.minutes.toFixed(1)} min`,
    );
    results.push(onSchedule(result, p.evalEvery));
    done.add(cell.id);
  }
  return {
    results,
    total: cells.length,
    left: cells.length - done.size,
    minutes: (performance.now() - t0) / 60_000,
    failed,
    givenUp,
    ...(halted ? { halted } : {}),
  };
}

/** One cell: its training run (resumed when it has a state), then the final policy on the hand-written bugs. Null when stopped by time. */
async function runCell(p: Protocol, cell: Cell, deps: EvidenceDeps, minutesLeft: number): Promise<CellResult | null> {
  // A fraction of a minute left still makes one step: the time limit counts from the invocation.
  const cfg = cellConfig(p, cell, Math.max(0.01, minutesLeft), deps.learner?.config);
  const runDir = cellDir(deps.outDir, cell.id);
  const bankDir = join(deps.outDir, 'banks', cell.group.heldOut);
  const learner = deps.learner?.make(cfg, cell) ?? new EmbeddedLearner(cfg);
  const state = await train(cfg, {
    envs: deps.envs,
    runtime: deps.runtime,
    dataDir: deps.outDir,
    runDir,
    bankDir,
    runName: `evidence-${cell.id}`,
    learner,
    ...(deps.reuse ? { reuse: deps.reuse } : {}),
    onEvent: (e) => deps.onTrainEvent?.(cell, e),
  });
  if (state.stop === 'time-limit' || state.stop === 'interrupted') return null;
  const t1 = performance.now();
  const handwritten = p.handwrittenAttempts > 0 ? await scoreHandwritten(p, cell, cfg, learner, deps) : { solved: 0, attempts: 0, byTask: {} };
  const last = state.heldOut.at(-1);
  return {
    schema: 'frognano.evidence-cell/v1',
    cell: cell.id,
    heldOutEnv: cell.group.heldOut,
    arm: cell.arm.name,
    seed: cell.seed,
    rollouts: state.rolloutsUsed,
    stop: state.stop ?? 'steps',
    heldOut: state.heldOut.map(({ reachByTask: _, ...point }) => point),
    final: { solved: last?.solved ?? 0, attempts: last?.attempts ?? 0 },
    handwritten,
    ...(state.forgetting ? { forgetting: state.forgetting } : {}),
    probeRollouts: state.probeRollouts ?? 0,
    calibration: state.predictor?.calibration ?? [],
    groups: state.groups.total,
    degenerate: state.groups.degenerate,
    minutes: (state.elapsedMs + performance.now() - t1) / 60_000,
  };
}

/** The hand-written bugs of the group's environments as tasks, validated once into a bank every cell shares. */
async function handwrittenTasks(cell: Cell, deps: EvidenceDeps): Promise<Task[]> {
  const envNames = [cell.group.heldOut, ...cell.group.train];
  const dir = join(deps.outDir, 'banks', 'handwritten');
  mkdirSync(dir, { recursive: true });
  const have = readTasks(dir);
  const missing = envNames.filter((e) => !existsSync(join(dir, `.${e}.done`)));
  if (missing.length) {
    deps.log(`validating the hand-written bugs of ${missing.join(', ')}`);
    const stats = await synthesizeHandwritten(deps.handwritten, {
      envs: missing.map((e) => deps.envs.get(e)!),
      workers: 2,
      outDir: dir,
      dataDir: deps.outDir,
      runtime: deps.runtime,
    });
    for (const r of stats.rejections) deps.log(`hand-written bug rejected: ${r.env} ${r.outcome}: ${r.detail}`);
    for (const e of missing) writeFileSync(join(dir, `.${e}.done`), '');
    have.push(...stats.tasks);
  }
  return have.filter((t) => envNames.includes(t.env.name)).sort((a, b) => a.id.localeCompare(b.id));
}

async function scoreHandwritten(p: Protocol, cell: Cell, cfg: TrainConfig, learner: Learner<unknown>, deps: EvidenceDeps): Promise<CellResult['handwritten']> {
  const tasks = await handwrittenTasks(cell, deps);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const byTask: Record<string, number> = {};
  const builts = new Map<string, ReturnType<typeof buildEnvironment>>();
  const policy = learner.policy();
  const got = await solveRate(
    tasks.map((t) => t.id),
    { ...cfg, evalRollouts: p.handwrittenAttempts },
    (id) => byId.get(id),
    async (task, seed) => {
      let built = builts.get(task.env.name);
      if (!built) builts.set(task.env.name, (built = buildEnvironment(deps.envs.get(task.env.name)!, { dataDir: deps.outDir, runtime: deps.runtime })));
      const ctx = { built: await built, runtime: deps.runtime, dataDir: deps.outDir, ...(deps.reuse ? { reuse: deps.reuse } : {}) };
      const res = await rolloutWithRetry(task, (attempt) => policy.actor({ seed: deriveSeed(seed, attempt) }), ctx, policy.version);
      if (res.reward !== null) byTask[task.id] = (byTask[task.id] ?? 0) + (isSuccess(res.reward) ? 1 : 0);
      return res;
    },
    () => {},
  );
  return { solved: got.solved, attempts: got.attempts, byTask };
}
