// `frognano train`'s options: the help text and the flags read into a run's settings.
import { GATES } from '../curriculum/difficulty.js';
import { OPERATOR_FAMILIES } from '../curriculum/knobs.js';
import { CREDIT_METHODS } from '../policy/update.js';
import { ADVANTAGE_METHODS } from '../rl/advantages.js';
import { DEFAULT_ATTEMPT_BUDGET_MB } from '../store/attempts.js';
import { ABLATIONS, CURRICULA, LEARNED_WEIGHTS, LEARNERS, TRACKED_TASKS, TRAIN_DEFAULTS, type TrainConfig } from '../train/config.js';
import { UserError } from '../util/errors.js';
import { isOneOf } from '../util/guards.js';
import type { CliContext } from './context.js';
import { intFlag, numberFlag, stringFlag, workersFlag } from './flags.js';
import { LM_HELP, lmConfig } from './lm.js';

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
  --force              train on an environment env check rejected or never checked (said loudly;
                       without it such an environment is refused)
  --curriculum C       frontier (default), uniform (random valid tasks), static (filtered once)
  --gate G             what may skip a fresh task's admission probe: none (default), model (the
                       difficulty model's prediction, once warmed up) or greso (recent
                       uninformative probes of its knob setting, after GRESO)
  --ablate LIST        frontier parts to switch off, to measure what each carries: restock
                       (the first pool is all), weighting (equal chances), controller (random
                       knobs), probe (admit unprobed), replay (retired tasks never replayed)
  --envs LIST          training environments (default ${D.envs.join(',')}); catalogue:FILTER
                       adds the catalogue's entries of a language or runner (catalogue:python,
                       catalogue:typescript+vitest, catalogue:all), cloned and checked on first use
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
