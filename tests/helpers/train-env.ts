// Two tiny JavaScript environments for trainer and supply tests: a few small
// functions, each with its own node:test cases, so that TaskPilot finds
// operation-family bugs quickly and the embedded policy, even untrained,
// solves some of them. One to train on, one held out.
import type { LoadedEnv } from '../../src/env/load.js';
import { makeJsEnv, nodeTests } from './env.js';

const STATS = `export function total(xs) {
  let sum = 0;
  for (const x of xs) {
    sum = sum + x;
  }
  return sum;
}

export function clamp(x, lo, hi) {
  if (x < lo) {
    return lo;
  }
  if (x > hi) {
    return hi;
  }
  return x;
}

export function scale(x, k) {
  return x * k;
}
`;

const STATS_TESTS = nodeTests(
  {
    'total of several': "const m = await import('../src/stats.js'); assert.equal(m.total([1, 2, 6]), 9);",
    'total of none': "const m = await import('../src/stats.js'); assert.equal(m.total([]), 0);",
    'clamp below': "const m = await import('../src/stats.js'); assert.equal(m.clamp(-5, 0, 10), 0);",
    'clamp above': "const m = await import('../src/stats.js'); assert.equal(m.clamp(50, 0, 10), 10);",
    'clamp inside': "const m = await import('../src/stats.js'); assert.equal(m.clamp(5, 0, 10), 5);",
    'scale by three': "const m = await import('../src/stats.js'); assert.equal(m.scale(4, 3), 12);",
  },
  'stats',
);

const TEXT = `export function pad(s, n) {
  return s.length < n ? pad(s + ' ', n) : s;
}

export function initials(words) {
  return words.map((w) => w.slice(0, 1)).join('');
}

export function between(x, lo, hi) {
  return x >= lo && x <= hi;
}
`;

const TEXT_TESTS = nodeTests(
  {
    'pad short': "const m = await import('../src/text.js'); assert.equal(m.pad('ab', 4), 'ab  ');",
    'pad long': "const m = await import('../src/text.js'); assert.equal(m.pad('abcde', 2), 'abcde');",
    initials: "const m = await import('../src/text.js'); assert.equal(m.initials(['big', 'red', 'dog']), 'brd');",
    'between inside': "const m = await import('../src/text.js'); assert.equal(m.between(3, 1, 5), true);",
    'between outside': "const m = await import('../src/text.js'); assert.equal(m.between(7, 1, 5), false);",
    'between edge': "const m = await import('../src/text.js'); assert.equal(m.between(1, 1, 5), true);",
  },
  'text',
);

/** The environment trained on ("tiny-stats") and the held-out one ("tiny-text"). */
export function tinyTrainEnvs(): Map<string, LoadedEnv> {
  const train = makeJsEnv({ 'src/stats.js': STATS, 'tests/stats.test.js': STATS_TESTS }, {}, 'tiny-stats');
  const heldOut = makeJsEnv({ 'src/text.js': TEXT, 'tests/text.test.js': TEXT_TESTS }, {}, 'tiny-text');
  return new Map([
    [train.spec.name, train],
    [heldOut.spec.name, heldOut],
  ]);
}
