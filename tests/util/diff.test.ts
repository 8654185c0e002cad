import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { addedLines, fileDiff, patchFiles } from '../../src/util/diff.js';
import { tempDir } from '../helpers/workspace.js';

function roundTrip(before: string, after: string): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'f.txt'), before);
  const patch = fileDiff('f.txt', before, after);
  execFileSync('git', ['apply', '-'], { cwd: dir, input: patch });
  return readFileSync(join(dir, 'f.txt'), 'utf8');
}

const base = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n') + '\n';

describe('unified diffs', () => {
  it('apply with git apply to give the new text', () => {
    const cases: [string, string][] = [
      [base, base.replace('line 3\n', 'line three\n')],
      [base, base.replace('line 3\n', '').replace('line 25\n', 'x\ny\n')],
      [base, 'first\n' + base],
      [base, base + 'last\n'],
      [base, base.slice(0, -1)],
      ['a\nb', 'a\nc'],
      ['a\nb', 'a\nb\n'],
      ['', 'new\n'],
      [base, base.replace(/line 1\d/g, 'changed')],
    ];
    for (const [before, after] of cases) assert.equal(roundTrip(before, after), after);
  });

  it('is empty for equal texts and names the files it touches', () => {
    assert.equal(fileDiff('x', 'a', 'a'), '');
    const p = fileDiff('src/a.js', 'a\n', 'b\n');
    assert.deepEqual(patchFiles(p), ['src/a.js']);
    assert.deepEqual(addedLines(p), ['b']);
  });
});
