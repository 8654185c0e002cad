// Sampled text back to an assistant message: reasoning, content and tool
// calls, in the syntax the template was found to use (format.ts). A call the
// model wrote badly stays a call with its raw text as arguments, so the
// harness answers it with an error the model can learn from, and a block cut
// off by the token limit is such a call too.
import type { AssistantMessage, ToolCall, ToolSpec } from '../model/types.js';
import { isRecord } from '../util/guards.js';
import type { ChatFormat, ToolCallSyntax } from './format.js';

function jsonCall(body: string): { name: string; args: string } {
  try {
    const v: unknown = JSON.parse(body);
    if (isRecord(v) && typeof v.name === 'string') {
      const args = v.arguments ?? v.parameters ?? {};
      return { name: v.name, args: typeof args === 'string' ? args : JSON.stringify(args) };
    }
  } catch {
    // Malformed: fall through to the raw text.
  }
  const name = /"name"\s*:\s*"([^"\\]*)"/.exec(body)?.[1] ?? '';
  return { name, args: body };
}

/** A parameter's value: JSON when the tool's schema says it is not a string and the text parses, else the text. */
function paramValue(text: string, type: unknown): unknown {
  if (type === 'string' || type === undefined) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function xmlCall(body: string, tools: readonly ToolSpec[]): { name: string; args: string } {
  const fn = /<function=([^>\n]+)>/.exec(body);
  if (!fn) return { name: '', args: body };
  const name = fn[1]!.trim();
  const props = tools.find((t) => t.function.name === name)?.function.parameters.properties;
  const args: Record<string, unknown> = {};
  for (const m of body.matchAll(/<parameter=([^>\n]+)>\n?([\s\S]*?)\n?<\/parameter>/g)) {
    const key = m[1]!.trim();
    const type = isRecord(props) && isRecord(props[key]) ? props[key].type : undefined;
    args[key] = paramValue(m[2]!, type);
  }
  return { name, args: body.includes('</function>') ? JSON.stringify(args) : body };
}

/** Splits text into tool-call bodies and the prose around them; an unclosed block runs to the end. */
function splitCalls(text: string, syntax: ToolCallSyntax): { prose: string; bodies: string[] } {
  const bodies: string[] = [];
  let prose = '';
  let at = 0;
  for (;;) {
    const start = text.indexOf(syntax.open, at);
    if (start < 0) break;
    prose += text.slice(at, start);
    const from = start + syntax.open.length;
    const end = text.indexOf(syntax.close, from);
    bodies.push(text.slice(from, end < 0 ? text.length : end).trim());
    at = end < 0 ? text.length : end + syntax.close.length;
  }
  return { prose: prose + text.slice(at), bodies };
}

/**
 * The assistant message in `text` (decoded sampled tokens, end-of-turn token
 * included or not). `openedByPrompt`: the generation prompt already opened a
 * reasoning block, so the text starts inside it.
 */
export function parseAssistant(text: string, format: ChatFormat, tools: readonly ToolSpec[], turn: number): AssistantMessage {
  let rest = text.endsWith(format.endOfTurn) ? text.slice(0, -format.endOfTurn.length) : text;
  let reasoning: string | undefined;
  const think = format.think;
  if (think) {
    const openedByPrompt = format.generationPrompt.trimEnd().endsWith(think.open);
    const close = rest.indexOf(think.close);
    const open = rest.indexOf(think.open);
    if (close >= 0 && (openedByPrompt || (open >= 0 && open < close))) {
      reasoning = rest.slice(open >= 0 && open < close ? open + think.open.length : 0, close).trim();
      rest = rest.slice(close + think.close.length);
    }
  }
  const { prose, bodies } = splitCalls(rest, format.toolCalls);
  const calls: ToolCall[] = bodies.map((body, i) => {
    const { name, args } = format.toolCalls.kind === 'json' ? jsonCall(body) : xmlCall(body, tools);
    return { id: `call_${turn}_${i}`, type: 'function', function: { name, arguments: args } };
  });
  return {
    role: 'assistant',
    content: prose.trim(),
    ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    ...(calls.length ? { tool_calls: calls } : {}),
  };
}
