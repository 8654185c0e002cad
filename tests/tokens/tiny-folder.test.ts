// The tiny byte-level model folder (src/tokens/tiny-folder.ts) read by the
// same loader as a real one, and the errors a bad folder or an unusable chat
// template give.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ChatMessage, ToolSpec } from '../../src/model/types.js';
import { ChatCodec } from '../../src/tokens/codec.js';
import { TINY_ADDED_TOKENS, TINY_CHAT_TEMPLATE, writeTinyModelFolder } from '../../src/tokens/tiny-folder.js';
import { loadModelFolder } from '../../src/tokens/tokenizer.js';
import { TokenTranscript } from '../../src/tokens/transcript.js';
import { UserError } from '../../src/util/errors.js';

const scratch = mkdtempSync(join(tmpdir(), 'frognano-tiny-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let folders = 0;

/** A fresh tiny folder; `template` replaces the chat template (in chat_template.jinja). */
function tinyFolder(template?: string): string {
  const dir = writeTinyModelFolder(join(scratch, `m${folders++}`));
  if (template !== undefined) writeFileSync(join(dir, 'chat_template.jinja'), template);
  return dir;
}

/** TINY_CHAT_TEMPLATE with one piece replaced (asserting the piece is there). */
function variant(find: string, replace: string, prefix = ''): string {
  assert.ok(TINY_CHAT_TEMPLATE.includes(find), `the tiny template holds ${JSON.stringify(find)}`);
  return prefix + TINY_CHAT_TEMPLATE.replace(find, replace);
}

function userErrorOf(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof UserError, `expected a UserError, got ${String(err)}`);
    return err;
  }
  assert.fail('no error was thrown');
}

const TOOLS: ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'Bash',
      description: 'Run a command',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
  },
];

/** A deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random text: ASCII, whitespace runs, Latin-1, other scripts, astral code points (emoji) and random scalar values. */
function randomText(next: () => number, length: number): string {
  const pool = [
    'a',
    'Z',
    '0',
    ' ',
    '  ',
    '\n',
    '\r\n',
    '\t',
    '{"k": [1]}',
    '<',
    '|',
    'é',
    'ß',
    'Ω',
    'ж',
    '中文',
    'カ',
    '🐸',
    '👩‍💻',
    '\u00a0',
    '\u200b',
    '\u007f',
    '\u0000',
  ];
  let out = '';
  for (let i = 0; i < length; i++) {
    if (next() < 0.7) {
      out += pool[Math.floor(next() * pool.length)];
    } else {
      let cp = Math.floor(next() * 0x110000);
      if (cp >= 0xd800 && cp <= 0xdfff) cp -= 0x800; // no lone surrogates: a JS string of them has no UTF-8 form
      out += String.fromCodePoint(cp);
    }
  }
  return out;
}

