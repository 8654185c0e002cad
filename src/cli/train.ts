// `frognano train`: online RL of the embedded policy on tasks synthesized at
// the frontier of learnability, with a live progress line, per-step metrics
// (JSONL beside the run and rows in the store) and resume after a crash.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { allEnvironments } from '../env/registry.js';
import { selectRuntime } from '../runtime/select.js';
import { Store } from '../store/store.js';
import { DEFAULT_ATTEMPT_BUDGET_MB } from '../store/attempts.js';
import { startDashboard } from './serve.js';
import type { Dashboard } from '../serve/server.js';
import { GATES } from '../curriculum/difficulty.js';
import { ABLATIONS, CURRICULA, LEARNED_WEIGHTS, LEARNERS, TRACKED_TASKS, TRAIN_DEFAULTS, type TrainConfig } from '../train/config.js';
import { OPERATOR_FAMILIES } from '../curriculum/knobs.js';
import { ADVANTAGE_METHODS } from '../rl/advantages.js';
import { applicableFamilies } from '../train/supply.js';
import { EmbeddedLearner } from '../policy/learner.js';
import { loadState } from '../train/state.js';
import { train } from '../train/trainer.js';
import type { Learner } from '../rl/contract.js';
import { LM_HELP, lmConfig, tinkerLearner } from './lm.js';
import { CREDIT_METHODS } from '../policy/update.js';
import { intFlag, numberFlag, stringFlag, workersFlag } from './flags.js';
import { UserError } from '../util/errors.js';
import { isOneOf } from '../util/guards.js';
import { dataDir } from '../util/paths.js';
import { Progress } from '../util/progress.js';
import { rate } from '../util/stats.js';
import { heldOutLines, heldOutRate, poolWords, progressLine, stopLine, type Shown } from './train-report.js';
import { RunClock } from './run-clock.js';
import { settingsDiffer } from '../train/resume.js';
import { acquireLock, LOCK_FILE, type HeldLock } from '../util/lock.js';
import { interceptSignals, signalStatus, type StopSignal } from '../util/signals.js';
import { commandLine } from './flags.js';
import type { CliContext } from './context.js';
import type { JobQueue } from '../queue/client.js';
import { openQueue, queueFlag, queueRunId } from './worker.js';

const D = TRAIN_DEFAULTS;
export const TRAIN_HELP = `Usage: frognano train [options]

Train the embedded policy (or, with --learner tinker, a language model) with
RL on tasks TaskPilot synthesizes online at the frontier of learnability
(pass rate between 0 and 1, aimed at --target). Held-out environments are
never trained on; their solve rate is measured before, during and after
training. Killed, or stopped by its time limit, and rerun with the same
--run, it resumes after the last finished step (--steps, --budget and
--time-limit may change then; other settings may not).

  --learner L          embedded (the embedded policy, default) or tinker (a language model
                       trained through the Tinker API; its options below)
  --run NAME           run name; state under <data-dir>/runs/NAME (default "default")
  --fresh              discard that run's state and start over
  --curriculum C       frontier (default), uniform (random valid tasks), static (filtered once)
  --gate G             what may skip a fresh task's admission probe: none (default), model (the
                       difficulty model's prediction, once warmed up) or greso (recent
                       uninformative probes of its knob setting, after GRESO)
  --ablate LIST        frontier parts to switch off, to measure what each carries: restock
                       (the first pool is all), weighting (equal chances), controller (random
                       knobs), probe (admit unprobed), replay (retired tasks never replayed)
  --envs LIST          training environments (default ${D.envs.join(',')})
  --held-out LIST      held-out environments (default ${D.heldOut.join(',')})
  --families LIST      operator families of training tasks, among those that apply to each
                       environment (default ${D.families.join(',')}; all: ${OPERATOR_FAMILIES.join(',')})
  --steps N            training steps at most (default ${D.steps})
  --budget N           rollouts at most, probes included (default ${D.budget})
  --batch B --group G  tasks per step and rollouts per task (default ${D.batch} x ${D.group})
  --track T            whose posteriors follow the policy's own figure after an update:
                       trained (the tasks it trained on, by replay) or all (every task,
                       by reach; retired at 0.9) (default ${D.track})
  --extend N           rollouts an all-fail group may gain, a wave at a time, until one
                       passes (default ${D.extend}: never; counted in the budget)
  --advantage A        rloo (default), grpo, dr-grpo
  --credit C           how a rollout's repair choices are credited: repair (each its own
                       trial: 1 when part of a passing change, advantages over the group's
                       repairs), attempt (a rollout's advantage, but undone repairs of a
                       passing rollout count as failed) or episode (the rollout's advantage)
                       (default ${D.credit})
  --lr X               learning rate: about how far one optimizer step moves the weights (default ${D.lr})
  --epochs N           optimizer steps per training step on the same rollouts, clipped
                       PPO-style after the first (default ${D.epochs})
  --learn W            weights training moves: dense (where to look, how ordinary a repair
                       leaves the code) or all (also hashed edit kinds) (default ${D.learn})
  --workers W          rollouts in parallel (default: one per core, fewer if memory is short)
  --seed S             seed (default ${D.seed})
  --target P           target pass rate (default ${D.target})
  --eval-tasks N       held-out tasks per held-out environment (default ${D.evalTasks})
  --eval-attempts N    attempts per held-out task at each evaluation (default ${D.evalRollouts})
  --forgetting N       at each held-out evaluation, try N training tasks solved earlier again
                       and record the share still solved (default ${D.forgetting}: off; not counted
                       in the budget)
  --eval-every N       held-out evaluation every N steps, and at the start and end (default ${D.evalEvery})
  --time-limit MIN     stop after the step that passes MIN minutes of this invocation; rerun
                       to continue (default ${D.timeLimitMin}; 0 = none)
  --keep-mb M          disk budget for the attempts' trajectory files in the store; past it the
                       oldest go, their outcomes stay (default ${DEFAULT_ATTEMPT_BUDGET_MB}; frognano gc prunes more)
  --serve              serve the dashboard while the run trains (--port, --host as frognano serve)
  --queue URL          rollouts and candidate checks run by queue workers (frognano worker) on
                       any machines: redis://HOST:PORT (docs/queue.md); --workers then defaults
                       to the job slots of the workers alive at the start

${LM_HELP}`;

