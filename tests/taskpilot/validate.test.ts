import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildEnvironment } from '../../src/env/build.js';
import { LocalRuntime } from '../../src/runtime/local.js';
import { selectRuntime } from '../../src/runtime/select.js';
import type { Runtime } from '../../src/runtime/types.js';
import { instructionLeaks, symptomOf, writeInstruction } from '../../src/taskpilot/instructions.js';
import { EnvValidator, type CandidateChange } from '../../src/taskpilot/validate.js';
import { checkedLayout } from '../../src/taskpilot/grading-check.js';
import { fileDiff } from '../../src/util/diff.js';
import { makeJsEnv, nodeTests } from '../helpers/env.js';
import { tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });

const MATH = `export function add(a, b) {
  return a + b;
}

export function mul(a, b) {
  return a * b;
}

export function neg(a) {
  return -a;
}
`;

const TESTS = nodeTests({
  'add sums': "const { add } = await import('../src/math.js'); assert.equal(add(2, 3), 5);",
  'mul multiplies': "const { mul } = await import('../src/math.js'); assert.equal(mul(2, 3), 6);",
  'neg negates': "const { neg } = await import('../src/math.js'); assert.equal(neg(2), -2);",
});

function change(after: string, rel = 'src/math.js', before = MATH): CandidateChange {
  return { bugPatch: fileDiff(rel, before, after), fixPatch: fileDiff(rel, after, before), originals: { [rel]: before } };
}

async function validator(rt: Runtime = runtime, files: Record<string, string> = {}, timeoutSec = 20) {
  const env = makeJsEnv({ 'src/math.js': MATH, 'tests/math.test.js': TESTS, ...files }, { timeoutSec });
  const dataDir = tempDir();
  const built = await buildEnvironment(env, { dataDir, runtime: rt });
  return new EnvValidator(built, rt, dataDir, { referenceRuns: 2, candidateRuns: 2 });
}

describe('validator', () => {
  it('accepts a real bug with FAIL_TO_PASS and PASS_TO_PASS labels', async () => {
    const v = await validator();
    const verdict = await v.validate(change(MATH.replace('a + b', 'a - b')));
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
    if (!verdict.valid) return;
    assert.deepEqual(verdict.f2p, ['toy > add sums']);
    assert.deepEqual(verdict.p2p.sort(), ['toy > mul multiplies', 'toy > neg negates']);
    assert.equal(verdict.testFiles['toy > add sums'], 'tests/math.test.js');
    assert.match(verdict.failures['toy > add sums']!, /-1 !== 5/);
  });

  it("makes its repeat run of the bug the graded layout's: three suite runs for a valid candidate, the same layout as a check from scratch", async () => {
    let suites = 0;
    // The real runtime, its suite runs counted.
    const counted: Runtime = Object.create(runtime);
    counted.exec = (m, req) => {
      if (req.argv.some((a) => a.endsWith('run-all.js'))) suites++;
      return runtime.exec(m, req);
    };
    const v = await validator(counted);
    await v.referenceTests();
    suites = 0;
    const c = change(MATH.replace('a + b', 'a - b'));
    const verdict = await v.validate(c);
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
    if (!verdict.valid) return;
    assert.equal(
      suites,
      4,
      'the bug, the probe of generated checks on the fix, the bug in the graded layout, the fix in it (the fix alone is the reference run)',
    );
    const fresh = await checkedLayout({
      built: v.built,
      runtime,
      dataDir: v.dataDir,
      bugPatch: c.bugPatch,
      fixPatch: c.fixPatch,
      f2p: verdict.f2p,
      p2p: verdict.p2p,
      reportIds: new Set((await v.referenceTests()).run.tests.keys()),
      timeoutSec: 20,
    });
    assert.ok(verdict.grading.twins.length > 0, 'honeypots were laid');
    assert.ok((verdict.grading.checks ?? []).length > 0, `checks were generated: ${verdict.grading.noChecks}`);
    assert.deepEqual(verdict.grading, fresh);
  });

  it('keeps labels whose ids hold "::" without naming a file (a mocha suite title, as its xunit report gives them)', async () => {
    // A runner that writes JUnit with a classname and no file attribute, as mocha's xunit reporter does.
    const runner = [
      "const { writeFileSync } = require('node:fs');",
      "import('../src/math.js').then(({ add, mul, neg }) => {",
      "  const cases = [['add sums', add(2, 3) === 5], ['mul multiplies', mul(2, 3) === 6], ['neg negates', neg(2) === -2]];",
      '  const xml = cases.map(([name, ok]) => `<testcase classname="my-lib" name="${name}">${ok ? \'\' : \'<failure message="wrong"/>\'}</testcase>`).join(\'\');',
      '  writeFileSync(process.argv[2], `<testsuite tests=\"3\">${xml}</testsuite>`);',
      '});',
      '',
    ].join('\n');
    const env = makeJsEnv(
      { 'src/math.js': MATH, 'tests/run.cjs': runner },
      { test: { command: ['node', 'tests/run.cjs', '{report}'], report: { format: 'junit', from: 'file' } } },
    );
    const dataDir = tempDir();
    const built = await buildEnvironment(env, { dataDir, runtime });
    const v = new EnvValidator(built, runtime, dataDir, { referenceRuns: 2, candidateRuns: 2 });
    const verdict = await v.validate(change(MATH.replace('a + b', 'a - b')));
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
    if (verdict.valid) assert.deepEqual(verdict.f2p, ['my-lib::add sums']);
  });

  it('rejects a no-op', async () => {
    const v = await validator();
    const verdict = await v.validate(change(MATH.replace('return -a;', 'return -a; // same')));
    assert.equal(verdict.valid, false);
    if (!verdict.valid) assert.equal(verdict.reason, 'no-f2p');
  });

  it('rejects a candidate that breaks everything', async () => {
    const v = await validator();
    const verdict = await v.validate(change(`throw new Error('broken at import');\n${MATH}`));
    assert.equal(verdict.valid, false);
    if (!verdict.valid) assert.equal(verdict.reason, 'no-p2p');
  });

  it('rejects a candidate that hangs, within the timeout', async () => {
    const v = await validator(runtime, {}, 3);
    await v.referenceTests();
    const started = Date.now();
    const verdict = await v.validate(change(MATH.replace('return a * b;', 'while (true) {}')));
    assert.equal(verdict.valid, false);
    if (!verdict.valid) assert.equal(verdict.reason, 'timeout');
    assert.ok(Date.now() - started < 20000);
  });

  it('rejects a flaky candidate: its failing test does not fail every time', async () => {
    // The local runtime shares the host's /tmp, so the bug can count its own runs.
    const counter = join(tempDir(), 'runs');
    const flaky = MATH.replace('return a + b;', 'return a + b + (globalThis.__flaky ?? 0);');
    const setup = `import { existsSync, writeFileSync } from 'node:fs';\nif (!existsSync(${JSON.stringify(counter)})) { writeFileSync(${JSON.stringify(counter)}, '1'); globalThis.__flaky = 1; }\n`;
    const v = await validator(new LocalRuntime());
    const verdict = await v.validate(change(setup + flaky));
    assert.equal(verdict.valid, false, JSON.stringify(verdict));
    if (!verdict.valid) assert.equal(verdict.reason, 'flaky');
  });

  it('rejects a duplicate bug', async () => {
    const v = await validator();
    const c = change(MATH.replace('a * b', 'a + b'));
    assert.equal((await v.validate(c)).valid, true);
    const again = await v.validate(c);
    assert.equal(again.valid, false);
    if (!again.valid) assert.equal(again.reason, 'duplicate');
  });

  it('rejects a bug patch that does not apply', async () => {
    const v = await validator();
    const verdict = await v.validate(change('x', 'src/math.js', 'not the file content\n'));
    assert.equal(verdict.valid, false);
    if (!verdict.valid) assert.equal(verdict.reason, 'apply-failed');
  });
});

