// A client for any OpenAI-compatible chat server (vLLM, SGLang, llama.cpp
// server, Ollama, hosted APIs): base URL, key, timeout, retries with
// exponential backoff on network errors, 429 and 5xx, and extra request
// fields passed through (e.g. chat-template flags for thinking models).
import { isOneOf, isRecord } from '../util/guards.js';
import { postWithRetry, RetryAnswer } from '../util/post-retry.js';

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

/** A 2xx reply's message, finish reason and usage; a reply without them is a ChatError saying so. */
function chatResponse(url: string, text: string): ChatResponse {
  const data: unknown = JSON.parse(text);
  const choice: unknown = isRecord(data) && Array.isArray(data.choices) ? data.choices[0] : undefined;
  if (!isRecord(data) || !choice) throw new ChatError(`${url} returned no choices`);
  if (!isRecord(choice) || !isRecord(choice.message)) throw new ChatError(`${url} returned a choice without a message: ${text.slice(0, 200)}`);
  const finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
  const usage = isRecord(data.usage) ? usageOf(data.usage) : undefined;
  return { message: assistantMessage(choice.message), finishReason, ...(usage ? { usage } : {}), raw: data };
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
    const timeoutMs = this.opts.timeoutMs ?? 120000;
    return postWithRetry({
      url,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
      timeoutMs,
      retries: this.opts.retries ?? 3,
      signal: req.signal,
      read: (status, text) => {
        if (status < 200 || status >= 300) throw new ChatError(`${url} answered ${status}: ${text.slice(0, 500)}`, status);
        try {
          return chatResponse(url, text);
        } catch (err) {
          // A malformed reply may be a passing fault: asked again. A reply that says what is missing is not.
          if (err instanceof ChatError) throw err;
          throw new RetryAnswer(err instanceof Error ? err.message : String(err));
        }
      },
      aborted: () => new ChatError(`${url}: request aborted`),
      gaveUp: (attempts, last) => {
        const why =
          last.kind === 'status'
            ? `${url} answered ${last.status}: ${last.text.slice(0, 200)}`
            : last.kind === 'timeout'
              ? `${url} did not answer within ${timeoutMs} ms`
              : last.error.message;
        return new ChatError(`giving up after ${attempts} attempts: ${why}`);
      },
    });
  }
}
