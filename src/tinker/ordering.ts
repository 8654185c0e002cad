// Request numbering and ordering for the Tinker client. SkyRL de-duplicates on
// (model_id, seq_id), so a seq_id is fixed before the first attempt and every
// retry re-sends it; and since its engine runs a model's requests in arrival
// order, each key's requests are sent one after another, in call order.
export class RequestOrder {
  /** Last seq_id given out per key; the next request takes one more. */
  private readonly lastSeq = new Map<string, number>();
  /** The latest submission per key: the next one is sent after it settles. */
  private readonly chains = new Map<string, Promise<unknown>>();

  nextSeqId(key: string): number {
    const seq = (this.lastSeq.get(key) ?? 0) + 1;
    this.lastSeq.set(key, seq);
    return seq;
  }

  /** Runs `send` once the key's earlier submissions have settled (answered or failed). */
  inOrder<T>(key: string, send: () => Promise<T>): Promise<T> {
    const sent = (this.chains.get(key) ?? Promise.resolve()).then(send, send);
    this.chains.set(
      key,
      sent.catch(() => undefined),
    );
    return sent;
  }
}

/** A repeating call on an unref'd timer (it does not keep the process alive) that never overlaps itself. */
export class Repeater {
  private readonly timer: NodeJS.Timeout;
  private busy = false;

  constructor(call: () => Promise<void>, everyMs: number, onError: (err: unknown) => void) {
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      call()
        .catch(onError)
        .finally(() => (this.busy = false));
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
