// The model protocol: where an agent's actions come from. One call is one
// assistant turn. Implementations: an OpenAI-compatible chat server
// (chat-model.ts), an embedded GGUF model (llama.ts), a scripted model for
// tests (scripted.ts), and the embedded policy the trainer improves.
import type { ChatMessage } from './openai.js';

export type { ChatMessage };

/** A tool as OpenAI-style function calling describes it. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** One tool call as the model emitted it; `arguments` is raw JSON text (it may be malformed). */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Token-level record of one turn, kept when the model side returns it (training needs tokens, never re-tokenized text). */
export interface TurnTokens {
  /** Prompt token ids, when known. */
  promptIds?: number[];
  /** Sampled completion token ids. */
  ids: number[];
  /** Log-probability of each sampled token under the sampling distribution. */
  logprobs: number[];
}

export interface TurnRequest {
  messages: ChatMessage[];
  /** Absent: the model is asked for text only (text protocol). */
  tools?: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
  seed?: number;
  signal?: AbortSignal;
}

/** An assistant message as a model returns it: tool calls typed (ChatMessage keeps them opaque). */
export type AssistantMessage = Omit<ChatMessage, 'tool_calls'> & { tool_calls?: ToolCall[] };

export interface ModelTurn<D = unknown> {
  /** The assistant message: content, tool_calls (ToolCall[]) and reasoning_content when present. */
  message: AssistantMessage;
  finishReason: string | null;
  usage?: { promptTokens?: number; completionTokens?: number };
  tokens?: TurnTokens;
  /** Log-probability of the whole action, for policies that know it exactly (the embedded policy). */
  logprob?: number;
  /** What a learner trains on from this turn (rl/contract.ts Turn); kept in the harness's result, not in recorded trajectories. */
  learner?: D;
}

/** `D`: the learner data its turns carry (rl/contract.ts); models that are not trained carry none. */
export interface Model<D = unknown> {
  /** Shown in trajectories and reports. */
  readonly name: string;
  /** False: the harness uses the text protocol (actions in fenced blocks). */
  readonly supportsTools: boolean;
  turn(req: TurnRequest): Promise<ModelTurn<D>>;
  /** Frees what the model holds (an embedded model's weights, a server connection). */
  close?(): Promise<void>;
}
