// A Tinker future: mutating calls answer `{request_id}` and the result is
// fetched with retrieve_future, which long-polls (SkyRL holds it up to 300 s):
// 200 the result, 408 still pending (ask again), 400 the work failed (the
// server's `detail` says why), 404 no such request.
import type { z } from 'zod';
import { describeDetail, TinkerApiError, type TinkerHttp } from './http.js';

/** 408s that come back faster than this are followed by a pause, so a server that does not long-poll is not hammered. */
const FAST_PENDING_MS = 100;

export class TinkerFuture<T> {
  private settled?: Promise<T>;

  constructor(
    private readonly http: TinkerHttp,
    /** The endpoint that created the future, for error messages. */
    readonly endpoint: string,
    readonly requestId: string,
    private readonly schema: z.ZodType<T>,
    private readonly timeoutMs: number,
  ) {}

  /** The result; polled once however often it is asked for. */
  result(): Promise<T> {
    this.settled ??= this.poll();
    return this.settled;
  }

  private async poll(): Promise<T> {
    const what = `tinker ${this.endpoint} (request ${this.requestId})`;
    const deadline = Date.now() + this.timeoutMs;
    while (Date.now() < deadline) {
      const asked = Date.now();
      let res;
      try {
        res = await this.http.send('POST', 'retrieve_future', { request_id: this.requestId }, { retryTimeouts: false });
      } catch (err) {
        // Our own timeout on a long poll only means the work is not done yet.
        if (err instanceof TinkerApiError && err.kind === 'timeout') continue;
        throw err;
      }
      if (res.status === 408) {
        if (Date.now() - asked < FAST_PENDING_MS) await new Promise((ok) => setTimeout(ok, FAST_PENDING_MS));
        continue;
      }
      if (res.status === 400) {
        const detail = describeDetail(res.body);
        throw new TinkerApiError(`${what} failed on the server: ${detail}`, this.endpoint, 'failed', 400, detail);
      }
      if (res.status === 404) {
        throw new TinkerApiError(`${what}: the server knows no such request (404; restarted server or wrong id)`, this.endpoint, 'status', 404);
      }
      return this.http.expect('POST', 'retrieve_future', res, this.schema);
    }
    throw new TinkerApiError(`${what}: still pending after ${this.timeoutMs} ms`, this.endpoint, 'timeout');
  }
}
