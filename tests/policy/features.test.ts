import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { repairsIn, type Repair } from '../../src/policy/candidates.js';
import { DENSE_FEATURES, enclosingNames, FEATURE_DIM, featurize, shapeOf, slotOf, type FeatureContext, type Sparse } from '../../src/policy/features.js';
import { LinearPolicy } from '../../src/policy/linear.js';
import { words } from '../../src/policy/observe.js';

const TEXT = 'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';
const FILE = 'src/math.js';
/** Dense slot 0 is "the candidate is on a line of a failing stack frame". */
const IN_FRAME = 0;

function ctx(over: Partial<FeatureContext> = {}): FeatureContext {
  return {
    frames: [
      { file: FILE, line: 2, depth: 0 },
      { file: 'tests/math.test.js', line: 6, depth: 1 },
    ],
    failures: [{ name: 'add sums', message: '-1 !== 5', errorType: 'AssertionError', snippet: '' }],
    testWords: words('add sums add(2, 3)'),
    instructionWords: words('add(2, 3) returns -1 instead of 5.'),
    tried: new Set(),
    blind: false,
    testedStems: new Set(['math']),
    ...over,
  };
}

const value = (f: Sparse, i: number) => {
  const at = f.idx.indexOf(i);
  return at < 0 ? 0 : f.val[at]!;
};

describe('featurize', () => {
  let repairs: Repair[];
  const onFrame = () => repairs.find((r) => r.line === 2 && r.operator === 'op_change')!;
  const elsewhere = () => repairs.find((r) => r.line === 6 && r.operator === 'op_change')!;

  it('puts weight on the frame-line feature only for a candidate on a frame line', async () => {
    repairs = await repairsIn(FILE, TEXT);
    assert.ok(onFrame() && elsewhere());
    const a = featurize(onFrame(), TEXT, ctx());
    const b = featurize(elsewhere(), TEXT, ctx());
    assert.equal(value(a, IN_FRAME), 1);
    assert.equal(value(b, IN_FRAME), 0);
    // The same candidate loses it when the frame points elsewhere.
    assert.equal(value(featurize(onFrame(), TEXT, ctx({ frames: [{ file: FILE, line: 6, depth: 0 }] })), IN_FRAME), 0);
    assert.equal(value(featurize(onFrame(), TEXT, ctx({ frames: [{ file: 'src/other.js', line: 2, depth: 0 }] })), IN_FRAME), 0);
  });

  it('so that a policy weighting that feature prefers the frame-line candidate', async () => {
    repairs = await repairsIn(FILE, TEXT);
    const feats = repairs.map((r) => featurize(r, TEXT, ctx()));
    const p = new LinearPolicy();
    p.w[IN_FRAME] = 3;
    const probs = p.probabilities(feats);
    const best = probs.indexOf(Math.max(...probs));
    assert.equal(repairs[best]!.line, 2);
    assert.ok(probs[repairs.indexOf(onFrame())]! > probs[repairs.indexOf(elsewhere())]! * 10);
  });

  it('distinguishes a function the failing tests name from one they do not', async () => {
    repairs = await repairsIn(FILE, TEXT);
    const noFrames = ctx({ frames: [] });
    const a = featurize(onFrame(), TEXT, noFrames);
    const b = featurize(elsewhere(), TEXT, noFrames);
    assert.ok(a.idx.filter((i) => i < DENSE_FEATURES.length).length > b.idx.filter((i) => i < DENSE_FEATURES.length).length, `${a.idx} vs ${b.idx}`);
  });

  it('marks a line already tried, and is otherwise a pure function of its inputs', async () => {
    repairs = await repairsIn(FILE, TEXT);
    const plain = featurize(onFrame(), TEXT, ctx());
    const tried = featurize(onFrame(), TEXT, ctx({ tried: new Set([`${FILE}:2`]) }));
    assert.equal(tried.idx.length, plain.idx.length + 1);
    assert.deepEqual(featurize(onFrame(), TEXT, ctx()), plain);
  });

  it('keeps indices distinct and inside the feature dimension, hashed kinds depending on the error type', async () => {
    repairs = await repairsIn(FILE, TEXT);
    for (const r of repairs) {
      const f = featurize(r, TEXT, ctx());
      assert.equal(f.idx.length, f.val.length);
      assert.equal(new Set(f.idx).size, f.idx.length, 'no index twice');
      for (const i of f.idx) assert.ok(Number.isInteger(i) && i >= 0 && i < FEATURE_DIM, String(i));
      for (const v of f.val) assert.ok(Number.isFinite(v) && v !== 0);
    }
    const a = featurize(onFrame(), TEXT, ctx());
    const b = featurize(onFrame(), TEXT, ctx({ failures: [{ name: 'add sums', message: 'boom', errorType: 'TypeError', snippet: '' }] }));
    assert.notDeepEqual(a.idx, b.idx);
  });
});

