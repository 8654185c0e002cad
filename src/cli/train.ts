// `frognano train`: online RL of the embedded policy on tasks synthesized at
// the frontier of learnability, with a live progress line, per-step metrics
// (JSONL beside the run and rows in the store) and resume after a crash.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { allEnvironments } from '../env/registry.js';
import { gateEnvironments } from './env-gate.js';
import { expandCatalogueEnvs } from './catalogue-envs.js';
import { selectRuntime } from '../runtime/select.js';
import { Store } from '../store/store.js';
import { DEFAULT_ATTEMPT_BUDGET_MB } from '../store/attempts.js';
import { startDashboard } from './serve.js';
import type { Dashboard } from '../serve/server.js';
import type { TrainConfig } from '../train/config.js';
import { OPERATOR_FAMILIES } from '../curriculum/knobs.js';
import { applicableFamilies } from '../train/supply.js';
import { EmbeddedLearner } from '../policy/learner.js';
import { loadState } from '../train/state.js';
import { train } from '../train/trainer.js';
import type { Learner } from '../rl/contract.js';
import { tinkerLearner } from './lm.js';
import { commandLine, numberFlag, stringFlag } from './flags.js';
import { trainConfig } from './train-options.js';

export { TRAIN_HELP, trainConfig } from './train-options.js';
import { UserError } from '../util/errors.js';
import { dataDir } from '../util/paths.js';
import { Progress } from '../util/progress.js';
import { heldOutRate, progressLine, stepLine, type Shown } from './train-report.js';
import { summaryLines } from './train-summary.js';
import { RunClock } from './run-clock.js';
import { settingsDiffer } from '../train/resume.js';
import { acquireLock, LOCK_FILE, type HeldLock } from '../util/lock.js';
import { untilStopSignal } from '../util/signals.js';
import { TrainStop } from './train-stop.js';
import type { CliContext } from './context.js';
import type { JobQueue } from '../queue/client.js';
import { openQueue, queueFlag, queueRunId } from './worker.js';

