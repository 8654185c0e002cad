// JSON over HTTP to a Tinker server, with the retry policy the protocol needs:
// network errors, 429 and 5xx are retried with exponential backoff and jitter
// (the caller keeps the body, so a retry re-sends the same seq_id); other 4xx
// are final. SkyRL accepts JSON bodies; the official SDK sends protobuf for
// forward_backward, which this client does not speak.
import type { z } from 'zod';
import { errorMessage } from '../util/errors.js';
import { isRecord } from '../util/guards.js';

export type TinkerErrorKind = 'network' | 'timeout' | 'status' | 'shape' | 'failed';

/** Every failure of a Tinker call: which endpoint, what went wrong, and the server's `detail` when it sent one. */
export class TinkerApiError extends Error {
  constructor(
    message: string,
    readonly endpoint: string,
    readonly kind: TinkerErrorKind,
    readonly status?: number,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'TinkerApiError';
  }
}

export interface HttpOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  retries: number;
  /** First backoff; each retry doubles it up to MAX_BACKOFF_MS, then jitter takes 0-50% off. */
  backoffMs: number;
  log: (message: string) => void;
}

export interface RawResponse {
  status: number;
  body: unknown;
  /** How many times the request went out (1 = no retry). */
  attempts: number;
}

const MAX_BACKOFF_MS = 10_000;
const MAX_RETRY_AFTER_MS = 60_000;

/** The server's `detail` in readable form: a string as is, a FastAPI 422 list as `loc: msg` lines. */
export function describeDetail(body: unknown): string {
  if (!isRecord(body)) return typeof body === 'string' ? body : JSON.stringify(body);
  const detail = body.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => (isRecord(d) && Array.isArray(d.loc) ? `${d.loc.join('.')}: ${String(d.msg)}` : JSON.stringify(d))).join('; ');
  }
  return JSON.stringify(body);
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

export class TinkerHttp {
  private readonly apiRoot: string;

  constructor(private readonly opts: HttpOptions) {
    const base = opts.baseUrl.replace(/\/+$/, '');
    this.apiRoot = base.endsWith('/api/v1') ? base : `${base}/api/v1`;
  }

  private label(method: string, endpoint: string): string {
    return `tinker ${method} /api/v1/${endpoint}`;
  }

  private backoff(attempt: number, retryAfter: string | null): number {
    const exp = Math.min(MAX_BACKOFF_MS, this.opts.backoffMs * 2 ** (attempt - 1));
    const jittered = exp * (0.5 + Math.random() / 2);
    const hinted = retryAfter !== null && /^\d+(\.\d+)?$/.test(retryAfter) ? Number(retryAfter) * 1000 : 0;
    return Math.min(MAX_RETRY_AFTER_MS, Math.max(jittered, hinted));
  }

  /**
   * Sends until the server answers with something other than 429/5xx, or retries run out.
   * A client-side timeout is retried too unless `retryTimeouts` is false (long polls handle it).
   */
  async send(method: 'GET' | 'POST', endpoint: string, body?: unknown, o: { retryTimeouts?: boolean } = {}): Promise<RawResponse> {
    const label = this.label(method, endpoint);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.opts.apiKey) headers['x-api-key'] = this.opts.apiKey;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    for (let attempt = 1; ; attempt++) {
      let why: string;
      let retryAfter: string | null = null;
      try {
        const res = await fetch(`${this.apiRoot}/${endpoint}`, { method, headers, body: payload, signal: AbortSignal.timeout(this.opts.timeoutMs) });
        const text = await res.text();
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          // A non-JSON body (a proxy's error page) is kept as text for the message.
        }
        if (res.status !== 429 && res.status < 500) return { status: res.status, body: parsed, attempts: attempt };
        why = `HTTP ${res.status}: ${describeDetail(parsed)}`;
        retryAfter = res.headers.get('retry-after');
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        if (timedOut && o.retryTimeouts === false) throw new TinkerApiError(`${label}: no answer within ${this.opts.timeoutMs} ms`, endpoint, 'timeout');
        why = timedOut ? `no answer within ${this.opts.timeoutMs} ms` : `network error: ${errorMessage(err)}${causeOf(err)}`;
      }
      if (attempt > this.opts.retries) {
        throw new TinkerApiError(`${label}: gave up after ${attempt} attempts, last: ${why}`, endpoint, why.startsWith('HTTP') ? 'status' : 'network');
      }
      const wait = this.backoff(attempt, retryAfter);
      this.opts.log(`${label}: ${why}; retry ${attempt}/${this.opts.retries} in ${Math.round(wait)} ms`);
      await sleep(wait);
    }
  }

  /** A call that must answer 2xx with a body of `schema`'s shape. */
  async call<S extends z.ZodType>(method: 'GET' | 'POST', endpoint: string, body: unknown, schema: S): Promise<z.output<S>> {
    const res = await this.send(method, endpoint, body);
    return this.expect(method, endpoint, res, schema);
  }

  /** Checks a raw answer: 2xx and the schema's shape, else a TinkerApiError naming the endpoint and the server's detail. */
  expect<S extends z.ZodType>(method: 'GET' | 'POST', endpoint: string, res: RawResponse, schema: S): z.output<S> {
    const label = this.label(method, endpoint);
    if (res.status < 200 || res.status >= 300) {
      const detail = describeDetail(res.body);
      const retried = res.attempts > 1 ? ` (after ${res.attempts} attempts)` : '';
      throw new TinkerApiError(`${label}: HTTP ${res.status}${retried}: ${detail}`, endpoint, 'status', res.status, detail);
    }
    const parsed = schema.safeParse(res.body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
      throw new TinkerApiError(`${label}: unexpected response shape: ${issues}`, endpoint, 'shape', res.status);
    }
    return parsed.data;
  }
}

function causeOf(err: unknown): string {
  const cause = err instanceof Error ? err.cause : undefined;
  return cause ? ` (${errorMessage(cause)})` : '';
}
