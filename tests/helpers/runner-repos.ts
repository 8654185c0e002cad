// Small repositories, one per test runner `env add` supports, written for the
// runner tests: the same little library, tested in each runner's own style,
// with the runner named the way real projects name it (test script, config
// file or dependency). JavaScript ones install their runner from the npm
// registry when the environment is built.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './workspace.js';

export type RepoFiles = Record<string, string>;

export function writeRepo(files: RepoFiles, name: string): string {
  const dir = join(tempDir('fn-runner-'), name);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

/** The little library every runner's fixture tests. */
export const LIB = `function add(a, b) {
  return a + b;
}
function clamp(x, lo, hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}
function mean(xs) {
  if (xs.length === 0) return 0;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}
module.exports = { add, clamp, mean };
`;

const pkg = (extra: object) => JSON.stringify({ name: 'lib', version: '1.0.0', private: true, ...extra }, null, 2);

/** describe/it suites (mocha, jest, vitest), with one nested suite. */
const describeIt = (head: string) => `${head}
describe('math', () => {
  it('adds', () => { expect(add(2, 3)).toBe(5); });
  it('clamps low', () => { expect(clamp(-1, 0, 10)).toBe(0); });
  it('clamps high', () => { expect(clamp(11, 0, 10)).toBe(10); });
  describe('mean', () => {
    it('of values', () => { expect(mean([1, 2, 3])).toBe(2); });
    it('of nothing', () => { expect(mean([])).toBe(0); });
  });
});
`;

/** tape and node-tap style: t.equal in test callbacks (node-tap nests one level). */
const tapStyle = (head: string, test: string) => `${head}
${test}('adds', (t) => { t.equal(add(2, 3), 5); t.end(); });
${test}('clamps low', (t) => { t.equal(clamp(-1, 0, 10), 0); t.end(); });
${test}('clamps high', (t) => { t.equal(clamp(11, 0, 10), 10); t.end(); });
${test}('mean of values', (t) => { t.equal(mean([1, 2, 3]), 2); t.end(); });
${test}('mean of nothing', (t) => { t.equal(mean([]), 0); t.end(); });
`;

/** ava tests (t.is) for some of the tape-style titles. */
const avaTests = (titles: string[]) =>
  tapStyle("const test = require('ava');\nconst { add, clamp, mean } = require('../lib/math');", 'test')
    .split('\n')
    .filter((l) => !l.startsWith('test(') || titles.some((t) => l.startsWith(`test('${t}'`)))
    .join('\n')
    .replaceAll(/t\.equal\(([^;]*)\); t\.end\(\);/g, 't.is($1);');

export const JS_RUNNER_REPOS: Record<string, { files: RepoFiles; tests: number }> = {
  mocha: {
    tests: 5,
    files: {
      'package.json': pkg({ scripts: { test: 'mocha --timeout 5000 test/' }, devDependencies: { mocha: '^10.0.0' } }),
      'lib/math.js': LIB,
      'test/math.test.js': describeIt(
        "const assert = require('assert');\nconst { add, clamp, mean } = require('../lib/math');\nconst expect = (x) => ({ toBe: (y) => assert.strictEqual(x, y) });",
      ),
    },
  },
  jest: {
    tests: 5,
    files: {
      'package.json': pkg({ scripts: { test: 'jest' }, devDependencies: { jest: '^29.0.0' } }),
      'lib/math.js': LIB,
      '__tests__/math.test.js': describeIt("const { add, clamp, mean } = require('../lib/math');"),
    },
  },
  vitest: {
    tests: 5,
    // An ESM config: Vite bundles it into node_modules/.vite-temp, which must be writable though the layer is not.
    files: {
      'package.json': pkg({ devDependencies: { vitest: '^3.0.0' } }),
      'vitest.config.mjs': "export default { test: { include: ['test/**/*.test.js'] } };\n",
      'lib/math.js': LIB,
      'test/math.test.js': describeIt("import { describe, it, expect } from 'vitest';\nimport { add, clamp, mean } from '../lib/math';"),
    },
  },
  ava: {
    tests: 5,
    // ava writes node_modules/.cache/ava on every run. Two test files: ava names tests by file only when several run.
    files: {
      'package.json': pkg({ ava: { files: ['test/**/*.js'] }, devDependencies: { ava: '^6.0.0' } }),
      'lib/math.js': LIB,
      'test/math.js': avaTests(['adds', 'clamps low', 'clamps high']),
      'test/mean.js': avaTests(['mean of values', 'mean of nothing']),
    },
  },
  tape: {
    tests: 5,
    files: {
      'package.json': pkg({ scripts: { test: 'tape test/*.js | tap-spec' }, devDependencies: { tape: '^5.0.0' } }),
      'lib/math.js': LIB,
      'test/math.js': tapStyle("const test = require('tape');\nconst { add, clamp, mean } = require('../lib/math');", 'test'),
    },
  },
  brittle: {
    tests: 5,
    files: {
      'package.json': pkg({ scripts: { test: 'brittle test/*.js' }, devDependencies: { brittle: '^3.0.0' } }),
      'lib/math.js': LIB,
      'test/math.js': tapStyle("const test = require('brittle');\nconst { add, clamp, mean } = require('../lib/math');", 'test').replaceAll(
        /t\.equal\(([^;]*)\); t\.end\(\);/g,
        't.is($1);',
      ),
    },
  },
  'node-tap': {
    tests: 5,
    files: {
      'package.json': pkg({ scripts: { test: 'tap' }, devDependencies: { tap: '^21.0.0' } }),
      'lib/math.js': LIB,
      'test/math.test.js': tapStyle("const t = require('tap');\nconst { add, clamp, mean } = require('../lib/math');", 't.test'),
    },
  },
};

const PY_LIB = `def add(a, b):
    return a + b


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def mean(xs):
    if not xs:
        return 0
    total = 0
    for x in xs:
        total += x
    return total / len(xs)
`;

export const PY_RUNNER_REPOS: Record<string, { files: RepoFiles; tests: number }> = {
  // A src/ layout, a namespace package (no __init__.py in acme/), pytest config with a plugin's option in addopts.
  'pytest-src': {
    tests: 5,
    files: {
      'pyproject.toml':
        '[project]\nname = "acme-mathlib"\ndependencies = []\n\n[project.optional-dependencies]\ntest = ["pytest"]\n\n[tool.pytest.ini_options]\naddopts = "--cov=acme -q"\ntestpaths = ["tests"]\n',
      'src/acme/mathlib/__init__.py': '',
      'src/acme/mathlib/core.py': PY_LIB,
      'tests/test_core.py': `from acme.mathlib.core import add, clamp, mean


def test_add():
    assert add(2, 3) == 5


class TestClamp:
    def test_low(self):
        assert clamp(-1, 0, 10) == 0

    def test_high(self):
        assert clamp(11, 0, 10) == 10


def test_mean():
    assert mean([1, 2, 3]) == 2


def test_mean_empty():
    assert mean([]) == 0
`,
    },
  },
  // unittest only; the test package's __init__.py holds a base class the tests inherit.
  unittest: {
    tests: 5,
    files: {
      'setup.py': 'from setuptools import setup\nsetup(name="mathlib", packages=["mathlib"])\n',
      'mathlib/__init__.py': PY_LIB,
      'tests/__init__.py': 'import unittest\n\n\nclass Case(unittest.TestCase):\n    def check(self, got, want):\n        self.assertEqual(got, want)\n',
      'tests/test_core.py': `import unittest

from mathlib import add, clamp, mean
from tests import Case


class TestArith(Case):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)

    def test_mean(self):
        self.assertEqual(mean([1, 2, 3]), 2)

    def test_mean_empty(self):
        self.check(mean([]), 0)


class TestClamp(unittest.TestCase):
    def test_low(self):
        self.assertEqual(clamp(-1, 0, 10), 0)

    def test_high(self):
        self.assertEqual(clamp(11, 0, 10), 10)
`,
    },
  },
};
