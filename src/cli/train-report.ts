// What `frognano train` prints: the live progress line (elapsed time, an
// estimate to the end, rollouts counted as they finish), why the run
// stopped and how to go on, and the held-out figures with their counts and
// intervals.
import { MAX_ATTEMPTS } from '../policy/agent.js';
import type { TrainConfig } from '../train/config.js';
import type { HeldOutPoint, RunState } from '../train/state.js';
import type { StepMetrics, TrainEvent } from '../train/trainer.js';
import type { RunClock } from './run-clock.js';
import { pairedGain, percent as pct, rate, wilson } from '../util/stats.js';

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A held-out point's solve rate with its counts where the state has them (older states: the bare share). */
export function heldOutRate(p: HeldOutPoint): string {
  return p.attempts !== undefined ? rate(p.solved ?? 0, p.attempts) : pct(p.solveRate);
}

export interface Shown {
  reward: string;
  held: string;
  rollouts: number;
}

/** The progress line's widest form, in columns (a 100-column terminal shows it whole). */
export const PROGRESS_WIDTH = 100;
/** The phase is shortened to make room for the figures, but never below this. */
const PHASE_MIN = 20;

/** The live line: the step and what it is doing first (never dropped), then time, budget and figures. */
export function progressLine(e: Extract<TrainEvent, { kind: 'phase' }>, cfg: TrainConfig, shown: Shown, clock: RunClock): string {
  const count = e.total ? ` ${e.done}/${e.total}` : '';
  const left = clock.leftMs();
  const time = `${minutes(clock.elapsedMs())}${left === null ? '' : left < 1000 ? ', finishing' : `, ~${(left / 60_000).toFixed(1)} left`}`;
  const figures = [time, `${shown.rollouts}/${cfg.budget} rollouts`, `held-out ${shown.held}`, `reward ${shown.reward}`];
  const head = `step ${e.step}/${cfg.steps}: `;
  const room = Math.max(PHASE_MIN, PROGRESS_WIDTH - head.length - figures.reduce((n, f) => n + f.length + 3, 0));
  const phase = e.phase.length + count.length > room ? `${e.phase.slice(0, room - count.length - 3)}...${count}` : `${e.phase}${count}`;
  const fields = [`${head}${phase}`, ...figures];
  // Figures that still do not fit go whole, from the end: none is ever cut in half.
  while (fields.length > 1 && fields.join(' | ').length > PROGRESS_WIDTH) fields.pop();
  return fields.join(' | ');
}

/** A finished step's line: its reward and groups, what went wrong, the pool in words, and the run's rollouts and minutes. */
export function stepLine(m: StepMetrics, elapsedMs: number): string {
  // An evaluated step's reach was printed with its solve rate just before.
  const reach = m.heldOutReach === undefined || m.heldOutSolveRate !== undefined ? '' : `, held-out reach ${(100 * m.heldOutReach).toFixed(1)}%`;
  const lm = m.learner;
  const tokens =
    lm?.sampledTokens !== undefined
      ? `, ${lm.tokens} tokens (${lm.sampledTokens} sampled, ${lm.meanResponseTokens!.toFixed(0)} per rollout), truncated ${rate(lm.truncated!, lm.rollouts!)}`
      : '';
  const held = m.heldChecks ? ` (+${m.heldChecks} replay check${m.heldChecks > 1 ? 's' : ''} held)` : '';
  const tampering = m.tampering ? `, tampering ${m.tampering}` : '';
  const infra = m.infraFailures ? `, infrastructure failures ${m.infraFailures} (not trained on: ${(m.infraReasons ?? []).join('; ')})` : '';
  return `step ${m.step}: reward ${m.meanReward.toFixed(2)}${reach}, non-degenerate groups ${m.nonDegenerate}/${m.groups}${held}${tampering}${infra}${tokens}, pool ${poolWords(m.poolCounts)}, ${m.rollouts} rollouts, ${minutes(elapsedMs)}`;
}

