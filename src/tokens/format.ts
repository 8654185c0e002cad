// What a chat template does with an assistant turn, learned by rendering
// probe conversations through it rather than written down per model family:
// the generation prompt, the token that ends a turn, the reasoning markers
// and the tool-call syntax (JSON in tags as Qwen3 and Hermes write it, or
// <function=...> XML as Qwen3-Coder and Qwen3.5 write it).
import type { ChatMessage, ToolSpec } from '../model/types.js';
import { UserError } from '../util/errors.js';
import type { ChatTemplate } from './template.js';
import type { TextTokenizer } from './tokenizer.js';

export type ToolCallSyntax = { kind: 'json'; open: string; close: string } | { kind: 'xml-function'; open: string; close: string };

export interface ChatFormat {
  /** What add_generation_prompt appends after the last message. */
  generationPrompt: string;
  /** The text and id of the token that ends an assistant turn (the sampler's stop token). */
  endOfTurn: string;
  endOfTurnId: number;
  /** Reasoning markers, when the template renders reasoning_content. */
  think?: { open: string; close: string };
  toolCalls: ToolCallSyntax;
}

const SYSTEM: ChatMessage = { role: 'system', content: 'probe system' };
const USER: ChatMessage = { role: 'user', content: 'probe user' };
const ANSWER = 'PROBE_ANSWER_7f3a';
const REASONING = 'PROBE_REASONING_7f3a';
const FN = 'probe_fn_7f3a';
const ARG = 'probe_arg_7f3a';
const VALUE = 'probe_value_7f3a';
const PROBE_TOOL: ToolSpec = {
  type: 'function',
  function: { name: FN, description: 'probe', parameters: { type: 'object', properties: { [ARG]: { type: 'string' } } } },
};

/** The assistant message's own rendering: the text a conversation gains by ending with it. */
function assistantPart(tpl: ChatTemplate, assistant: ChatMessage): string {
  const before = tpl.render([SYSTEM, USER], [PROBE_TOOL], false);
  const after = tpl.render([SYSTEM, USER, assistant], [PROBE_TOOL], false);
  if (!after.startsWith(before))
    throw new UserError('the chat template renders earlier messages differently once an assistant turn follows; cannot build token trajectories with it');
  return after.slice(before.length);
}

/** The first tag-like marker (<...>) in `text`, reading forward or backward. */
function nearestTag(text: string, backward: boolean): string | undefined {
  const tags = [...text.matchAll(/<[^<>\s]+>/g)].map((m) => m[0]);
  return backward ? tags.at(-1) : tags[0];
}

function probeToolCalls(tpl: ChatTemplate): ToolCallSyntax {
  const part = assistantPart(tpl, {
    role: 'assistant',
    content: '',
    tool_calls: [{ id: 'probe_call', type: 'function', function: { name: FN, arguments: JSON.stringify({ [ARG]: VALUE }) } }],
  });
  const at = part.indexOf(FN);
  if (at < 0) throw new UserError('the chat template does not render tool calls');
  if (part.includes(`<function=${FN}>`) && part.includes(`<parameter=${ARG}>`)) {
    const start = part.indexOf(`<function=${FN}>`);
    const end = part.indexOf('</function>', start) + '</function>'.length;
    const open = nearestTag(part.slice(0, start), true);
    const close = nearestTag(part.slice(end), false);
    if (open && close) return { kind: 'xml-function', open, close };
  }
  const brace = part.lastIndexOf('{', at);
  const valueAt = part.indexOf(VALUE, at);
  if (brace >= 0 && valueAt > 0) {
    const end = part.indexOf('}}', valueAt);
    const open = nearestTag(part.slice(0, brace), true);
    const close = end > 0 ? nearestTag(part.slice(end + 2), false) : undefined;
    if (open && close) return { kind: 'json', open, close };
  }
  throw new UserError(
    `unsupported tool-call syntax in the chat template: ${JSON.stringify(part.slice(0, 300))}`,
    'supported: JSON in tags (Qwen3, Hermes) and <function=...> XML (Qwen3-Coder, Qwen3.5)',
  );
}

function probeThink(tpl: ChatTemplate): ChatFormat['think'] {
  const part = assistantPart(tpl, { role: 'assistant', content: ANSWER, reasoning_content: REASONING });
  const r = part.indexOf(REASONING);
  const a = part.indexOf(ANSWER);
  if (r < 0 || a < r) return undefined;
  const open = nearestTag(part.slice(0, r), true);
  const close = nearestTag(part.slice(r + REASONING.length, a), false);
  return open && close ? { open, close } : undefined;
}

/** Probes the template; throws a UserError naming what it could not find. */
export function probeFormat(tpl: ChatTemplate, tokenizer: TextTokenizer): ChatFormat {
  const closed = tpl.render([SYSTEM, USER], [PROBE_TOOL], false);
  const open = tpl.render([SYSTEM, USER], [PROBE_TOOL], true);
  if (!open.startsWith(closed)) throw new UserError('the chat template changes earlier messages when asked for a generation prompt');
  const generationPrompt = open.slice(closed.length);
  const answer = assistantPart(tpl, { role: 'assistant', content: ANSWER });
  const tail = answer.slice(answer.indexOf(ANSWER) + ANSWER.length);
  // The end of a turn is the first single token in what follows the answer: <|im_end|> for Qwen, <|eot_id|> for Llama 3.
  const marker = [...tail.matchAll(/<[^<>\s]+>|\S+/g)].map((m) => m[0]).find((t) => tokenizer.tokenId(t) !== undefined && tokenizer.encode(t).length === 1);
  if (marker === undefined)
    throw new UserError(`the chat template ends an assistant turn with ${JSON.stringify(tail)}, which holds no single end-of-turn token`);
  const think = probeThink(tpl);
  return { generationPrompt, endOfTurn: marker, endOfTurnId: tokenizer.tokenId(marker)!, ...(think ? { think } : {}), toolCalls: probeToolCalls(tpl) };
}
