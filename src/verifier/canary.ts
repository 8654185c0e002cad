// Canary tests: the verifier drops a test file into the tests the
// environment's command collects, under a fresh random name: one test that
// must pass and several that must fail: one raising directly, the others
// through each common assertion function. A runner or report tampered with
// to turn failures into passes turns the raw canary too; an assertion library
// monkeypatched into silence turns its canaries. Either way the run is
// disbelieved.
import { randomBytes } from 'node:crypto';
import type { EnvironmentSpec } from '../env/spec.js';
import type { TestRun } from '../grading/testrun.js';

export interface Canary {
  nonce: string;
  path: string;
  content: string;
  /** How many canary tests must fail. */
  failing: number;
}

const JS_FAILS: [string, string][] = [
  ['ok', 'ok(false)'], ['equal', 'equal(1, 2)'], ['notEqual', 'notEqual(1, 1)'], ['strictEqual', 'strictEqual(1, 2)'],
  ['notStrictEqual', 'notStrictEqual(1, 1)'], ['deepEqual', 'deepEqual({ a: 1 }, { a: 2 })'],
  ['deepStrictEqual', 'deepStrictEqual([1], [2])'], ['notDeepStrictEqual', 'notDeepStrictEqual([1], [1])'],
  ['throws', 'throws(() => {})'], ['match', "match('a', /b/)"], ['fail', "fail('canary')"],
];

const PY_FAILS: [string, string][] = [
  ['assert', 'assert 1 == 2'],
  ['fail', 'pytest.fail("canary")'],
  ['raises', 'with pytest.raises(ValueError):\n        pass'],
  ['approx', 'assert 1.0 == pytest.approx(2.0)'],
  ['unittest', 'unittest.TestCase().assertEqual(1, 2)'],
];

function pythonCanary(n: string): { content: string; failing: number } {
  const fails = PY_FAILS.map(([k, body]) => `def test_frognano_canary_fail_${n}_${k}():\n    ${body}\n`);
  const content = [
    'import unittest\n\nimport pytest\n',
    `def test_frognano_canary_pass_${n}():\n    pass\n`,
    `def test_frognano_canary_fail_${n}_raw():\n    raise RuntimeError("frognano canary: this test must fail")\n`,
    ...fails,
  ].join('\n\n');
  return { content, failing: fails.length + 1 };
}

function nodeCanary(n: string): { content: string; failing: number } {
  const lines = [
    "import { test } from 'node:test';",
    "import loose from 'node:assert';",
    "import strict from 'node:assert/strict';",
    `test('frognano canary pass ${n}', () => {});`,
    `test('frognano canary fail ${n} raw', () => { throw new Error('frognano canary: this test must fail'); });`,
  ];
  for (const mod of ['loose', 'strict']) {
    for (const [k, call] of JS_FAILS) lines.push(`test('frognano canary fail ${n} ${mod} ${k}', () => { ${mod}.${call}; });`);
  }
  return { content: lines.join('\n') + '\n', failing: 1 + 2 * JS_FAILS.length };
}

export function makeCanary(spec: EnvironmentSpec, nonce = randomBytes(6).toString('hex')): Canary | null {
  if (!spec.test.canary) return null;
  const path = spec.test.canary.replaceAll('{nonce}', nonce);
  return { nonce, path, ...(path.endsWith('.py') ? pythonCanary(nonce) : nodeCanary(nonce)) };
}

/** Null when every canary behaved; else what was wrong. */
export function checkCanary(canary: Canary, run: TestRun): string | null {
  const all = [...run.tests.values()];
  const pass = all.filter((t) => new RegExp(`canary[ _]pass[ _]${canary.nonce}`).test(t.id));
  const fail = all.filter((t) => new RegExp(`canary[ _]fail[ _]${canary.nonce}`).test(t.id));
  if (pass.length !== 1 || fail.length !== canary.failing) {
    return `the canary tests were not all reported (pass ${pass.length} of 1, fail ${fail.length} of ${canary.failing})`;
  }
  if (pass[0]!.status !== 'passed') return `the passing canary was reported ${pass[0]!.status}`;
  const turned = fail.filter((t) => t.status !== 'failed' && t.status !== 'error');
  if (turned.length) return `${turned.length} failing canar${turned.length === 1 ? 'y was' : 'ies were'} reported passed or skipped (e.g. ${turned[0]!.id}): the runner, report or assertions were tampered with`;
  return null;
}
