// OpenAI-messages JSONL, the fine-tuning layout: one {messages, tools?} object
// per line and trajectory. Tools are listed only for native tool-calling
// trajectories; a text-protocol trajectory is plain chat.
import type { ChatMessage, ToolSpec } from '../../model/types.js';
import { isToolsetName, toolSpecs, toolset } from '../tools/index.js';
import type { Trajectory } from '../trajectory.js';
import { isChatMessage } from '../../model/openai.js';
import { isRecord } from '../../util/guards.js';
import { jsonLines } from '../../util/json-lines.js';

export interface OpenAIExample {
  messages: ChatMessage[];
  tools?: ToolSpec[];
}

export interface OpenAIExportOptions {
  /** Keep the assistants' reasoning_content (most fine-tuning APIs reject the field). */
  reasoning?: boolean;
}

function isToolSpec(v: unknown): v is ToolSpec {
  return (
    isRecord(v) &&
    v.type === 'function' &&
    isRecord(v.function) &&
    typeof v.function.name === 'string' &&
    typeof v.function.description === 'string' &&
    isRecord(v.function.parameters)
  );
}

/** A message with only the fields chat fine-tuning accepts. */
function clean(m: ChatMessage, reasoning: boolean): ChatMessage {
  return {
    role: m.role,
    content: m.content,
    ...(m.tool_calls?.length ? { tool_calls: m.tool_calls } : {}),
    ...(m.tool_call_id !== undefined ? { tool_call_id: m.tool_call_id } : {}),
    ...(reasoning && m.reasoning_content !== undefined ? { reasoning_content: m.reasoning_content } : {}),
  };
}

export function toOpenAIExample(t: Trajectory, opts: OpenAIExportOptions = {}): OpenAIExample {
  const messages = t.messages.map((m) => clean(m, opts.reasoning ?? false));
  const native = t.meta.protocol === 'tools' && isToolsetName(t.meta.toolset);
  return native ? { messages, tools: toolSpecs(toolset(t.meta.toolset)) } : { messages };
}

export function toOpenAIJsonl(trajectories: Trajectory[], opts: OpenAIExportOptions = {}): string {
  return jsonLines(trajectories.map((t) => toOpenAIExample(t, opts)));
}

export function fromOpenAIJsonl(text: string): OpenAIExample[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line, i) => {
      const ex: unknown = JSON.parse(line);
      if (!isRecord(ex) || !Array.isArray(ex.messages)) throw new Error(`line ${i + 1} has no messages array`);
      const messages: unknown[] = ex.messages;
      if (!messages.every(isChatMessage)) {
        throw new Error(`line ${i + 1}: message ${messages.findIndex((m) => !isChatMessage(m)) + 1} is not a chat message (role, content)`);
      }
      const tools: unknown = ex.tools;
      if (tools === undefined) return { ...ex, messages };
      if (!Array.isArray(tools) || !tools.every(isToolSpec)) throw new Error(`line ${i + 1}: tools is not a list of function tools`);
      return { ...ex, messages, tools };
    });
}
