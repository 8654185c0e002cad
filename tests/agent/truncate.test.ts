import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { truncateLine, truncateMiddle } from '../../src/agent/tools/truncate.js';

describe('truncateMiddle', () => {
  it('leaves short text alone', () => {
    assert.equal(truncateMiddle('short', 10), 'short');
    assert.equal(truncateMiddle('x'.repeat(10), 10), 'x'.repeat(10));
  });

  it('keeps head and tail and says how much of the middle was cut', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const out = truncateMiddle(text, 200);
    assert.ok(out.startsWith('line 0\nline 1\n'));
    assert.ok(out.endsWith('line 998\nline 999'));
    const m = /\[\.\.\. (\d+) characters \((\d+) lines\) cut/.exec(out);
    assert.ok(m, out);
    const kept = out.length - out.slice(out.indexOf('\n[...'), out.indexOf('...]\n') + 5).length;
    assert.equal(Number(m[1]) + kept, text.length); // every character is either kept or counted as cut
    assert.ok(Number(m[2]) > 900 && Number(m[2]) < 1000);
    assert.ok(out.length < 200 + 150);
  });

  it('cuts text without newlines at the character budget', () => {
    const out = truncateMiddle('a'.repeat(500) + 'b'.repeat(500), 100);
    assert.ok(out.startsWith('a'.repeat(50) + '\n[... 900 characters (0 lines) cut'));
    assert.ok(out.endsWith('\n' + 'b'.repeat(50)));
  });
});

describe('truncateLine', () => {
  it('cuts one long line and counts the rest', () => {
    assert.equal(truncateLine('abcdef', 4), 'abcd... [2 more characters on this line]');
    assert.equal(truncateLine('abc', 4), 'abc');
  });
});
