// Ctrl-C and SIGTERM during `frognano train`: once, the step in flight
// finishes and is saved before the run stops; twice (or before any step is
// in flight), it stops at once. Either way it says what is saved and the
// command that continues.
import { interceptSignals, signalStatus, type StopSignal } from '../util/signals.js';

export class TrainStop {
  private signal: StopSignal | undefined;
  /** The last step saved, and the newest step a phase was shown for. */
  private saved: number;
  private inFlight = 0;
  private release: () => void;

  constructor(
    private readonly where: { runName: string; runDir: string; resume: string },
    savedStep: number,
    private readonly say: (line: string) => void,
  ) {
    this.saved = savedStep;
    this.release = interceptSignals((s) => this.onSignal(s));
  }

  /** A phase of step `step` began. */
  phase(step: number): void {
    this.inFlight = Math.max(this.inFlight, step);
  }

  /** Step `step` was saved. */
  stepSaved(step: number): void {
    this.saved = step;
  }

  asked(): boolean {
    return this.signal !== undefined;
  }

  /** The exit status: the signal's when one stopped the run, else 0. */
  status(): number {
    return this.signal ? signalStatus(this.signal) : 0;
  }

  /** Stops intercepting: later signals end the process as usual. */
  close(): void {
    this.release();
  }

  private onSignal(signal: StopSignal): boolean {
    const { runName, runDir, resume } = this.where;
    const kept = this.saved
      ? `run "${runName}" is saved after step ${this.saved} (${runDir})`
      : 'no step has finished yet, so nothing of the run is saved but its tasks';
    if (this.signal || this.inFlight <= this.saved) {
      this.say(`${signal}: stopping now${this.inFlight > this.saved ? `; step ${this.inFlight} is abandoned` : ''}; ${kept}; to continue: ${resume}`);
      return false;
    }
    this.signal = signal;
    this.say(
      `${signal}: finishing step ${this.inFlight}, then saving and stopping (${signal === 'SIGINT' ? 'Ctrl-C' : 'send it'} again to stop at once: ${kept})`,
    );
    return true;
  }
}
