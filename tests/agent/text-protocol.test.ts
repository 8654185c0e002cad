import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTextReply, SUBMIT_MARKER, textProtocolPrompt } from '../../src/agent/text-protocol.js';
import { toolset } from '../../src/agent/tools/index.js';

const leaf = toolset('leaf');
const bash = toolset('bash');

describe('text protocol, bash toolset', () => {
  it('takes one fenced bash block as the command', () => {
    const r = parseTextReply('Let me look.\n```bash\nls -la\ncat a.txt\n```\n', 'bash', bash);
    assert.deepEqual(r, { kind: 'action', action: { name: 'Bash', arguments: { command: 'ls -la\ncat a.txt' } } });
  });

  it('submits on the marker line with no action, and rejects none or several actions', () => {
    assert.deepEqual(parseTextReply(`All fixed.\n${SUBMIT_MARKER}\n`, 'bash', bash), { kind: 'submit' });
    const none = parseTextReply('I think it works.', 'bash', bash);
    assert.equal(none.kind, 'format-error');
    assert.match((none as { message: string }).message, /no action found[\s\S]*```bash/);
    const two = parseTextReply('```bash\nls\n```\n```bash\npwd\n```', 'bash', bash);
    assert.match((two as { message: string }).message, /found 2 actions/);
    assert.equal(parseTextReply(`mentions ${SUBMIT_MARKER} inline only`, 'bash', bash).kind, 'format-error');
    assert.equal(parseTextReply(null, 'bash', bash).kind, 'format-error');
  });

  it('runs the action when a reply has both an action and the marker', () => {
    assert.equal(parseTextReply(`\`\`\`bash\ngit diff\n\`\`\`\n${SUBMIT_MARKER}`, 'bash', bash).kind, 'action');
  });
});

describe('text protocol, leaf toolset', () => {
  it('parses one <tool_call> block', () => {
    const r = parseTextReply('Reading.\n<tool_call>{"name": "Read", "arguments": {"file_path": "a.py", "limit": 5}}</tool_call>', 'leaf', leaf);
    assert.deepEqual(r, { kind: 'action', action: { name: 'Read', arguments: { file_path: 'a.py', limit: 5 } } });
    const twice = parseTextReply('<tool_call>{"name": "Glob", "arguments": "{\\"pattern\\": \\"*.py\\"}"}</tool_call>', 'leaf', leaf);
    assert.deepEqual(twice, { kind: 'action', action: { name: 'Glob', arguments: { pattern: '*.py' } } });
  });

  it('reports bad JSON, unknown tools, unclosed and repeated blocks as format errors', () => {
    const cases: [string, RegExp][] = [
      ['<tool_call>{"name": "Read", "arguments": {file_path: 1}}</tool_call>', /not valid JSON/],
      ['<tool_call>{"name": "Delete", "arguments": {}}</tool_call>', /unknown tool "Delete"; the tools are Read, Write, Edit, Glob, Bash/],
      ['<tool_call>{"name": "Read", "arguments": {"file_path": "a"}}', /not closed/],
      ['<tool_call>{"name": "Read", "arguments": []}</tool_call>', /must be a JSON object/],
      ['<tool_call>{"name":"Read","arguments":{}}</tool_call><tool_call>{"name":"Read","arguments":{}}</tool_call>', /found 2 actions/],
      ['```bash\nls\n```', /no action found/],
    ];
    for (const [reply, re] of cases) {
      const r = parseTextReply(reply, 'leaf', leaf);
      assert.equal(r.kind, 'format-error', reply);
      assert.match((r as { message: string }).message, re);
    }
  });

  it('describes every tool and the syntax in the prompt', () => {
    const p = textProtocolPrompt('leaf', leaf);
    for (const name of ['Read', 'Write', 'Edit', 'Glob', 'Bash']) assert.match(p, new RegExp(`- ${name}: `));
    assert.match(p, /<tool_call>\{"name"/);
    assert.match(p, new RegExp(SUBMIT_MARKER));
    assert.match(textProtocolPrompt('bash', bash), /```bash/);
  });
});