export async function trainCommand(ctx: CliContext): Promise<number> {
  const f = ctx.flags;
  const cfg = trainConfig(f, ctx.err);
  const dir = dataDir(stringFlag(f, 'data-dir'));
  const store = new Store(dir);
  let dash: Dashboard | undefined;
  let queue: JobQueue | undefined;
  let lock: HeldLock | undefined;
  let stop: TrainStop | undefined;
  try {
    const runtime = selectRuntime({ name: stringFlag(f, 'runtime') ?? 'auto', warn: ctx.err });
    // catalogue:FILTER names become the matching entries, added and checked on first use.
    if ([...cfg.envs, ...cfg.heldOut].some((n) => n.startsWith('catalogue:'))) {
      const expand = (names: string[]) => expandCatalogueEnvs(names, { store, dataDir: dir, runtime, say: ctx.err });
      cfg.envs = await expand(cfg.envs);
      cfg.heldOut = (await expand(cfg.heldOut)).filter((n) => !cfg.envs.includes(n));
    }
    const envs = new Map(allEnvironments(store).map((e) => [e.spec.name, e]));
    for (const name of [...cfg.envs, ...cfg.heldOut]) {
      if (!envs.has(name)) throw new UserError(`unknown environment "${name}"`, `known: ${[...envs.keys()].join(', ')}`);
    }
    gateEnvironments(
      store,
      [...new Set([...cfg.envs, ...cfg.heldOut])].map((n) => envs.get(n)!),
      { command: 'train', force: Boolean(f.force), warn: ctx.err },
    );
    for (const name of cfg.envs) {
      const language = envs.get(name)!.spec.language;
      if (applicableFamilies(language, cfg.families).length === 0) {
        throw new UserError(
          `no operator family of --families ${cfg.families.join(',')} applies to ${name} (${language})`,
          `${language} has ${applicableFamilies(language).join(', ')}`,
        );
      }
    }
    const runName = String(f.run ?? 'default');
    const runDir = join(dir, 'runs', runName);
    mkdirSync(runDir, { recursive: true });
    lock = acquireLock(runDir, `run "${runName}"`, commandLine(ctx), ctx.err);
    if (f.fresh) for (const name of readdirSync(runDir)) if (name !== LOCK_FILE) rmSync(join(runDir, name), { recursive: true, force: true });
    const prior = loadState(runDir);
    // Settings added since the run was saved take their defaults (a run saved
    // before --families existed used every family).
    const differs = prior ? settingsDiffer({ families: [...OPERATOR_FAMILIES], ...(prior.config as Partial<TrainConfig>) }, cfg) : [];
    if (differs.length) {
      throw new UserError(
        `run "${runName}" exists with other settings: ${differs.join('; ')}`,
        'rerun with the saved settings to resume, pass --fresh to start over, or pick another --run',
      );
    }
    const addr = queueFlag(f);
    // vLLM serves a learner's newest weights under one name: a worker could not be held to a version.
    if (addr && cfg.lm?.sampler === 'vllm') throw new UserError('--sampler vllm cannot run on queue workers', 'use --sampler tinker, or train without --queue');
    if (addr) {
      const opened = await openQueue(addr, queueRunId(runDir, runName), ctx.err);
      queue = opened.queue;
      if (cfg.workers === 0) {
        cfg.workers = Math.max(1, opened.slots);
        ctx.err(`workers: ${cfg.workers} rollouts in parallel (the queue's job slots; --workers to change)`);
      }
    }
    const keepMB = numberFlag(f['keep-mb'], '--keep-mb', DEFAULT_ATTEMPT_BUDGET_MB);
    dash = f.serve ? await startDashboard(ctx, store, dir) : undefined;
    const progress = new Progress(Boolean(f.json));
    const lastHeld = prior?.heldOut.at(-1);
    const shown: Shown = { reward: '-', held: lastHeld ? heldOutRate(lastHeld) : '-', rollouts: prior?.rolloutsUsed ?? 0 };
    const clock = new RunClock(cfg, prior?.elapsedMs ?? 0, prior?.rolloutsUsed ?? 0, prior?.step ?? 0);
    const log = (line: string) => {
      progress.done();
      ctx.err(line);
    };
    // Ctrl-C (or SIGTERM) once: the step in flight finishes and is saved; twice: stop at once, losing only that step.
    stop = new TrainStop({ runName, runDir, resume: commandLine(ctx, ['fresh']) }, prior?.step ?? 0, log);
    const stopping = stop;
    const learner: Learner<unknown> =
      cfg.learner === 'tinker'
        ? tinkerLearner(cfg.lm!, f, { name: runName, seed: cfg.seed, log, forWorkers: addr !== undefined })
        : (new EmbeddedLearner(cfg) as Learner<unknown>);
    const state = await train(cfg, {
      envs,
      runtime,
      dataDir: dir,
      runDir,
      bankDir: join(runDir, 'tasks'),
      runName,
      store,
      attemptBudgetMB: keepMB,
      learner,
      ...(queue ? { queue } : {}),
      stopAsked: () => stopping.asked(),
      onEvent: (e) => {
        if (e.kind === 'notice') log(e.text);
        if (e.kind === 'resume') ctx.err(`resuming run "${runName}" after step ${e.step} (${e.rollouts} rollouts done)`);
        if (e.kind === 'eval') {
          clock.evalDone();
          shown.held = heldOutRate(e);
          progress.done();
          const reach = e.reach === undefined ? '' : `, reach ${(100 * e.reach).toFixed(1)}%`;
          ctx.err(`held-out solve rate at step ${e.step} (${e.rollouts} rollouts): ${heldOutRate(e)}${reach}`);
        }
        if (e.kind === 'step') {
          const m = e.metrics;
          stopping.stepSaved(m.step);
          clock.stepDone({ rolloutsUsed: m.rollouts, evalMs: m.ms.eval, evaluated: m.heldOutSolveRate !== undefined });
          shown.reward = m.meanReward.toFixed(2);
          shown.rollouts = m.rollouts;
          progress.done();
          ctx.err(stepLine(m, clock.elapsedMs()));
        }
        if (e.kind === 'phase') {
          stopping.phase(e.step);
          clock.phase(e.step, e.phase);
          if (e.rollouts !== undefined) shown.rollouts = e.rollouts;
          progress.update(progressLine(e, cfg, shown, clock));
        }
      },
    });
    progress.done();
    learner.close?.();
    for (const line of summaryLines(state, cfg, { runName, runDir, invocationMs: clock.invocationMs(), json: Boolean(f.json) })) ctx.out(line);
    // The run is over: another invocation may take it while the dashboard stays up.
    lock.release();
    if (dash) {
      // The run is over; its pages stay up until the user is done with them.
      ctx.err('training finished; the dashboard stays up: press Ctrl-C to stop');
      stop.close();
      await untilStopSignal();
    }
    return stop.status();
  } finally {
    stop?.close();
    lock?.release();
    await dash?.close();
    await queue?.close();
    store.close();
  }
}
