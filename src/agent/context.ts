// How big the next prompt is, for the context limit: the server's own count
// of the last prompt plus an estimate of what was added since, or an
// estimate of the whole history (about four characters a token) when the
// server reports no usage.
import type { ChatMessage, ToolSpec } from '../model/types.js';

export function estimateTokens(values: Iterable<unknown>): number {
  let chars = 0;
  for (const v of values) {
    if (v === undefined || v === null) continue;
    chars += typeof v === 'string' ? v.length : JSON.stringify(v).length;
  }
  return Math.ceil(chars / 4);
}

function messageParts(messages: ChatMessage[]): unknown[] {
  return messages.flatMap((m) => [m.content, m.tool_calls]);
}

export class ContextMeter {
  private last: { promptTokens: number; completionTokens?: number; at: number } | undefined;

  constructor(
    private readonly messages: ChatMessage[],
    private readonly specs?: ToolSpec[],
  ) {}

  /** Records the usage the server reported for the turn whose reply is messages[at]. */
  observe(usage: { promptTokens?: number; completionTokens?: number } | undefined, at: number): void {
    if (usage?.promptTokens === undefined) return;
    this.last = { promptTokens: usage.promptTokens, at, ...(usage.completionTokens !== undefined ? { completionTokens: usage.completionTokens } : {}) };
  }

  tokens(): number {
    if (!this.last) return estimateTokens(messageParts(this.messages)) + (this.specs ? estimateTokens([this.specs]) : 0);
    const reply = this.messages[this.last.at];
    const replyTokens = this.last.completionTokens ?? (reply ? estimateTokens(messageParts([reply])) : 0);
    return this.last.promptTokens + replyTokens + estimateTokens(messageParts(this.messages.slice(this.last.at + 1)));
  }
}
