import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { repairsIn } from '../../src/policy/candidates.js';
import { featurize, slotOf, type FeatureContext } from '../../src/policy/features.js';
import { corpusOf, occurrences, tokens } from '../../src/policy/naturalness.js';
import { words } from '../../src/policy/observe.js';

// Three loops over an array; a bug flipped the second one's `<` into `>`.
const BUGGY = [
  'export function sum(xs) {',
  '  let s = 0;',
  '  for (let i = 0; i < xs.length; i++) s += xs[i];',
  '  return s;',
  '}',
  'export function max(xs) {',
  '  let m = -Infinity;',
  '  for (let i = 0; i > xs.length; i++) m = Math.max(m, xs[i]);',
  '  return m;',
  '}',
  'export function count(xs, y) {',
  '  let n = 0;',
  '  for (let i = 0; i < xs.length; i++) if (xs[i] === y) n++;',
  '  return n;',
  '}',
  '',
].join('\n');
const FILE = 'src/arr.js';

describe('naturalness', () => {
  it('tokenizes operators whole and strings as one token', () => {
    assert.deepEqual(tokens(`if (a <= b && s === 'x y') a += 1;`), ['if', '(', 'a', '<=', 'b', '&&', 's', '===', "'x y'", ')', 'a', '+=', '1', ';']);
  });

  it('counts a token sequence with its context, at token boundaries and within one line', () => {
    const corpus = corpusOf([BUGGY]);
    const at = BUGGY.indexOf('> xs.length');
    // The buggy `>` occurs once (itself); restoring `<` recreates a sequence found twice elsewhere.
    assert.deepEqual(occurrences(BUGGY, at, at + 1, '<', corpus), { before: 1, after: 2 });
    // A multi-line edit has no one-line context to compare.
    assert.deepEqual(occurrences(BUGGY, 0, BUGGY.indexOf('\n') + 3, 'x\ny', corpus), { before: 0, after: 0 });
  });

  it('the candidate that undoes the bug has the highest naturalness gain of the candidates on the loop lines', async () => {
    const ctx: FeatureContext = {
      frames: [],
      failures: [],
      testWords: words(''),
      instructionWords: words(''),
      tried: new Set(),
      blind: true,
      testedStems: new Set(),
      corpus: corpusOf([BUGGY]),
    };
    const gain = slotOf('natGain');
    const scored = (await repairsIn(FILE, BUGGY)).map((r) => {
      const f = featurize(r, BUGGY, ctx);
      return { r, gain: f.val[f.idx.indexOf(gain)] ?? 0 };
    });
    const best = scored.reduce((a, b) => (b.gain > a.gain ? b : a));
    assert.equal(best.r.line, 8);
    assert.equal(best.r.text, '<');
    // Breaking a healthy loop the same way gains nothing (it recreates only the bug's pattern).
    const breaking = scored.find((s) => s.r.line === 3 && s.r.text === '>');
    assert.ok(breaking && breaking.gain <= 0 && best.gain > 1, `${breaking?.gain} ${best.gain}`);
  });
});
