// A client for any OpenAI-compatible chat server (vLLM, SGLang, llama.cpp
// server, Ollama, hosted APIs): base URL, key, timeout, retries with
// exponential backoff on network errors, 429 and 5xx, and extra request
// fields passed through (e.g. chat-template flags for thinking models).

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
  reasoning_content?: string;
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
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'ChatError';
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
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
        const data = JSON.parse(text) as { choices?: { message: ChatMessage; finish_reason: string | null }[]; usage?: ChatResponse['usage'] };
        const choice = data.choices?.[0];
        if (!choice) throw new ChatError(`${url} returned no choices`);
        return { message: choice.message, finishReason: choice.finish_reason, ...(data.usage ? { usage: data.usage } : {}), raw: data };
      } catch (err) {
        if (err instanceof ChatError && err.status !== undefined && err.status < 500 && err.status !== 429) throw err;
        if (err instanceof ChatError && !err.status) throw err;
        if (req.signal?.aborted) throw aborted();
        lastError = (err as Error).name === 'AbortError' ? new ChatError(`${url} did not answer within ${this.opts.timeoutMs ?? 120000} ms`) : (err as Error);
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      }
    }
    throw new ChatError(`giving up after ${retries + 1} attempts: ${lastError.message}`);
  }
}
