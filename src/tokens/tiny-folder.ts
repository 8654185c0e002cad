// A tiny model folder written on the spot: a byte-level BPE tokenizer with no
// merges (every byte a token, about 270 ids in all) and a ChatML chat
// template with tool calls and reasoning, in the layout a Hugging Face model
// folder has. It is what `frognano tinker-dev` and the tests use where no real
// model folder can be downloaded; the code that reads it is the code that
// reads a real one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TINY_ADDED_TOKENS = [
  '<|endoftext|>',
  '<|im_start|>',
  '<|im_end|>',
  '<think>',
  '</think>',
  '<tool_call>',
  '</tool_call>',
  '<tool_response>',
  '</tool_response>',
];

/** GPT-2's reversible byte-to-character map: printable bytes stand for themselves, the rest move above 255. */
function byteChars(): string[] {
  const chars: string[] = [];
  let shifted = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    chars.push(String.fromCodePoint(printable ? b : 256 + shifted++));
  }
  return chars;
}

export function tinyTokenizerJson(): Record<string, unknown> {
  const vocab = Object.fromEntries(byteChars().map((c, i) => [c, i]));
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: TINY_ADDED_TOKENS.map((content, i) => ({
      id: 256 + i,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: i < 3,
    })),
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: null,
    decoder: byteLevel,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: [],
    },
  };
}

/** ChatML with tools described in the system turn, calls as JSON in <tool_call> tags and results in <tool_response> tags. */
export const TINY_CHAT_TEMPLATE = `{%- if tools %}<|im_start|>system
{% if messages[0].role == 'system' %}{{ messages[0].content }}

{% endif %}Tools:
{% for tool in tools %}{{ tool.function.name }}: {{ tool.function.description }}
{% endfor %}Call one as <tool_call>{"name": ..., "arguments": {...}}</tool_call><|im_end|>
{% elif messages[0].role == 'system' %}<|im_start|>system
{{ messages[0].content }}<|im_end|>
{% endif %}
{%- for message in messages %}
{%- if message.role == 'user' %}<|im_start|>user
{{ message.content }}<|im_end|>
{% elif message.role == 'assistant' %}<|im_start|>assistant
{% if message.reasoning_content %}<think>{{ message.reasoning_content }}</think>
{% endif %}{{ message.content }}
{%- for call in message.tool_calls or [] %}<tool_call>{"name": {{ call.function.name | tojson }}, "arguments": {{ call.function.arguments | tojson }}}</tool_call>{% endfor %}<|im_end|>
{% elif message.role == 'tool' %}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user
{% endif %}<tool_response>{{ message.content }}</tool_response>
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>
{% endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;

/** Writes tokenizer.json and tokenizer_config.json into `dir` (created when missing). */
export function writeTinyModelFolder(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizerJson()));
  const config = {
    tokenizer_class: 'PreTrainedTokenizerFast',
    bos_token: null,
    eos_token: '<|im_end|>',
    pad_token: '<|endoftext|>',
    chat_template: TINY_CHAT_TEMPLATE,
  };
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(config, null, 2));
  return dir;
}
