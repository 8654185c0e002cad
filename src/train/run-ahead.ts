// A probe reads its rollouts one after another and stops at the first mixed
// result, so a probe on its own keeps one worker busy and leaves the others
// idle while the other probes of a restock have finished. Its next rollouts
// are started early on those idle workers; the probe still reads them in
// order, and those it stops before reading are dropped unstored, so verdicts,
// budget and store are what they would be without it (each rollout's seed is
// its index's). See docs/decisions/2026-12-05-inner-loop-idle.md.
import type { Rollout } from '../rl/contract.js';
import type { TriedRollout } from './run.js';

/** One probe's rollouts by index: `read(i)` waits for rollout i (starting it if no idle worker has). */
export interface ProbeRollouts<D> {
  read(i: number): Promise<Rollout<D> & { keep: () => void }>;
  /** The probe is done: nothing more starts for it, and what was started unread is dropped. */
  close(): void;
}

interface Sequence<D> {
  make: (i: number) => Promise<TriedRollout<D>>;
  max: number;
  started: Map<number, Promise<TriedRollout<D>>>;
  next: number;
  open: boolean;
}

export class RunAhead<D> {
  private running = 0;
  private readonly open = new Set<Sequence<D>>();
  private readonly dropped = new Set<Promise<unknown>>();
  /** Rollouts started ahead of being read, and those of them dropped unread. */
  readonly counts = { ahead: 0, dropped: 0 };

  /**
   * `workers`: how many rollouts may run at once; `idle`: whether workers are
   * free of other work (no training batch in flight).
   */
  constructor(
    private readonly workers: () => number,
    private readonly idle: () => boolean,
  ) {}

  /** A probe of at most `max` rollouts; `make(i)` makes rollout i. */
  probe(make: (i: number) => Promise<TriedRollout<D>>, max: number): ProbeRollouts<D> {
    const seq: Sequence<D> = { make, max, started: new Map(), next: 0, open: true };
    this.open.add(seq);
    return {
      read: async (i) => {
        if (!seq.started.has(i)) this.start(seq, i);
        this.fill();
        const got = await seq.started.get(i)!;
        seq.started.delete(i);
        return { ...got.res, keep: got.keep };
      },
      close: () => {
        seq.open = false;
        this.open.delete(seq);
        for (const p of seq.started.values()) {
          this.counts.dropped++;
          const settled = p.then(
            () => undefined,
            () => undefined,
          );
          this.dropped.add(settled);
          void settled.then(() => this.dropped.delete(settled));
        }
        seq.started.clear();
      },
    };
  }

  /** Waits for rollouts that were started ahead and dropped (so none outlives the restock that made it). */
  async settle(): Promise<void> {
    while (this.dropped.size > 0) await Promise.all([...this.dropped]);
  }

  private start(seq: Sequence<D>, i: number): void {
    this.running++;
    seq.next = Math.max(seq.next, i + 1);
    const p = seq.make(i).finally(() => {
      this.running--;
      this.fill();
    });
    // A failure surfaces when (if) the probe reads it.
    p.catch(() => undefined);
    seq.started.set(i, p);
  }

  /** Idle workers take the open probes' next rollouts, one probe after another. */
  private fill(): void {
    let gave = true;
    while (gave && this.idle()) {
      gave = false;
      for (const seq of this.open) {
        if (this.running >= this.workers()) return;
        if (!seq.open || seq.next >= seq.max) continue;
        this.counts.ahead++;
        this.start(seq, seq.next);
        gave = true;
      }
    }
  }
}