describe('the tiny model folder', () => {
  const codec = ChatCodec.load(tinyFolder());
  const tok = codec.tokenizer;

  it('has one id per byte plus the added tokens: 265 in all', () => {
    assert.equal(tok.vocabSize, 256 + TINY_ADDED_TOKENS.length);
    assert.equal(tok.vocabSize, 265);
    assert.deepEqual(
      tok.addedIds,
      TINY_ADDED_TOKENS.map((_, i) => 256 + i),
    );
  });

  it('tokenizes any text to its UTF-8 bytes and decodes them back exactly', () => {
    const next = rng(20240611);
    for (let n = 0; n < 300; n++) {
      const text = randomText(next, 1 + Math.floor(next() * 40));
      const ids = tok.encode(text);
      assert.deepEqual(ids, [...Buffer.from(text, 'utf8')], `ids of ${JSON.stringify(text)}`);
      assert.equal(tok.decode(ids), text, `round trip of ${JSON.stringify(text)}`);
    }
    const every = Buffer.from(Array.from({ length: 128 }, (_, b) => b)).toString('latin1') + 'ÿ€\u{10ffff}';
    assert.equal(tok.decode(tok.encode(every)), every);
    assert.deepEqual(tok.encode(''), []);
  });

  it('keeps each added token a single id, inside text too', () => {
    for (const [i, text] of TINY_ADDED_TOKENS.entries()) {
      assert.deepEqual(tok.encode(text), [256 + i], text);
      assert.equal(tok.tokenId(text), 256 + i);
      assert.equal(tok.decode([256 + i]), text);
    }
    const im = (t: string) => tok.tokenId(t)!;
    assert.deepEqual(tok.encode('a<think>b\n</think>'), [97, im('<think>'), 98, 10, im('</think>')]);
    assert.deepEqual(tok.encode('<|im_start|>user\n'), [im('<|im_start|>'), ...Buffer.from('user\n')]);
    assert.equal(tok.tokenId('<|im_end'), undefined);
  });

  it('probes to ChatML with <think> reasoning and JSON calls in <tool_call> tags', () => {
    assert.deepEqual(codec.format, {
      generationPrompt: '<|im_start|>assistant\n',
      endOfTurn: '<|im_end|>',
      endOfTurnId: 258,
      think: { open: '<think>', close: '</think>' },
      toolCalls: { kind: 'json', open: '<tool_call>', close: '</tool_call>' },
    });
  });

  it('runs an episode whose prompts equal the re-rendering tokenized at once', () => {
    const transcript = new TokenTranscript(codec);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'List the files, then say how many — ünïcödé ok?' },
    ];
    assert.deepEqual(transcript.prompt(messages, TOOLS), tok.encode(codec.template.render(messages, TOOLS, true)));
    const turn = transcript.append({
      tokens: tok.encode('<think>ls</think>\nLooking.<tool_call>{"name": "Bash", "arguments": {"command": "ls"}}</tool_call><|im_end|>'),
      logprobs: [],
      stopReason: 'stop',
    });
    const msg = codec.parse(turn.sampledTokens, TOOLS, 0);
    assert.deepEqual(msg, {
      role: 'assistant',
      content: 'Looking.',
      reasoning_content: 'ls',
      tool_calls: [{ id: 'call_0_0', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } }],
    });
    messages.push(msg, { role: 'tool', content: 'a.py\nb.py 🐸', tool_call_id: 'call_0_0' });
    assert.deepEqual(transcript.prompt(messages, TOOLS), tok.encode(codec.template.render(messages, TOOLS, true)));
  });

  it('throws when the harness does not extend the conversation it was given', () => {
    const transcript = new TokenTranscript(codec);
    const messages: ChatMessage[] = [{ role: 'user', content: 'hi' }];
    transcript.prompt(messages, TOOLS);
    transcript.append({ tokens: tok.encode('Hello.<|im_end|>'), logprobs: [], stopReason: 'stop' });
    assert.throws(() => transcript.prompt(messages, TOOLS), /token transcript out of step/);
  });
});

describe('a bad model folder', () => {
  it('missing tokenizer.json: a UserError naming the file', () => {
    const dir = tinyFolder();
    unlinkSync(join(dir, 'tokenizer.json'));
    const err = userErrorOf(() => loadModelFolder(dir));
    assert.match(err.message, /tokenizer\.json not found/);
    assert.ok(err.message.includes(join(dir, 'tokenizer.json')));
    assert.match(err.hint ?? '', /tokenizer\.json/);
  });

  it('missing tokenizer_config.json, or an empty folder: a UserError naming the file', () => {
    const dir = tinyFolder();
    unlinkSync(join(dir, 'tokenizer_config.json'));
    assert.ok(userErrorOf(() => loadModelFolder(dir)).message.includes(join(dir, 'tokenizer_config.json')));
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    assert.match(userErrorOf(() => ChatCodec.load(empty)).message, /tokenizer\.json not found/);
  });

  it('malformed JSON: a UserError naming the file', () => {
    const dir = tinyFolder();
    writeFileSync(join(dir, 'tokenizer.json'), '{"version": "1.0", "model": {');
    const err = userErrorOf(() => loadModelFolder(dir));
    assert.ok(err.message.includes(join(dir, 'tokenizer.json')), err.message);
    assert.match(err.message, /not valid JSON/);
    const dir2 = tinyFolder();
    writeFileSync(join(dir2, 'tokenizer_config.json'), '[1, 2');
    assert.match(userErrorOf(() => loadModelFolder(dir2)).message, /tokenizer_config\.json is not valid JSON/);
    writeFileSync(join(dir2, 'tokenizer_config.json'), '[1, 2]');
    assert.match(userErrorOf(() => loadModelFolder(dir2)).message, /tokenizer_config\.json does not hold a JSON object/);
  });

  it('JSON that is no tokenizer: a UserError saying the tokenizer cannot be loaded', () => {
    const dir = tinyFolder();
    writeFileSync(join(dir, 'tokenizer.json'), '{"version": "1.0"}');
    assert.match(userErrorOf(() => loadModelFolder(dir)).message, /cannot load the tokenizer in/);
  });

  it('no chat template, or one that does not parse: a UserError', () => {
    const dir = tinyFolder();
    writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ eos_token: '<|im_end|>' }));
    assert.match(userErrorOf(() => loadModelFolder(dir)).message, /no chat template in/);
    assert.match(userErrorOf(() => ChatCodec.load(tinyFolder('{% for m in messages %}{{ m.content }}'))).message, /does not parse/);
  });
});

