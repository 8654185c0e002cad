// A Sampler over an OpenAI-compatible vLLM server's /v1/completions: the
// prompt goes as token ids, the sampled ids and their logprobs come back, and
// every response passes checkSample. What vLLM does, read from its source
// (vllm-project/vllm):
// - Stop tokens: the id that ended the sample (EOS or one of stop_token_ids)
//   IS in `choices[0].token_ids`, with a logprob. check_stop
//   (vllm/v1/core/sched/utils.py) tests the already appended last output id;
//   the detokenizer (vllm/v1/engine/detokenizer.py, update) leaves only that
//   id's TEXT out unless include_stop_str_in_output, re-appending the id to
//   token_ids; non-streaming responses take token_ids from there
//   (vllm/v1/engine/output_processor.py, _new_completion_output). So
//   include_stop_str_in_output changes text only and is not sent. Callers
//   still handle a missing stop id (other servers, older versions).
// - logprobs: N gives the sampled token's logprob plus the top N; newer
//   versions also accept 0, but an early V1 LogprobsProcessor treated 0 as
//   "off" and the server then failed, so 1 it is. Logprobs are floored at
//   -9999 and a position without one is null
//   (vllm/entrypoints/openai/completion/serving.py, _create_completion_logprobs).
// - return_token_ids is a newer field (completion/protocol.py); older servers
//   ignore it, so return_tokens_as_token_ids is sent too and the ids are read
//   back from `logprobs.tokens` written as `token_id:N`.
// - finish_reason is 'stop' or 'length' for a finished sample; anything else
//   ('abort', 'error', 'repetition', null) is a fault here.
import { errorMessage } from '../util/errors.js';
import { isRecord } from '../util/guards.js';
import { checkSample, SamplerFault } from './check.js';
import type { Sample, SampleRequest, Sampler } from './types.js';
import { type FailedAttempt, postWithRetry } from '../util/post-retry.js';

export interface VllmSamplerOptions {
  /** The server's root (`http://host:8000`); a trailing `/v1` is tolerated. */
  baseUrl: string;
  /** The served model name (or LoRA adapter name): the sampler's `weights`. */
  model: string;
  apiKey?: string;
  /** Per attempt; default 300 000 ms (long samples on a loaded server are slow). */
  timeoutMs?: number;
  /** Further attempts after a network error, timeout, 429 or 5xx; default 3. */
  retries?: number;
}

const isIdList = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isSafeInteger(x) && x >= 0);

/** vLLM's error text: `{error: {message}}` (newer) or `{message}` (older), else the raw body. */
/** A failed attempt in words; fetch says only "fetch failed", so a network error's cause (ECONNREFUSED, a reset) is added. */
function describe(last: FailedAttempt, timeoutMs: number): string {
  if (last.kind === 'status') return `answered ${last.status}: ${serverMessage(last.text)}`;
  if (last.kind === 'timeout') return `no answer within ${timeoutMs} ms`;
  const cause = last.error.cause instanceof Error ? ` (${last.error.cause.message})` : '';
  return `${errorMessage(last.error)}${cause}`;
}

function serverMessage(text: string): string {
  try {
    const data: unknown = JSON.parse(text);
    const inner = isRecord(data) && isRecord(data.error) ? data.error : data;
    if (isRecord(inner) && typeof inner.message === 'string') return inner.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 500);
}

/** Token ids from `token_ids`, else from `token_id:N` strings in `logprobs.tokens`. */
function sampledIds(choice: Record<string, unknown>): number[] | undefined {
  if (isIdList(choice.token_ids)) return choice.token_ids;
  const tokens = isRecord(choice.logprobs) ? choice.logprobs.tokens : undefined;
  if (!Array.isArray(tokens)) return undefined;
  const ids = tokens.map((t) => (typeof t === 'string' ? /^token_id:(\d+)$/.exec(t) : null));
  return ids.every((m): m is RegExpExecArray => m !== null) ? ids.map((m) => Number(m[1])) : undefined;
}

/** The checked sample from a completions response body (exported for tests and other OpenAI-shaped servers). */
export function parseCompletion(data: unknown): Sample {
  const choice: unknown = isRecord(data) && Array.isArray(data.choices) ? data.choices[0] : undefined;
  if (!isRecord(choice)) throw new SamplerFault('bad-response', 'the completions response has no choices[0]');
  const finish = choice.finish_reason;
  if (finish !== 'stop' && finish !== 'length') {
    throw new SamplerFault('bad-response', `the sample finished with finish_reason ${JSON.stringify(finish)}, not 'stop' or 'length'`);
  }
  const tokens = sampledIds(choice);
  if (!tokens) {
    throw new SamplerFault('bad-response', 'the response has no sampled token ids (neither choices[0].token_ids nor token_id:N logprob tokens)');
  }
  const lps = isRecord(choice.logprobs) ? choice.logprobs.token_logprobs : undefined;
  if (lps !== undefined && lps !== null && !(Array.isArray(lps) && lps.every((x) => x === null || typeof x === 'number'))) {
    throw new SamplerFault('bad-response', `choices[0].logprobs.token_logprobs is not a list of numbers: ${JSON.stringify(lps).slice(0, 200)}`);
  }
  return checkSample({ tokens, logprobs: lps ?? null, stopReason: finish });
}

export class VllmSampler implements Sampler {
  readonly weights: string;
  private readonly url: string;

  constructor(private readonly opts: VllmSamplerOptions) {
    this.weights = opts.model;
    this.url = `${opts.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/completions`;
  }

  async sample(req: SampleRequest): Promise<Sample> {
    const body = JSON.stringify({
      model: this.opts.model,
      prompt: req.prompt,
      max_tokens: req.maxTokens,
      temperature: req.temperature,
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
      stop_token_ids: req.stop,
      logprobs: 1,
      return_token_ids: true,
      return_tokens_as_token_ids: true,
      // The stop/special ids are real sampled tokens; keep them in any text too.
      skip_special_tokens: false,
      n: 1,
      stream: false,
    });
    return parseCompletion(await this.post(body, req.signal));
  }

  /** The parsed JSON of a 200 answer, retrying what may pass (network, timeout, 429, 5xx) with backoff. */
  private post(body: string, signal?: AbortSignal): Promise<unknown> {
    const timeoutMs = this.opts.timeoutMs ?? 300_000;
    return postWithRetry({
      url: this.url,
      body,
      headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
      timeoutMs,
      retries: this.opts.retries ?? 3,
      signal,
      read: (status, text) => {
        // A request the server refuses (too long a prompt, an unknown model) fails the same way again.
        if (status !== 200) throw new SamplerFault('http', `${this.url} refused the request with ${status}: ${serverMessage(text)}`, status);
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new SamplerFault('bad-response', `${this.url} answered 200 with a body that is not JSON: ${text.slice(0, 200)}`);
        }
      },
      aborted: () => new SamplerFault('aborted', `${this.url}: sampling aborted by the caller`),
      gaveUp: (attempts, last) => {
        const giveUp = `${this.url}: giving up after ${attempts} attempts; last: ${describe(last, timeoutMs)}`;
        return last.kind === 'status' ? new SamplerFault('http', giveUp, last.status) : new SamplerFault('unreachable', giveUp);
      },
    });
  }
}
