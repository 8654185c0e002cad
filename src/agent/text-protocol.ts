// The text protocol, for models without native tool calls: the system prompt
// describes the tools and the action syntax, and each reply carries exactly
// one action. Toolset `bash`: one ```bash fenced block (mini-swe-agent
// style). Toolset `leaf`: one <tool_call>{"name": ..., "arguments": {...}}
// </tool_call> block. A reply with no action and the line FROGNANO_SUBMIT
// ends the episode; no action otherwise, or several, is a format error.
import type { Tool, ToolsetName } from './tools/index.js';
import { toolName } from './tools/index.js';
import { errorMessage } from '../util/errors.js';
import { isRecord } from '../util/guards.js';

export const SUBMIT_MARKER = 'FROGNANO_SUBMIT';

export interface TextAction {
  name: string;
  arguments: Record<string, unknown>;
}

export type TextParse = { kind: 'submit' } | { kind: 'action'; action: TextAction } | { kind: 'format-error'; message: string };

const BASH_BLOCK = /```(?:bash|sh)[ \t]*\n([\s\S]*?)```/g;
const TOOL_CALL = /<tool_call>([\s\S]*?)<\/tool_call>/g;
const SUBMIT_LINE = new RegExp(`^\\s*${SUBMIT_MARKER}\\s*$`, 'm');

function syntax(toolset: ToolsetName): string {
  return toolset === 'bash'
    ? 'one command in a single fenced block:\n```bash\nyour command here\n```'
    : 'one tool call in a single block:\n<tool_call>{"name": "Read", "arguments": {"file_path": "src/app.py"}}</tool_call>';
}

function formatError(toolset: ToolsetName, problem: string): TextParse {
  return {
    kind: 'format-error',
    message:
      `Format error: ${problem}\nEvery reply must contain exactly ${syntax(toolset)}\n` +
      `When the task is done, reply with the line ${SUBMIT_MARKER} and no action.`,
  };
}

function parseToolCall(body: string, toolset: ToolsetName, names: string[]): TextParse {
  let call: unknown;
  try {
    call = JSON.parse(body.trim());
  } catch (err) {
    return formatError(toolset, `the <tool_call> block is not valid JSON (${errorMessage(err)}).`);
  }
  if (!isRecord(call) || typeof call.name !== 'string') {
    return formatError(toolset, 'the <tool_call> block must be a JSON object with "name" and "arguments".');
  }
  const name = call.name;
  if (!names.includes(name)) return formatError(toolset, `unknown tool "${name}"; the tools are ${names.join(', ')}.`);
  let args = call.arguments ?? {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args); // some models encode the arguments object twice
    } catch {
      /* reported below */
    }
  }
  if (!isRecord(args)) return formatError(toolset, '"arguments" must be a JSON object.');
  return { kind: 'action', action: { name, arguments: args } };
}

/** Parses one reply of a text-protocol model. */
export function parseTextReply(content: string | null, toolset: ToolsetName, tools: readonly Tool[]): TextParse {
  const text = content ?? '';
  const blocks = [...text.matchAll(toolset === 'bash' ? BASH_BLOCK : TOOL_CALL)].map((m) => m[1]!);
  if (blocks.length > 1) return formatError(toolset, `found ${blocks.length} actions in one reply; send exactly one and wait for its result.`);
  if (blocks.length === 1) {
    if (toolset === 'bash') {
      const command = blocks[0]!.replace(/\n$/, '');
      if (!command.trim()) return formatError(toolset, 'the bash block is empty.');
      return { kind: 'action', action: { name: 'Bash', arguments: { command } } };
    }
    return parseToolCall(blocks[0]!, toolset, tools.map(toolName));
  }
  if (SUBMIT_LINE.test(text)) return { kind: 'submit' };
  if (toolset === 'leaf' && text.includes('<tool_call>')) return formatError(toolset, 'a <tool_call> block was opened but not closed with </tool_call>.');
  return formatError(toolset, 'no action found in your reply.');
}

/** The system-prompt section that teaches a text-protocol model its tools and the action syntax. */
export function textProtocolPrompt(toolset: ToolsetName, tools: readonly Tool[]): string {
  const done = `When the task is done, reply with a line containing only ${SUBMIT_MARKER} and no action.`;
  if (toolset === 'bash') {
    return [
      'You act by running shell commands. Every reply must contain exactly ' + syntax(toolset),
      'Explain your reasoning briefly before the block. After each reply you get the exit code and output of the command.',
      done,
    ].join('\n\n');
  }
  const list = tools.map(
    (t) => `- ${t.spec.function.name}: ${t.spec.function.description}\n  arguments (JSON Schema): ${JSON.stringify(t.spec.function.parameters)}`,
  );
  return [
    `You act by calling tools. The tools:\n${list.join('\n')}`,
    'Every reply must contain exactly ' + syntax(toolset),
    'Explain your reasoning briefly before the block. After each reply you get the result of the call.',
    done,
  ].join('\n\n');
}
