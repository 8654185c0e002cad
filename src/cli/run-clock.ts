// The estimate to the end of a training invocation: the steps still to run
// (the one in flight included) at this invocation's pace, plus the held-out
// evaluations they will run (the final one included). It is learned only when
// a step or an evaluation ends and counts down in between, and one update
// moves it by no more than the step it learned from, so it never jumps about.
import type { TrainConfig } from '../train/config.js';

/** What a finished step tells the clock: the run's rollouts by then (probes included), its time spent on held-out figures, and whether that was a full evaluation. */
export interface StepTiming {
  rolloutsUsed: number;
  evalMs: number;
  evaluated: boolean;
}

export class RunClock {
  private readonly t0: number;
  private steps = 0;
  /** This invocation's rollouts. */
  private rollouts = 0;
  /** Wall time of this invocation's steps, their evaluations left out. */
  private stepMs = 0;
  private lastStepAt: number;
  private inStep = false;
  private evalMs: number | null = null;
  private evalStart: number | null = null;
  private estimate: { ms: number; at: number } | null = null;

  constructor(
    private readonly cfg: TrainConfig,
    private readonly priorMs: number,
    private readonly priorRollouts: number,
    private readonly priorSteps = 0,
    private readonly now: () => number = Date.now,
  ) {
    this.t0 = now();
    this.lastStepAt = this.t0;
  }

  /** The run's minutes, earlier invocations included. */
  elapsedMs(): number {
    return this.priorMs + this.now() - this.t0;
  }

  /** This invocation's minutes. */
  invocationMs(): number {
    return this.now() - this.t0;
  }

  /** A phase of the run was shown: it may start a step (its time counts from then) or a held-out evaluation. */
  phase(step: number, name: string): void {
    if (name.startsWith('held-out evaluation')) this.evalStart ??= this.now();
    if (step > this.priorSteps + this.steps && !this.inStep) {
      this.inStep = true;
      this.lastStepAt = this.now();
    }
  }

  /** A held-out evaluation ended: its time is what the remaining ones are expected to take. */
  evalDone(): void {
    if (this.evalStart !== null) this.evalMs = this.now() - this.evalStart;
    this.evalStart = null;
  }

  stepDone(t: StepTiming): void {
    const now = this.now();
    const took = now - this.lastStepAt;
    this.inStep = false;
    this.steps++;
    this.rollouts = t.rolloutsUsed - this.priorRollouts;
    this.stepMs += Math.max(0, took - t.evalMs);
    if (t.evaluated) this.evalMs = t.evalMs;
    const fresh = this.project(now);
    const before = this.leftAt(now);
    // One step's news moves the estimate by at most that step's time.
    this.estimate = { ms: before === null ? fresh : Math.min(before + took, Math.max(before - took, fresh)), at: now };
  }

  /** Minutes to the end as last learned, counted down since; null before a step has finished. */
  leftMs(): number | null {
    return this.leftAt(this.now());
  }

  private leftAt(now: number): number | null {
    return this.estimate ? Math.max(0, this.estimate.ms - (now - this.estimate.at)) : null;
  }

  /** Steps left and the evaluations they bring, at this invocation's pace, from `now` (a step has just ended). */
  private project(now: number): number {
    const perStep = this.stepMs / this.steps;
    const done = this.priorSteps + this.steps;
    let left = Math.max(0, this.cfg.steps - done);
    const perRollouts = this.rollouts / this.steps;
    if (perRollouts > 0) left = Math.min(left, Math.ceil(Math.max(0, this.cfg.budget - this.priorRollouts - this.rollouts) / perRollouts));
    if (this.cfg.timeLimitMin > 0) {
      // A step starts only before the limit: the ones that can, back to back from now.
      const room = this.cfg.timeLimitMin * 60_000 - (now - this.t0);
      left = Math.min(left, room <= 0 ? 0 : Math.floor(room / Math.max(perStep, 1)) + 1);
    }
    const every = this.cfg.evalEvery;
    let evals = Math.floor((done + left) / every) - Math.floor(done / every);
    // The run ends with an evaluation when its last step had none.
    if ((done + left) % this.cfg.evalEvery !== 0) evals++;
    return left * perStep + (this.cfg.evalTasks > 0 ? evals * (this.evalMs ?? perStep) : 0);
  }
}
