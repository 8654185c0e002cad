// A scripted model: replies come from a function the caller supplies, never
// from a learned model. Used by tests and by the red-team suite; it says so
// in its name, which ends up in every trajectory it produces.
import type { Model, ModelTurn, ToolCall, TurnRequest } from './types.js';

/** One scripted reply: text, tool calls (arguments as objects or raw text), or a thrown error. */
export interface ScriptedReply {
  content?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> | string }[];
  reasoning?: string;
  finishReason?: string;
  error?: Error;
  usage?: { promptTokens?: number; completionTokens?: number };
}

export type Script = ScriptedReply[] | ((req: TurnRequest, turn: number) => ScriptedReply | Promise<ScriptedReply>);

export class ScriptedModel implements Model {
  readonly name: string;
  readonly requests: TurnRequest[] = [];
  private calls = 0;

  constructor(
    private readonly script: Script,
    opts: { name?: string; supportsTools?: boolean } = {},
  ) {
    this.name = `scripted:${opts.name ?? 'model'}`;
    this.supportsTools = opts.supportsTools ?? true;
  }

  readonly supportsTools: boolean;

  async turn(req: TurnRequest): Promise<ModelTurn> {
    const n = this.calls++;
    this.requests.push(req);
    const reply = Array.isArray(this.script) ? (this.script[n] ?? { content: 'scripted model: script exhausted' }) : await this.script(req, n);
    if (reply.error) throw reply.error;
    const toolCalls: ToolCall[] | undefined = reply.toolCalls?.map((c, i) => ({
      id: `call_${n}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
    }));
    return {
      message: {
        role: 'assistant',
        content: reply.content ?? null,
        ...(toolCalls?.length ? { tool_calls: toolCalls } : {}),
        ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
      },
      finishReason: reply.finishReason ?? (toolCalls?.length ? 'tool_calls' : 'stop'),
      ...(reply.usage ? { usage: reply.usage } : {}),
    };
  }
}
