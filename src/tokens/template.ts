// Rendering a conversation with the model's own Jinja chat template
// (@huggingface/jinja). Messages are handed over as the template expects
// them: tool-call arguments as objects (Qwen3 writes them with `tojson`,
// XML-style templates iterate over them), null content as ''.
import { Template } from '@huggingface/jinja';
import type { ChatMessage, ToolSpec } from '../model/types.js';
import { errorMessage, UserError } from '../util/errors.js';
import { isRecord } from '../util/guards.js';
import type { ModelFolder } from './tokenizer.js';

export interface TemplateOptions {
  /** Passed as `enable_thinking` when set (Qwen3 and Qwen3.5 templates read it); absent: the template's default. */
  thinking?: boolean;
}

/** Arguments as an object when they are a JSON object, else the raw text (a malformed call is shown as the model wrote it). */
function argumentsValue(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    const v: unknown = JSON.parse(raw);
    return isRecord(v) ? v : raw;
  } catch {
    return raw;
  }
}

function templateMessage(m: ChatMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: m.content ?? '' };
  if (m.reasoning_content !== undefined) out.reasoning_content = m.reasoning_content;
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (m.tool_calls?.length) {
    out.tool_calls = m.tool_calls.filter(isRecord).map((c) => {
      const fn = isRecord(c.function) ? c.function : {};
      return { ...c, function: { name: fn.name, arguments: argumentsValue(fn.arguments) } };
    });
  }
  return out;
}

export class ChatTemplate {
  private readonly template: Template;

  constructor(
    private readonly folder: Pick<ModelFolder, 'chatTemplate' | 'specialTokens' | 'dir'>,
    private readonly options: TemplateOptions = {},
  ) {
    try {
      this.template = new Template(folder.chatTemplate);
    } catch (err) {
      throw new UserError(`the chat template in ${folder.dir} does not parse: ${errorMessage(err)}`);
    }
  }

  render(messages: readonly ChatMessage[], tools: readonly ToolSpec[] | undefined, addGenerationPrompt: boolean): string {
    return this.template.render({
      messages: messages.map(templateMessage),
      ...(tools?.length ? { tools } : {}),
      add_generation_prompt: addGenerationPrompt,
      ...this.folder.specialTokens,
      ...(this.options.thinking !== undefined ? { enable_thinking: this.options.thinking } : {}),
    });
  }
}
