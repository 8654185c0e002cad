import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatClient } from '../../src/model/openai.js';
import { instructionLeaks, llmInstruction } from '../../src/taskpilot/instructions.js';
import { LlmGenerator, extractCode, reindent } from '../../src/taskpilot/llm.js';
import type { SourceFile } from '../../src/taskpilot/sources.js';
import { startScriptedModel } from '../helpers/model-server.js';

const PY: SourceFile = {
  rel: 'pkg/calc.py',
  lang: 'python',
  text: `class Calc:
    def total(self, xs):
        """Sum of the positive numbers in xs."""
        out = 0
        for x in xs:
            if x > 0:
                out += x
        return out
`,
};

const BUGGY = `def total(self, xs):
    """Sum of the positive numbers in xs."""
    out = 0
    for x in xs:
        if x >= 0:
            out += x
    return out`;

describe('LLM generators against a scripted OpenAI-compatible server', () => {
  it('modify: sends the function, splices the buggy version back at its indentation', async () => {
    const server = await startScriptedModel(() => ({ content: `Here you go:\n\`\`\`python\n${BUGGY}\n\`\`\`\n` }));
    try {
      const gen = new LlmGenerator(new ChatClient({ baseUrl: server.url, model: 'scripted', apiKey: 'k' }));
      const r = await gen.generate('llm-modify', [PY], { seed: 1, salt: 'x', index: 0 });
      assert.ok('files' in r, JSON.stringify(r));
      if (!('files' in r)) return;
      const after = r.files['pkg/calc.py']!.after;
      assert.match(after, /^class Calc:\n    def total\(self, xs\):/);
      assert.match(after, /\n            if x >= 0:\n/);
      assert.equal(r.edit.operator, 'llm-modify');
      const prompt = server.requests[0]!.body.messages[0]!.content;
      assert.match(prompt, /subtle bug/);
      assert.match(prompt, /if x > 0:/);
      assert.equal(server.requests[0]!.headers.authorization, 'Bearer k');
    } finally {
      await server.close();
    }
  });

  it('rewrite: shows only the signature and docstring; a reply that does not parse is rejected', async () => {
    const server = await startScriptedModel(() => ({ content: '```python\ndef total(self, xs):\n    return sum(x for x in xs if x > 0\n```' }));
    try {
      const gen = new LlmGenerator(new ChatClient({ baseUrl: server.url, model: 'scripted' }));
      const r = await gen.generate('llm-rewrite', [PY], { seed: 1, salt: 'x', index: 0 });
      assert.deepEqual(r, { failure: 'unparseable' });
      const prompt = server.requests[0]!.body.messages[0]!.content;
      assert.match(prompt, /Sum of the positive numbers/);
      assert.doesNotMatch(prompt, /out \+= x/, 'the body is not shown');
    } finally {
      await server.close();
    }
  });

  it('an unchanged function is no bug', async () => {
    const server = await startScriptedModel(() => ({ content: '```python\n' + PY.text.split('\n').slice(1).join('\n').replace(/^    /gm, '') + '```' }));
    try {
      const gen = new LlmGenerator(new ChatClient({ baseUrl: server.url, model: 'scripted' }));
      assert.deepEqual(await gen.generate('llm-modify', [PY], { seed: 1, salt: 'x', index: 0 }), { failure: 'no-change' });
    } finally {
      await server.close();
    }
  });
});

describe('OpenAI-compatible client', () => {
  it('retries 5xx and 429 with backoff, then succeeds', async () => {
    const server = await startScriptedModel((_r, n) => (n <= 2 ? { status: n === 1 ? 503 : 429 } : { content: 'ok' }));
    try {
      const client = new ChatClient({ baseUrl: server.url, model: 'm', retries: 3 });
      const res = await client.chat({ messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(res.message.content, 'ok');
      assert.equal(server.requests.length, 3);
    } finally {
      await server.close();
    }
  });

  it('times out a slow server and gives up after its retries', async () => {
    const server = await startScriptedModel(() => ({ content: 'late', delayMs: 2000 }));
    try {
      const client = new ChatClient({ baseUrl: server.url, model: 'm', retries: 1, timeoutMs: 200 });
      await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'hi' }] }), /giving up after 2 attempts: .*did not answer within 200 ms/);
    } finally {
      await server.close();
    }
  });

  it('does not retry a 400, and passes extra body fields through', async () => {
    const server = await startScriptedModel(() => ({ status: 400 }));
    try {
      const client = new ChatClient({ baseUrl: server.url, model: 'm', extraBody: { chat_template_kwargs: { enable_thinking: false } } });
      await assert.rejects(client.chat({ messages: [{ role: 'user', content: 'hi' }] }), /answered 400/);
      assert.equal(server.requests.length, 1);
      assert.deepEqual(server.requests[0]!.body.chat_template_kwargs, { enable_thinking: false });
    } finally {
      await server.close();
    }
  });
});

describe('LLM-written issue text', () => {
  it('asks for a user report without tests or fix; the leak check still applies to it', async () => {
    const fix = 'diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-    return a - b\n+    return a + b\n';
    const server = await startScriptedModel((_r, n) => ({ content: n === 1 ? 'add(2, 3) gives -1 instead of 5.' : 'Just write `return a + b` there.' }));
    try {
      const client = new ChatClient({ baseUrl: server.url, model: 'scripted' });
      const input = {
        envName: 'calc',
        language: 'python',
        f2p: ['tests/test_m.py::test_add'],
        failures: { 'tests/test_m.py::test_add': 'assert -1 == 5' },
        hint: 'symptom' as const,
      };
      const good = await llmInstruction(client, input, fix);
      assert.equal(good, 'add(2, 3) gives -1 instead of 5.\n');
      assert.match(server.requests[0]!.body.messages[0]!.content, /Do not mention tests/);
      assert.deepEqual(instructionLeaks(good, fix), []);
      const leaky = await llmInstruction(client, input, fix);
      assert.deepEqual(instructionLeaks(leaky, fix), ['return a + b']);
    } finally {
      await server.close();
    }
  });
});

describe('code extraction', () => {
  it('takes the first fenced block and re-indents it', () => {
    assert.equal(extractCode('x\n```js\nfoo()\n```\n```js\nbar()\n```'), 'foo()');
    assert.equal(reindent('def f():\n    return 1', '    '), 'def f():\n        return 1');
  });
});