describe('chat templates probing refuses', () => {
  it('tool calls in an unknown syntax: a UserError naming the supported syntaxes', () => {
    const template = variant(
      '<tool_call>{"name": {{ call.function.name | tojson }}, "arguments": {{ call.function.arguments | tojson }}}</tool_call>',
      '[{{ call.function.name }}({% for k, v in call.function.arguments.items() %}{{ k }}={{ v | tojson }}{% endfor %})]',
    );
    const err = userErrorOf(() => ChatCodec.load(tinyFolder(template)));
    assert.match(err.message, /unsupported tool-call syntax/);
    assert.ok(err.message.includes('[probe_fn_7f3a(probe_arg_7f3a='), 'the message shows what the template wrote');
    assert.match(err.hint ?? '', /JSON in tags/);
    assert.match(err.hint ?? '', /<function=\.\.\.> XML/);
  });

  it('a template that does not render tool calls at all', () => {
    const template = variant('{%- for call in message.tool_calls or [] %}', '{%- for call in [] %}');
    assert.match(userErrorOf(() => ChatCodec.load(tinyFolder(template))).message, /does not render tool calls/);
  });

  it('a template that ends a turn with no single token', () => {
    const template = TINY_CHAT_TEMPLATE.replaceAll('<|im_end|>', '[END]');
    assert.match(userErrorOf(() => ChatCodec.load(tinyFolder(template))).message, /no single end-of-turn token/);
  });

  it('a template that renders the user turn differently once an assistant turn follows', () => {
    const template = variant(
      "{%- if message.role == 'user' %}<|im_start|>user\n{{ message.content }}",
      "{%- if message.role == 'user' %}<|im_start|>user\n{{ message.content }}{% if loop.last %} (answer now){% endif %}",
    );
    assert.match(userErrorOf(() => ChatCodec.load(tinyFolder(template))).message, /renders earlier messages differently/);
  });
});

describe('a template that re-renders earlier turns as the episode grows', () => {
  /** Starts an episode; each call of the returned step samples a tool call, answers it and asks for the next prompt. */
  function episode(template: string): () => void {
    const codec = ChatCodec.load(tinyFolder(template));
    const tok = codec.tokenizer;
    const transcript = new TokenTranscript(codec);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
    ];
    transcript.prompt(messages, TOOLS);
    let i = 0;
    const step = () => {
      const turn = transcript.append({
        tokens: tok.encode(`Step ${i}.<tool_call>{"name": "Bash", "arguments": {"command": "ls"}}</tool_call><|im_end|>`),
        logprobs: [],
        stopReason: 'stop',
      });
      const msg = codec.parse(turn.sampledTokens, TOOLS, i++);
      messages.push(msg, { role: 'tool', content: 'a.py', tool_call_id: msg.tool_calls![0]!.id });
      transcript.prompt(messages, TOOLS);
    };
    return step;
  }

  it('drops an earlier assistant turn content once a later assistant turn follows: prompt() throws', () => {
    const template = variant(
      '</think>\n{% endif %}{{ message.content }}',
      '</think>\n{% endif %}{% if loop.index0 == ns.last %}{{ message.content }}{% endif %}',
      "{%- set ns = namespace(last=-1) %}{%- for m in messages %}{%- if m.role == 'assistant' %}{%- set ns.last = loop.index0 %}{%- endif %}{%- endfor %}",
    );
    const step = episode(template);
    assert.doesNotThrow(step, 'with one assistant turn nothing before it changes');
    assert.throws(step, /renders earlier turns differently as the episode grows; token trajectories cannot be built/);
  });

  it('rewrites the system turn once a tool result is in the conversation: prompt() throws at the first tool result', () => {
    const template = variant(
      'Call one as <tool_call>',
      '{% if ns.tools %}Tool results follow. {% endif %}Call one as <tool_call>',
      "{%- set ns = namespace(tools=false) %}{%- for m in messages %}{%- if m.role == 'tool' %}{%- set ns.tools = true %}{%- endif %}{%- endfor %}",
    );
    assert.throws(episode(template), /renders earlier turns differently/);
  });
});