describe('featurize: where the failing tests point', () => {
  let repairs: Repair[];
  const at = (line: number) => repairs.find((r) => r.line === line && r.operator === 'op_change')!;
  // Two failing tests: both traces pass through add's line 2; one also through mul's line 6.
  const frames = [
    { file: FILE, line: 2, depth: 0, failure: 0 },
    { file: 'tests/math.test.js', line: 4, depth: 1, failure: 0 },
    { file: FILE, line: 2, depth: 0, failure: 1 },
    { file: FILE, line: 6, depth: 1, failure: 1 },
  ];

  it('gives the share of failing traces passing within one and three lines, and through the function', async () => {
    repairs = await repairsIn(FILE, TEXT);
    const shared = featurize(at(2), TEXT, ctx({ frames }));
    const once = featurize(at(6), TEXT, ctx({ frames }));
    assert.equal(value(shared, slotOf('cov1')), 1);
    assert.equal(value(shared, slotOf('innermost')), 1);
    assert.equal(value(shared, slotOf('fnOnStack')), 1);
    assert.equal(value(once, slotOf('cov1')), 0.5);
    assert.equal(value(once, slotOf('innermost')), 0, 'mul is not the innermost source frame of any trace');
    assert.equal(value(once, slotOf('fnOnStack')), 0.5);
    // Test-file frames do not count as source traces.
    assert.equal(value(featurize(at(2), TEXT, ctx({ frames: [{ file: 'tests/math.test.js', line: 2, depth: 0, failure: 0 }] })), slotOf('cov1')), 0);
  });

  it('marks the function a failing test line calls', async () => {
    repairs = await repairsIn(FILE, TEXT);
    const c = ctx({ frames: [], failLineWords: words('assert.equal(add(2, 3), 5);') });
    assert.equal(value(featurize(at(2), TEXT, c), slotOf('fnCalled')), 1);
    assert.equal(value(featurize(at(6), TEXT, c), slotOf('fnCalled')), 0);
  });

  it('makes the untrained policy prefer the line both traces share', async () => {
    repairs = await repairsIn(FILE, TEXT);
    const probs = new LinearPolicy().probabilities(repairs.map((r) => featurize(r, TEXT, ctx({ frames }))));
    assert.ok(probs[repairs.indexOf(at(2))]! > 3 * probs[repairs.indexOf(at(6))]!);
  });
});

describe('shapeOf', () => {
  it('abstracts names and literals, keeping operators and small integers', () => {
    assert.equal(shapeOf("'expire', node"), 's, a');
    assert.equal(shapeOf('x.length === 0 && y.length > 10'), 'a.a === 0 && a.a > n');
    assert.equal(shapeOf('a  -  b'), 'a - a');
    assert.equal(shapeOf('value is not None'), 'a is not None');
  });
});

describe('enclosingNames', () => {
  it('names the function each line belongs to (JavaScript and Python)', () => {
    assert.deepEqual(enclosingNames(TEXT), ['add', 'add', 'add', 'add', 'mul', 'mul', 'mul', 'mul']);
    const py = 'import os\n\ndef first(xs):\n    if xs:\n        return xs[0]\n\nclass Box:\n    def get(self):\n        return 1\n';
    assert.deepEqual(enclosingNames(py), ['', '', 'first', 'first', 'first', 'first', 'Box', 'get', 'get', 'get']);
  });

  it('recognises methods and arrow fields, and does not take control statements for definitions', () => {
    const js = 'class Cache {\n  get(key) {\n    if (key) {\n      while (key) {}\n    }\n  }\n  evict = (n) => {\n    for (;;) {}\n  };\n}\n';
    assert.deepEqual(enclosingNames(js), ['Cache', 'get', 'get', 'get', 'get', 'get', 'evict', 'evict', 'evict', 'evict', 'evict']);
  });
});