function list(v: unknown, fallback: string[]): string[] {
  return v === undefined
    ? fallback
    : String(v)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

export function trainConfig(f: CliContext['flags'], say: (line: string) => void = () => {}): TrainConfig {
  const learner = stringFlag(f, 'learner') ?? D.learner;
  if (!isOneOf(LEARNERS, learner)) throw new UserError(`unknown --learner "${learner}"`, `use ${LEARNERS.join(' or ')}`);
  const curriculum = stringFlag(f, 'curriculum') ?? D.curriculum;
  if (!isOneOf(CURRICULA, curriculum)) throw new UserError(`unknown curriculum "${curriculum}"`, `use one of ${CURRICULA.join(', ')}`);
  const advantage = stringFlag(f, 'advantage') ?? D.advantage;
  if (!isOneOf(ADVANTAGE_METHODS, advantage)) throw new UserError(`unknown advantage "${advantage}"`, 'use rloo, grpo or dr-grpo');
  const learn = stringFlag(f, 'learn') ?? D.learn;
  if (!isOneOf(LEARNED_WEIGHTS, learn)) throw new UserError(`unknown --learn "${learn}"`, `use ${LEARNED_WEIGHTS.join(' or ')}`);
  const credit = stringFlag(f, 'credit') ?? D.credit;
  if (!isOneOf(CREDIT_METHODS, credit)) throw new UserError(`unknown credit "${credit}"`, `use ${CREDIT_METHODS.join(' or ')}`);
  const track = stringFlag(f, 'track') ?? D.track;
  if (!isOneOf(TRACKED_TASKS, track)) throw new UserError(`unknown --track "${track}"`, `use ${TRACKED_TASKS.join(' or ')}`);
  const families = list(f.families, D.families);
  const unknown = families.filter((x) => !isOneOf(OPERATOR_FAMILIES, x));
  if (families.length === 0) throw new UserError('--families names no operator family', `use one or more of ${OPERATOR_FAMILIES.join(', ')}`);
  if (!families.every((x) => isOneOf(OPERATOR_FAMILIES, x)))
    throw new UserError(`unknown operator family "${unknown.join(', ')}"`, `use one or more of ${OPERATOR_FAMILIES.join(', ')}`);
  const ablate = list(f.ablate, D.ablate);
  const unknownPart = ablate.filter((x) => !isOneOf(ABLATIONS, x));
  if (unknownPart.length) throw new UserError(`unknown --ablate part "${unknownPart.join(', ')}"`, `use some of ${ABLATIONS.join(', ')}`);
  if (ablate.length && curriculum !== 'frontier')
    throw new UserError('--ablate switches off parts of the frontier curriculum', 'use it with --curriculum frontier');
  const gate = stringFlag(f, 'gate') ?? D.gate;
  if (!isOneOf(GATES, gate)) throw new UserError(`unknown --gate "${gate}"`, `use ${GATES.join(', ')}`);
  const cfg: TrainConfig = {
    ...D,
    gate,
    ablate: ablate.filter((x) => isOneOf(ABLATIONS, x)),
    learner,
    ...(learner === 'tinker' ? { lm: lmConfig(f) } : {}),
    curriculum,
    advantage,
    credit,
    learn,
    track,
    envs: list(f.envs, D.envs),
    heldOut: list(f['held-out'], D.heldOut),
    families,
    steps: intFlag(f.steps, '--steps', D.steps, 1),
    budget: intFlag(f.budget, '--budget', D.budget),
    batch: intFlag(f.batch, '--batch', D.batch, 1),
    group: intFlag(f.group, '--group', D.group),
    extend: intFlag(f.extend, '--extend', D.extend),
    lr: numberFlag(f.lr, '--lr', D.lr),
    epochs: intFlag(f.epochs, '--epochs', D.epochs, 1),
    // With a queue and no --workers, the workers' job slots decide (trainCommand).
    workers: f.queue !== undefined && f.workers === undefined ? 0 : workersFlag(f.workers, say),
    seed: intFlag(f.seed, '--seed', D.seed),
    target: numberFlag(f.target, '--target', D.target),
    evalTasks: intFlag(f['eval-tasks'], '--eval-tasks', D.evalTasks),
    evalRollouts: intFlag(f['eval-attempts'], '--eval-attempts', D.evalRollouts, 1),
    forgetting: intFlag(f.forgetting, '--forgetting', D.forgetting),
    evalEvery: Math.max(1, intFlag(f['eval-every'], '--eval-every', D.evalEvery)),
    timeLimitMin: numberFlag(f['time-limit'], '--time-limit', D.timeLimitMin),
  };
  if (!(cfg.target > 0 && cfg.target < 1)) throw new UserError(`--target must be a pass rate strictly between 0 and 1, got ${cfg.target}`);
  if (cfg.group < 2) throw new UserError('--group must be at least 2: advantages compare rollouts of one task');
  const overlap = cfg.envs.filter((e) => cfg.heldOut.includes(e));
  if (overlap.length) throw new UserError(`${overlap.join(', ')} cannot be both trained on and held out`);
  return cfg;
}

export async function trainCommand(ctx: CliContext): Promise<number> {
  const f = ctx.flags;
  const cfg = trainConfig(f, ctx.err);
  const dir = dataDir(stringFlag(f, 'data-dir'));
  const store = new Store(dir);
  let dash: Dashboard | undefined;
  let queue: JobQueue | undefined;
  let lock: HeldLock | undefined;
  let stopSignals = () => {};
  try {
    const envs = new Map(allEnvironments(store).map((e) => [e.spec.name, e]));
    for (const name of [...cfg.envs, ...cfg.heldOut]) {
      if (!envs.has(name)) throw new UserError(`unknown environment "${name}"`, `known: ${[...envs.keys()].join(', ')}`);
    }
    for (const name of cfg.envs) {
      const language = envs.get(name)!.spec.language;
      if (applicableFamilies(language, cfg.families).length === 0) {
        throw new UserError(
          `no operator family of --families ${cfg.families.join(',')} applies to ${name} (${language})`,
          `${language} has ${applicableFamilies(language).join(', ')}`,
        );
      }
    }
    const runtime = selectRuntime({ name: stringFlag(f, 'runtime') ?? 'auto', warn: ctx.err });
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
    let stopAsked: StopSignal | undefined;
    let saved = prior?.step ?? 0;
    let inFlight = 0;
    const resume = commandLine(ctx, ['fresh']);
    stopSignals = interceptSignals((signal) => {
      progress.done();
      const kept = saved
        ? `run "${runName}" is saved after step ${saved} (${runDir})`
        : 'no step has finished yet, so nothing of the run is saved but its tasks';
      if (stopAsked || inFlight <= saved) {
        ctx.err(`${signal}: stopping now${inFlight > saved ? `; step ${inFlight} is abandoned` : ''}; ${kept}; to continue: ${resume}`);
        return false;
      }
      stopAsked = signal;
      ctx.err(`${signal}: finishing step ${inFlight}, then saving and stopping (${signal === 'SIGINT' ? 'Ctrl-C' : 'send it'} again to stop at once: ${kept})`);
      return true;
    });
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
      stopAsked: () => stopAsked !== undefined,
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
          saved = m.step;
          clock.stepDone({ rolloutsUsed: m.rollouts, evalMs: m.ms.eval, evaluated: m.heldOutSolveRate !== undefined });
          shown.reward = m.meanReward.toFixed(2);
          shown.rollouts = m.rollouts;
          progress.done();
          // An evaluated step's reach was printed with its solve rate just before.
          const reach = m.heldOutReach === undefined || m.heldOutSolveRate !== undefined ? '' : `, held-out reach ${(100 * m.heldOutReach).toFixed(1)}%`;
          const lm = m.learner;
          const tokens =
            lm?.sampledTokens !== undefined
              ? `, ${lm.tokens} tokens (${lm.sampledTokens} sampled, ${lm.meanResponseTokens!.toFixed(0)} per rollout), truncated ${rate(lm.truncated!, lm.rollouts!)}`
              : '';
          ctx.err(
            `step ${m.step}: reward ${m.meanReward.toFixed(2)}${reach}, non-degenerate groups ${m.nonDegenerate}/${m.groups}${m.heldChecks ? ` (+${m.heldChecks} replay check${m.heldChecks > 1 ? 's' : ''} held)` : ''}${m.tampering ? `, tampering ${m.tampering}` : ''}${m.infraFailures ? `, infrastructure failures ${m.infraFailures} (not trained on: ${(m.infraReasons ?? []).join('; ')})` : ''}${tokens}, pool ${poolWords(m.poolCounts)}, ${m.rollouts} rollouts, ${(clock.elapsedMs() / 60000).toFixed(1)} min`,
          );
        }
        if (e.kind === 'phase') {
          inFlight = Math.max(inFlight, e.step);
          clock.phase(e.step, e.phase);
          if (e.rollouts !== undefined) shown.rollouts = e.rollouts;
          progress.update(progressLine(e, cfg, shown, clock));
        }
      },
    });
    progress.done();
    learner.close?.();
    const first = state.heldOut[0];
    const final = state.heldOut.at(-1);
    const share = state.groups.total ? 1 - state.groups.degenerate / state.groups.total : 0;
    const summary = {
      run: runName,
      curriculum: cfg.curriculum,
      steps: state.step,
      rollouts: state.rolloutsUsed,
      stop: state.stop ?? null,
      heldOutBefore: first?.solveRate ?? null,
      heldOutAfter: final?.solveRate ?? null,
      heldOutSolvedBefore: first?.solved ?? null,
      heldOutSolvedAfter: final?.solved ?? null,
      heldOutAttempts: final?.attempts ?? null,
      heldOutReachBefore: first?.reach ?? null,
      heldOutReachAfter: final?.reach ?? null,
      nonDegenerateShare: share,
      heldReplayChecks: state.groups.heldChecks ?? 0,
      tampering: state.tampering ?? 0,
      minutes: state.elapsedMs / 60000,
      checkpoint: join(runDir, cfg.learner === 'tinker' ? 'lm-checkpoint.json' : 'policy.json'),
      metrics: join(runDir, 'metrics.jsonl'),
    };
    if (f.json) ctx.out(JSON.stringify(summary, null, 2));
    else {
      const nonDegenerate = state.groups.total - state.groups.degenerate;
      ctx.out(
        `trained ${state.step} step${state.step === 1 ? '' : 's'}, ${state.rolloutsUsed} rollouts in ${summary.minutes.toFixed(1)} min (${cfg.curriculum} curriculum)`,
      );
      ctx.out(stopLine(state, cfg, clock.invocationMs()));
      for (const line of heldOutLines(state, cfg)) ctx.out(line);
      ctx.out(
        `non-degenerate groups: ${rate(nonDegenerate, state.groups.total)}${summary.heldReplayChecks ? ` (and ${summary.heldReplayChecks} replay${summary.heldReplayChecks > 1 ? 's' : ''} of retired tasks whose check held)` : ''}`,
      );
      ctx.out(`tampering verdicts: ${rate(summary.tampering, state.rolloutsUsed)} of rollouts (a change that forged or dodged the tests; scored 0)`);
      ctx.out(`checkpoint: ${summary.checkpoint}\nmetrics: ${summary.metrics}`);
    }
    // The run is over: another invocation may take it while the dashboard stays up.
    lock.release();
    if (dash) {
      // The run is over; its pages stay up until the user is done with them.
      ctx.err('training finished; the dashboard stays up: press Ctrl-C to stop');
      stopSignals();
      await new Promise<void>((done) => {
        stopSignals = interceptSignals(() => {
          done();
          return true;
        });
      });
    }
    return stopAsked ? signalStatus(stopAsked) : 0;
  } finally {
    stopSignals();
    lock?.release();
    await dash?.close();
    await queue?.close();
    store.close();
  }
}
