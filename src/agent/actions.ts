// Turning a model turn into actions and actions into observations. Nothing
// here throws at the loop: malformed arguments, unknown tools and failing
// tools all become observations the model can read and correct.
import type { ModelTurn, ToolCall } from '../model/types.js';
import type { Tool, ToolContext } from './tools/index.js';
import { toolName } from './tools/index.js';
import { truncateMiddle } from './tools/truncate.js';
import { errorMessage } from '../util/errors.js';
import { isRecord } from '../util/guards.js';

export interface Action {
  /** The tool call id (native protocol). */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
  /** Set when the action is malformed; it is the observation. */
  error?: string;
}

/** Native tool calls of a turn, each with a call id (one is made up when the server gave none). */
export function nativeCalls(message: ModelTurn['message'], step: number): ToolCall[] {
  return (message.tool_calls ?? []).map((c, i) => ({ ...c, type: 'function', id: c.id || `call_${step}_${i}` }));
}

/** Parses one native tool call's arguments and checks its tool exists. */
export function parseNativeCall(call: ToolCall, tools: readonly Tool[]): Action {
  const name = call.function?.name ?? '';
  const base = { id: call.id, name };
  if (!tools.some((t) => toolName(t) === name)) {
    return { ...base, error: `Error: unknown tool "${name}". The tools are ${tools.map(toolName).join(', ')}.` };
  }
  const read = readArguments(call.function.arguments);
  return 'args' in read ? { ...base, args: read.args } : { ...base, error: formatErrorText(name, read.why) };
}

/**
 * A tool call's arguments as the agent reads them: blank text is no
 * arguments, anything else must be one JSON object. The exports read them by
 * this rule too, so a trajectory shows the call the tool was given.
 */
export function readArguments(raw: unknown): { args: Record<string, unknown> } | { why: string } {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return { args: {} };
  if (typeof raw !== 'string') return { why: 'they are not text' };
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch (err) {
    return { why: `they are not valid JSON (${errorMessage(err)})` };
  }
  return isRecord(args) ? { args } : { why: 'they are not a JSON object' };
}

function formatErrorText(name: string, why: string): string {
  return (
    `Format error: the arguments of your ${name} call could not be used: ${why}. ` +
    'Arguments must be one JSON object with the parameter names as keys and properly escaped strings, ' +
    'e.g. {"file_path": "src/app.py", "old_string": "a = 1\\n", "new_string": "a = 2\\n"}.'
  );
}

/** Runs one well-formed action; the result is what the model sees, truncated to `maxChars`. */
export async function runAction(tools: readonly Tool[], action: Action, ctx: ToolContext, maxChars: number): Promise<{ output: string; isError: boolean }> {
  if (action.error !== undefined) return { output: action.error, isError: true };
  const tool = tools.find((t) => toolName(t) === action.name);
  if (!tool) return { output: `Error: unknown tool "${action.name}".`, isError: true };
  try {
    const res = await tool.run(action.args ?? {}, ctx);
    return { output: truncateMiddle(res.output, maxChars), isError: Boolean(res.isError) };
  } catch (err) {
    // Tools are meant to answer errors as results; this catches the ones that do not.
    return { output: truncateMiddle(`Error: ${action.name} failed: ${errorMessage(err)}`, maxChars), isError: true };
  }
}
