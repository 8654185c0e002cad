import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { proceduralAttempts } from '../../src/taskpilot/procedural/generate.js';
import type { SourceFile } from '../../src/taskpilot/sources.js';
import { LIB } from '../helpers/runner-repos.js';

describe('procedural draws', () => {
  it('does not make the same bug twice in one run while untaken sites remain', async () => {
    const files: SourceFile[] = [{ rel: 'lib/math.js', lang: 'javascript', text: LIB }];
    for (const seed of [0, 1, 2, 3]) {
      const picks: string[] = [];
      for await (const a of proceduralAttempts(files, { n: 8, seed, salt: 'lib', operators: ['operations'] })) {
        if (a.candidate) picks.push(`${a.operator} at ${a.candidate.edit.line}:${a.candidate.edit.column}`);
      }
      assert.ok(picks.length >= 4, `seed ${seed}: ${picks.length} candidates`);
      assert.equal(new Set(picks).size, picks.length, `seed ${seed}: the same pick twice: ${picks.join(', ')}`);
    }
  });

  it('rounds that share their picks never repeat one, and stop once every site is taken', async () => {
    const files: SourceFile[] = [{ rel: 'lib/math.js', lang: 'javascript', text: LIB }];
    const taken = new Set<string>();
    const picks: string[] = [];
    let attempts = 0;
    for (let round = 0; round < 12; round++) {
      for await (const a of proceduralAttempts(files, { n: 4, seed: round, salt: 'lib', operators: ['operations'], taken })) {
        attempts++;
        if (a.candidate) picks.push(`${a.operator} at ${a.candidate.edit.line}:${a.candidate.edit.column}`);
      }
    }
    assert.equal(new Set(picks).size, picks.length, `a pick repeated across rounds: ${picks.join(', ')}`);
    assert.ok(attempts < 48, `attempts stop when the sites run out: ${attempts} of 48`);
    assert.equal(attempts, taken.size, 'one attempt per distinct pick');
  });
});
