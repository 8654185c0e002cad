// One JSON POST to an inference server, retried with exponential backoff
// (250 ms doubling, at most 8 s) on network errors, timeouts, 429 and 5xx:
// the loop the chat client and the vLLM sampler share. Each attempt has its
// own timeout; the caller's signal ends the request, its retries and the
// waits between them. Callers word the errors: a failed attempt is given to
// them as what happened, not as text.
import { sleep } from './sleep.js';

/** Why an attempt did not give a final answer. */
export type FailedAttempt =
  | { kind: 'status'; status: number; text: string }
  | { kind: 'timeout' }
  | { kind: 'network'; error: Error }
  | { kind: 'retry'; error: Error };

/** Thrown by `read` for an answer worth asking for again (a body that does not parse). */
export class RetryAnswer extends Error {}

export interface RetryingPost<T> {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  retries: number;
  signal?: AbortSignal | undefined;
  /** A final answer (any status but 429 and 5xx) read into the result; what it throws is thrown (a RetryAnswer asks again). */
  read(status: number, text: string): T;
  /** The caller's signal fired: the error to throw. */
  aborted(): Error;
  /** Every attempt failed: the error to throw, given the last failure. */
  gaveUp(attempts: number, last: FailedAttempt): Error;
}

export async function postWithRetry<T>(o: RetryingPost<T>): Promise<T> {
  const { signal } = o;
  let last: FailedAttempt = { kind: 'network', error: new Error('no attempt made') };
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    if (attempt > 0) await sleep(Math.min(8000, 250 * 2 ** (attempt - 1)), signal);
    if (signal?.aborted) throw o.aborted();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), o.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let status: number;
    let text: string;
    try {
      const res = await fetch(o.url, { method: 'POST', headers: o.headers, body: o.body, signal: controller.signal });
      status = res.status;
      text = await res.text();
    } catch (err) {
      if (signal?.aborted) throw o.aborted();
      last = controller.signal.aborted ? { kind: 'timeout' } : { kind: 'network', error: err instanceof Error ? err : new Error(String(err)) };
      continue;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    if (status === 429 || status >= 500) {
      last = { kind: 'status', status, text };
      continue;
    }
    try {
      return o.read(status, text);
    } catch (err) {
      if (!(err instanceof RetryAnswer)) throw err;
      last = { kind: 'retry', error: err };
    }
  }
  throw o.gaveUp(o.retries + 1, last);
}
