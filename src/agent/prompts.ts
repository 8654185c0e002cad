// The default system prompt. It says where the repository is, how commands
// behave, and how to finish; the text protocol adds the tool descriptions
// and action syntax that native tool calling carries in the request.
import { textProtocolPrompt } from './text-protocol.js';
import type { Tool, ToolsetName } from './tools/index.js';

export interface PromptOptions {
  toolset: ToolsetName;
  tools: readonly Tool[];
  /** True: the model calls tools natively; false: the text protocol. */
  native: boolean;
  /** Where the repository appears to the model. */
  workdir: string;
}

export function defaultSystemPrompt(o: PromptOptions): string {
  const intro = [
    `You are a careful software engineer. The repository is at ${o.workdir}; make the change the user asks for by editing its files.`,
    'Work in small steps: look at the relevant code, reproduce the problem, make a focused edit, then check it (for example by running the tests).',
    'Commands run in a fresh shell in the repository root each time, without network access; cd and environment variables do not carry over between commands.',
    'Do not change the tests unless the task asks for it.',
  ].join('\n');
  const finish = o.native
    ? 'When the task is done, reply with a short summary of the change and no tool call; that ends the episode.'
    : textProtocolPrompt(o.toolset, o.tools);
  return `${intro}\n\n${finish}`;
}
