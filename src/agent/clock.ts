// The episode's clock: the wall-time limit and the caller's abort signal.
// Either one cuts a model call short, so a hung server cannot hold an
// episode past its time; the reason says which one it was.
import type { StopReason } from './trajectory.js';

export class EpisodeClock {
  readonly started = Date.now();
  private readonly cut = new AbortController();
  private wallExpired = false;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.cut.abort();
  private readonly cutShort: Promise<never>;

  constructor(
    private readonly wallTimeMs: number,
    private readonly external?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.wallExpired = true;
      this.cut.abort();
    }, wallTimeMs);
    external?.addEventListener('abort', this.onAbort, { once: true });
    if (external?.aborted) this.cut.abort();
    this.cutShort = new Promise<never>((_, reject) => {
      this.cut.signal.addEventListener('abort', () => reject(new Error('episode interrupted')), { once: true });
    });
    this.cutShort.catch(() => {}); // only ever awaited through race()
  }

  /** Aborted when the episode is interrupted either way. */
  get signal(): AbortSignal {
    return this.cut.signal;
  }

  elapsedMs(): number {
    return Date.now() - this.started;
  }

  remainingMs(): number {
    return this.wallTimeMs - this.elapsedMs();
  }

  /** 'aborted' or 'wall-time' once the episode must end, else undefined. */
  interrupted(): StopReason | undefined {
    if (this.external?.aborted) return 'aborted';
    if (this.wallExpired || this.remainingMs() <= 0) return 'wall-time';
    return undefined;
  }

  /** `p`, unless the episode is interrupted first (then it rejects). */
  race<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.cutShort]);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.external?.removeEventListener('abort', this.onAbort);
  }
}
