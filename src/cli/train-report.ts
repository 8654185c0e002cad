// What `frognano train` prints: the live progress line (elapsed time, an
// estimate to the end, rollouts counted as they finish), why the run
// stopped and how to go on, and the held-out figures with their counts and
// intervals.
import { MAX_ATTEMPTS } from '../policy/agent.js';
import type { TrainConfig } from '../train/config.js';
import type { HeldOutPoint, RunState } from '../train/state.js';
import type { TrainEvent } from '../train/trainer.js';
import { pairedGain, percent as pct, rate, wilson } from '../util/stats.js';

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A held-out point's solve rate with its counts where the state has them (older states: the bare share). */
export function heldOutRate(p: HeldOutPoint): string {
  return p.attempts !== undefined ? rate(p.solved ?? 0, p.attempts) : pct(p.solveRate);
}

/** This invocation's clock and counts, for the estimate to the end. */
export class RunClock {
  private readonly t0: number;
  private steps = 0;

  constructor(
    private readonly cfg: TrainConfig,
    private readonly priorMs: number,
    private readonly priorRollouts: number,
    private readonly priorSteps = 0,
    private readonly now: () => number = Date.now,
  ) {
    this.t0 = now();
  }

  stepDone(): void {
    this.steps++;
  }

  /** The run's minutes, earlier invocations included. */
  elapsedMs(): number {
    return this.priorMs + this.now() - this.t0;
  }

  /**
   * Minutes to the end: the least of what the steps left, the rollouts left
   * and the time limit allow at this invocation's pace (the limit lets the
   * step in flight finish). Null before anything can be estimated.
   */
  leftMs(rollouts: number): number | null {
    const spent = this.now() - this.t0;
    const perStep = this.steps > 0 ? spent / this.steps : null;
    const estimates: number[] = [];
    if (perStep !== null) estimates.push(perStep * Math.max(0, this.cfg.steps - this.priorSteps - this.steps));
    const ran = rollouts - this.priorRollouts;
    if (ran > 0) estimates.push((spent / ran) * Math.max(0, this.cfg.budget - rollouts));
    if (this.cfg.timeLimitMin > 0) estimates.push(Math.max(0, this.cfg.timeLimitMin * 60_000 - spent) + (perStep ?? 0));
    return estimates.length ? Math.min(...estimates) : null;
  }
}

export interface Shown {
  reward: string;
  held: string;
  rollouts: number;
}

export function progressLine(e: Extract<TrainEvent, { kind: 'phase' }>, cfg: TrainConfig, shown: Shown, clock: RunClock): string {
  const count = e.total ? ` ${e.done}/${e.total}` : '';
  const left = clock.leftMs(shown.rollouts);
  const time = `${minutes(clock.elapsedMs())}${left === null ? '' : left < 1000 ? ', finishing' : `, about ${minutes(left)} left`}`;
  return `step ${e.step}/${cfg.steps} | ${time} | rollouts ${shown.rollouts}/${cfg.budget} | reward ${shown.reward} | held-out ${shown.held} | ${e.phase}${count}`;
}

/** Why the run stopped, and how to go on from there. */
export function stopLine(state: RunState, cfg: TrainConfig): string {
  const where = `after ${plural(state.step, 'step')} of ${cfg.steps}, ${state.rolloutsUsed} of ${cfg.budget} rollouts`;
  switch (state.stop) {
    case 'time-limit':
      return `stopped by the time limit (--time-limit ${cfg.timeLimitMin} min) ${where}: run the same command again to continue from there (each run has its own limit), or pass --time-limit 0 for none`;
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
