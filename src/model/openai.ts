// A client for any OpenAI-compatible chat server (vLLM, SGLang, llama.cpp
// server, Ollama, hosted APIs): base URL, key, timeout, retries with
// exponential backoff on network errors, 429 and 5xx, and extra request
// fields passed through (e.g. chat-template flags for thinking models).
import { isOneOf, isRecord } from '../util/guards.js';
import { sleep } from '../util/sleep.js';

export interface ChatMessage {
  role: (typeof CHAT_ROLES)[number];
  content: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
  reasoning_content?: string;
}

export const CHAT_ROLES = ['system', 'user', 'assistant', 'tool'] as const;

/** A chat message read from a file or the wire, checked field by field. */
export function isChatMessage(v: unknown): v is ChatMessage {
  return (
    isRecord(v) &&
    isOneOf(CHAT_ROLES, v.role) &&
    (typeof v.content === 'string' || v.content === null) &&
    (v.tool_calls === undefined || Array.isArray(v.tool_calls)) &&
    (v.tool_call_id === undefined || typeof v.tool_call_id === 'string') &&
    (v.reasoning_content === undefined || typeof v.reasoning_content === 'string')
  );
}

export interface ChatClientOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  retries?: number;
  /** Extra fields merged into every request body. */
  extraBody?: Record<string, unknown>;
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  tools?: unknown[];
  /** Extra fields for this request only (e.g. `logprobs`); the client's extraBody still wins. */
  extra?: Record<string, unknown>;
  /** Aborts the request, its retries and the waits between them. */
  signal?: AbortSignal;
}

export interface ChatResponse {
  message: ChatMessage;
  finishReason: string | null;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  raw: unknown;
}

export class ChatError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ChatError';
  }
}

/** The reply message typed; fields servers add (e.g. `reasoning`) ride along for the caller to read. */
function assistantMessage(raw: Record<string, unknown>): ChatMessage {
  const { role: _role, content, tool_calls, tool_call_id, reasoning_content, ...rest } = raw;
  return {
    ...rest,
    role: 'assistant',
    content: typeof content === 'string' ? content : null,
    ...(Array.isArray(tool_calls) ? { tool_calls } : {}),
    ...(typeof tool_call_id === 'string' ? { tool_call_id } : {}),
    ...(typeof reasoning_content === 'string' ? { reasoning_content } : {}),
  };
}

function usageOf(raw: Record<string, unknown>): NonNullable<ChatResponse['usage']> {
  return {
    ...(typeof raw.prompt_tokens === 'number' ? { prompt_tokens: raw.prompt_tokens } : {}),
    ...(typeof raw.completion_tokens === 'number' ? { completion_tokens: raw.completion_tokens } : {}),
  };
}

export class ChatClient {
  constructor(readonly opts: ChatClientOptions) {}

  get model(): string {
    return this.opts.model;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const body = {
      model: this.opts.model,
      messages: req.messages,
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
      ...(req.tools ? { tools: req.tools } : {}),
      ...req.extra,
      ...this.opts.extraBody,
    };
    const retries = this.opts.retries ?? 3;
    let lastError: Error = new ChatError('no attempt made');
    const aborted = () => new ChatError(`${url}: request aborted`);
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(Math.min(8000, 250 * 2 ** (attempt - 1)), req.signal);
      if (req.signal?.aborted) throw aborted();
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), this.opts.timeoutMs ?? 120000);
      const onAbort = () => controller.abort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal: controller.signal,
        });
        const text = await res.text();
        if (res.status === 429 || res.status >= 500) {
          lastError = new ChatError(`${url} answered ${res.status}: ${text.slice(0, 200)}`, res.status);
          continue;
        }
        if (!res.ok) throw new ChatError(`${url} answered ${res.status}: ${text.slice(0, 500)}`, res.status);
        const data: unknown = JSON.parse(text);
        const choice: unknown = isRecord(data) && Array.isArray(data.choices) ? data.choices[0] : undefined;
        if (!isRecord(data) || !choice) throw new ChatError(`${url} returned no choices`);
        if (!isRecord(choice) || !isRecord(choice.message)) throw new ChatError(`${url} returned a choice without a message: ${text.slice(0, 200)}`);
        const finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
        const usage = isRecord(data.usage) ? usageOf(data.usage) : undefined;
        return { message: assistantMessage(choice.message), finishReason, ...(usage ? { usage } : {}), raw: data };
      } catch (err) {
        if (err instanceof ChatError && err.status !== undefined && err.status < 500 && err.status !== 429) throw err;
        if (err instanceof ChatError && !err.status) throw err;
        if (req.signal?.aborted) throw aborted();
        const error = err instanceof Error ? err : new Error(String(err));
        lastError = error.name === 'AbortError' ? new ChatError(`${url} did not answer within ${this.opts.timeoutMs ?? 120000} ms`) : error;
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      }
    }
    throw new ChatError(`giving up after ${retries + 1} attempts: ${lastError.message}`);
  }
}