describe('instruction writer', () => {
  const failures = { 'toy > add sums': 'Expected values to be strictly equal:\n\n-1 !== 5\n' };
  const input = { envName: 'toy', language: 'javascript', f2p: ['toy > add sums'], failures };

  it('writes three hint levels: test names only at full', () => {
    const full = writeInstruction({ ...input, hint: 'full' });
    const symptom = writeInstruction({ ...input, hint: 'symptom' });
    const minimal = writeInstruction({ ...input, hint: 'minimal' });
    assert.match(full, /toy > add sums/);
    assert.match(full, /-1 !== 5/);
    assert.doesNotMatch(symptom, /add sums/);
    assert.match(symptom, /a result was -1 where 5 was expected/);
    assert.doesNotMatch(minimal, /add sums|-1/);
    assert.match(minimal, /a test fails/);
  });

  it('turns common failure messages into symptoms', () => {
    const cases: [string, RegExp][] = [
      ['Expected values to be strictly equal:\n\n3599 !== 3600\n', /a result was 3599 where 3600 was expected/],
      ['Expected values to be strictly deep-equal:\n+ actual - expected\n\n  [\n+   1,\n-   2\n  ]', /holds 1 where 2 was expected/],
      ['Missing expected exception (DurationParseError).', /expected DurationParseError is not raised/],
      ['AssertionError: assert 4 == 5\n +  where 4 = total([1, 3])', /a result was 4 where 5 was expected/],
      ["Failed: DID NOT RAISE <class 'money.errors.CurrencyMismatch'>", /expected CurrencyMismatch is not raised/],
      ["TypeError: unsupported operand type(s) for +: 'int' and 'str'", /unexpected TypeError is raised/],
      // Real messages of each supported runner (tests/env/runners-real.test.ts's repositories, a bug in mean or clamp).
      ['Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 2\nReceived: 0\n    at Object.toBe', /a result was 0 where 2 was expected/],
      ['AssertionError: expected NaN to be +0 // Object.is equality\n    at /workspace/test/math.test.js:9:47', /a result was NaN where \+0 was expected/],
      ['AssertionError: expected 3 to equal 2', /a result was 3 where 2 was expected/],
      ['should be equal\n--- expected\n+++ actual\n@@ -1,1 +1,1 @@\n-0\n+NaN', /a result was NaN where 0 was expected/],
      ["'Difference (- actual, + expected):': |-\n- -2\n+ 2", /a result was -2 where 2 was expected/],
      ['should be strictly equal\nexpected: 0\nactual: -1', /a result was -1 where 0 was expected/],
      ['AssertionError: 0.0 != 2\nTraceback (most recent call last):', /a result was 0.0 where 2 was expected/],
      ['assert 0.5 == 2 ± 2.0e-06\n +  where 0.5 = mean([1, 2])', /a result was 0.5 where 2 ± 2.0e-06 was expected/],
      ['AssertionError: assert &lt;Color.RED: 1&gt; == &lt;Color.BLUE: 3&gt;', /a result was <Color.RED: 1> where <Color.BLUE: 3> was expected/],
    ];
    for (const [message, want] of cases) assert.match(symptomOf(message) ?? '', want, message);
  });

  it('detects an instruction that contains the fix', () => {
    const fix = fileDiff('src/math.js', MATH.replace('a + b', 'a - b'), MATH);
    assert.deepEqual(instructionLeaks('Change the line to: return a + b; and it works', fix), ['return a + b;']);
    assert.deepEqual(instructionLeaks(writeInstruction({ ...input, hint: 'full' }), fix), []);
  });
});