/** A pool's tasks by state, in words: "12 tasks: 8 active, 3 retired, 1 probing". */
export function poolWords(counts: Record<string, number>): string {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  return `${plural(total, 'task')}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** Why the run stopped, and how to go on from there; `invocationMs`, this invocation's time, says how far past the time limit it went. */
export function stopLine(state: RunState, cfg: TrainConfig, invocationMs?: number): string {
  const where = `after ${plural(state.step, 'step')} of ${cfg.steps}, ${state.rolloutsUsed} of ${cfg.budget} rollouts`;
  switch (state.stop) {
    case 'time-limit': {
      const over = invocationMs === undefined ? 0 : invocationMs - cfg.timeLimitMin * 60_000;
      const past = over > 0 ? `; it ran ${minutes(over)} past the limit, finishing the step in flight and its evaluation (no step starts after it)` : '';
      return `stopped by the time limit (--time-limit ${cfg.timeLimitMin} min) ${where}${past}: run the same command again to continue from there (each run has its own limit), or pass --time-limit 0 for none`;
    }
    case 'interrupted':
      return `stopped on request (Ctrl-C or SIGTERM) ${where}: every finished step is saved; run the same command again to continue from there`;
    case 'budget':
      return `stopped: the rollout budget is spent (${where}); to train further, rerun with a larger --budget`;
    case 'no-tasks':
      return `stopped ${where}: no task to train on (none was admitted); try other --envs or --families`;
    default:
      if (state.step > cfg.steps)
        return `stopped: --steps ${cfg.steps} is not more than the ${state.step} steps already done; rerun with more --steps to train further`;
      return `finished ${cfg.steps === 1 ? 'its 1 step' : `all ${cfg.steps} steps`} (${state.rolloutsUsed} of ${cfg.budget} rollouts); to train further, rerun with more --steps`;
  }
}

/** Fewer held-out tasks than this give no interval on the reach gain. */
const MIN_PAIRED_TASKS = 5;

/** The held-out figures, before and after, with counts and intervals, and whether they show learning. */
export function heldOutLines(state: RunState, cfg: TrainConfig): string[] {
  const first = state.heldOut[0];
  const last = state.heldOut.at(-1);
  if (!first || !last) return ['held-out: not evaluated (--eval-tasks 0 or no held-out environment)'];
  const lines: string[] = [];
  const interval = (p: HeldOutPoint) =>
    p.attempts
      ? wilson(p.solved ?? 0, p.attempts)
          .map(pct)
          .join(' to ')
      : '-';
  lines.push(
    `held-out solve rate (${cfg.heldOut.join(', ')}): ${heldOutRate(first)} untrained -> ${heldOutRate(last)} trained (95% intervals ${interval(first)} and ${interval(last)})`,
  );
  if (first.reach === undefined || last.reach === undefined) return lines;
  const ids = Object.keys(first.reachByTask ?? {}).filter((id) => last.reachByTask?.[id] !== undefined);
  const gain = pairedGain(
    ids.map((id) => first.reachByTask![id]!),
    ids.map((id) => last.reachByTask![id]!),
  );
  let verdict = '';
  if (last.step === 0) verdict = ': no training step finished, so nothing to compare';
  else if (ids.length < MIN_PAIRED_TASKS) verdict = ` (${ids.length} tasks: too few for an interval)`;
  else if (gain) {
    const points = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;
    const shown =
      gain.low > 0
        ? 'learning shown'
        : state.stop === 'time-limit'
          ? `no gain shown yet: it ran out of time after ${plural(state.step, 'step')}; rerun to continue`
          : 'no gain shown';
    verdict = `, ${points(gain.mean)} points (95% interval ${points(gain.low)} to ${points(gain.high)}, paired over ${ids.length} tasks): ${shown}`;
  }
  lines.push(
    `held-out reach (chance the fix is among the first ${MAX_ATTEMPTS} repairs the policy would try): ${pct(first.reach)} untrained -> ${pct(last.reach)} trained${verdict}`,
  );
  return lines;
}
