// A Model over any OpenAI-compatible chat server (vLLM, SGLang, llama.cpp
// server, Ollama, hosted APIs). Tool calls come back exactly as the server
// gave them (arguments stay raw text, even when malformed); reasoning is
// kept under either name servers use; token ids and logprobs are requested
// when asked for and kept when the server returns them.
import { ChatClient, type ChatClientOptions } from './openai.js';
import type { AssistantMessage, Model, ModelTurn, TurnRequest } from './types.js';
import { parseTurnTokens } from './chat-tokens.js';
import { isRecord } from '../util/guards.js';

export interface ChatModelOptions extends ChatClientOptions {
  /** Ask for per-token logprobs (`logprobs: true`) and fill ModelTurn.tokens when they come back. */
  logprobs?: boolean;
  /**
   * Also ask for sampled and prompt token ids with the fields vLLM
   * (`return_token_ids`) and llama.cpp server (`return_tokens`) read.
   * Implies `logprobs`. Off by default: strict hosted APIs reject unknown fields.
   */
  tokenIds?: boolean;
  /** False: the harness uses the text protocol with this model. Default true. */
  supportsTools?: boolean;
  /** Shown in trajectories; default `chat:<model>`. */
  name?: string;
}

interface RawMessage {
  content?: unknown;
  tool_calls?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
}

/** The assistant message, normalized: content, tool calls with raw-text arguments, reasoning. */
export function normalizeMessage(raw: RawMessage, turn: number): AssistantMessage {
  const calls: unknown[] = Array.isArray(raw.tool_calls) ? raw.tool_calls : [];
  const toolCalls = calls.map((c, i) => {
    const call: Record<string, unknown> = isRecord(c) ? c : {};
    const fn: Record<string, unknown> = isRecord(call.function) ? call.function : {};
    const args = fn.arguments;
    return {
      id: typeof call.id === 'string' && call.id ? call.id : `call_${turn}_${i}`,
      type: 'function' as const,
      function: {
        name: typeof fn.name === 'string' ? fn.name : '',
        // Some servers send an object; a string is kept byte for byte.
        arguments: typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args),
      },
    };
  });
  const reasoning = typeof raw.reasoning_content === 'string' ? raw.reasoning_content : typeof raw.reasoning === 'string' ? raw.reasoning : undefined;
  return {
    role: 'assistant',
    content: typeof raw.content === 'string' ? raw.content : null,
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    ...(reasoning ? { reasoning_content: reasoning } : {}),
  };
}

export class ChatModel implements Model {
  readonly name: string;
  readonly supportsTools: boolean;
  readonly client: ChatClient;
  private turns = 0;

  constructor(readonly opts: ChatModelOptions) {
    this.client = new ChatClient(opts);
    this.name = opts.name ?? `chat:${opts.model}`;
    this.supportsTools = opts.supportsTools ?? true;
  }

  async turn(req: TurnRequest): Promise<ModelTurn> {
    const turn = this.turns++;
    const extra: Record<string, unknown> = {};
    if (this.opts.logprobs || this.opts.tokenIds) extra.logprobs = true;
    if (this.opts.tokenIds) Object.assign(extra, { return_token_ids: true, return_tokens: true });
    const res = await this.client.chat({
      messages: req.messages,
      ...(req.tools?.length ? { tools: req.tools } : {}),
      ...(req.maxTokens !== undefined ? { maxTokens: req.maxTokens } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      extra,
    });
    const usage = res.usage
      ? {
          ...(res.usage.prompt_tokens !== undefined ? { promptTokens: res.usage.prompt_tokens } : {}),
          ...(res.usage.completion_tokens !== undefined ? { completionTokens: res.usage.completion_tokens } : {}),
        }
      : undefined;
    const tokens = this.opts.logprobs || this.opts.tokenIds ? parseTurnTokens(res.raw) : undefined;
    return {
      message: normalizeMessage(res.message as RawMessage, turn),
      finishReason: res.finishReason ?? null,
      ...(usage ? { usage } : {}),
      ...(tokens ? { tokens } : {}),
    };
  }
}
