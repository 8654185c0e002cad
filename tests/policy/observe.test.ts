import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { improved, observeTests, words } from '../../src/policy/observe.js';
import { tempDir } from '../helpers/workspace.js';

// A tiny node:test suite with one assertion failure, one error thrown inside
// the source (a frame in src/ under one in the test file) and one pass, run
// for real with the TAP reporter, as the agent's Bash tool would.
const MATH = `export function add(a, b) {
  return a - b;
}
export function div(a, b) {
  if (b === 0) throw new RangeError('division by zero');
  return a / b;
}
export function mul(a, b) {
  return a * b;
}
`;
const MATH_TESTS = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { add, div, mul } from '../src/math.js';
describe('math', () => {
  it('add sums', () => {
    assert.equal(add(2, 3), 5);
  });
  it('div by zero is infinity', () => {
    assert.equal(div(1, 0), Infinity);
  });
  it('mul multiplies', () => {
    assert.equal(mul(2, 3), 6);
  });
});
`;

function runTap(dir: string, files: Record<string, string>): { output: string; code: number | null } {
  for (const [rel, content] of Object.entries({ 'package.json': '{"type":"module"}\n', ...files })) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  // Without the parent runner's NODE_TEST_CONTEXT, which would turn the child's report into the runner's own protocol.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NODE_TEST') && k !== 'NODE_OPTIONS'));
  const r = spawnSync(process.execPath, ['--test-reporter=tap', 'tests/math.test.js'], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
  return { output: r.stdout + r.stderr, code: r.status };
}

// pytest 9 output (-q, default traceback) of the same three tests in Python,
// rooted at the repository: an assertion failure in the test, and an
// exception raised two frames down, inside calc.py.
const PYTEST = `FF.                                                                      [100%]
=================================== FAILURES ===================================
___________________________________ test_add ___________________________________

    def test_add():
>       assert add(2, 3) == 5
E       assert -1 == 5
E        +  where -1 = add(2, 3)

tests/test_calc.py:5: AssertionError
________________________________ test_div_zero _________________________________

    def test_div_zero():
>       assert div(1, 0) == float("inf")
               ^^^^^^^^^

tests/test_calc.py:9: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

a = 1, b = 0

    def div(a, b):
        if b == 0:
>           raise ZeroDivisionError("division by zero")
E           ZeroDivisionError: division by zero

calc.py:7: ZeroDivisionError
=========================== short test summary info ============================
FAILED tests/test_calc.py::test_add - assert -1 == 5
FAILED tests/test_calc.py::test_div_zero - ZeroDivisionError: division by zero
2 failed, 1 passed in 2.29s
`;

describe('observeTests on node:test TAP output', () => {
  const dir = tempDir('fn-observe-');
  let red: { output: string; code: number | null };
  let green: { output: string; code: number | null };

  before(() => {
    red = runTap(join(dir, 'red'), { 'src/math.js': MATH, 'tests/math.test.js': MATH_TESTS });
    green = runTap(join(dir, 'green'), {
      'src/math.js': MATH.replace('a - b', 'a + b').replace("throw new RangeError('division by zero')", 'return Infinity'),
      'tests/math.test.js': MATH_TESTS,
    });
  });

  it('names the failing tests (not the suite), with messages and error types', () => {
    assert.equal(red.code, 1, red.output);
    const obs = observeTests(red.output, red.code, join(dir, 'red'));
    assert.deepEqual(
      obs.failures.map((f) => f.name),
      ['add sums', 'div by zero is infinity'],
    );
    const [add, divf] = obs.failures;
    assert.equal(add!.errorType, 'AssertionError');
    assert.match(add!.message, /strictly equal/);
    assert.match(add!.message, /-1 !== 5/);
    assert.equal(divf!.errorType, 'RangeError');
    assert.equal(divf!.message, 'division by zero');
    assert.equal(obs.passed, 1);
    assert.equal(obs.green, false);
  });

  it('gives frames relative to the workdir, innermost first, without node internals', () => {
    const obs = observeTests(red.output, red.code, join(dir, 'red'));
    for (const f of obs.frames) {
      assert.ok(!f.file.startsWith('/') && !f.file.startsWith('node:'), JSON.stringify(f));
      assert.ok(['src/math.js', 'tests/math.test.js'].includes(f.file), JSON.stringify(f));
    }
    // The thrown RangeError: div's line in the source at depth 0, then the test's call.
    const src = obs.frames.filter((f) => f.file === 'src/math.js');
    assert.deepEqual(src, [{ file: 'src/math.js', line: 5, depth: 0, failure: 1 }]);
    const i = obs.frames.indexOf(src[0]!);
    assert.deepEqual(obs.frames[i + 1], { file: 'tests/math.test.js', line: 9, depth: 1, failure: 1 });
    // The assertion failure: the assert line in the test file is innermost.
    assert.deepEqual(obs.frames[0], { file: 'tests/math.test.js', line: 6, depth: 0, failure: 0 });
    assert.ok(
      obs.frames.some((f) => f.file === 'tests/math.test.js' && f.line === 5),
      "the failing test's location is a frame",
    );
  });

  it('frames stay absolute paths out when the workdir is another directory', () => {
    const obs = observeTests(red.output, red.code, '/somewhere/else');
    assert.equal(obs.frames.length, 0);
    assert.equal(obs.failures.length, 2);
  });

  it('detects a green run, and refuses green on a nonzero or unknown exit', () => {
    assert.equal(green.code, 0, green.output);
    const obs = observeTests(green.output, 0, join(dir, 'green'));
    assert.deepEqual(obs.failures, []);
    assert.equal(obs.passed, 3);
    assert.equal(obs.green, true);
    assert.equal(observeTests(green.output, 1, join(dir, 'green')).green, false);
    assert.equal(observeTests(green.output, null, join(dir, 'green')).green, false);
  });
});

describe('observeTests on pytest output', () => {
  const obs = observeTests(PYTEST, 1, '/workspace');

  it('names failures by pytest id, with the summary message and the error type', () => {
    assert.deepEqual(
      obs.failures.map((f) => f.name),
      ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_div_zero'],
    );
    assert.equal(obs.failures[0]!.message, 'assert -1 == 5');
    assert.equal(obs.failures[0]!.errorType, 'AssertionError');
    assert.equal(obs.failures[1]!.message, 'ZeroDivisionError: division by zero');
    assert.equal(obs.failures[1]!.errorType, 'ZeroDivisionError');
    assert.equal(obs.passed, 1);
    assert.equal(obs.green, false);
  });

  it('quotes the failing statements and E lines as the snippet', () => {
    assert.match(obs.failures[0]!.snippet, /^>\s+assert add\(2, 3\) == 5/);
    assert.match(obs.failures[0]!.snippet, /E\s+\+\s+where -1 = add\(2, 3\)/);
    assert.match(obs.failures[1]!.snippet, /raise ZeroDivisionError/);
    assert.ok(!obs.failures[1]!.snippet.includes('a = 1, b = 0'), 'locals are not quoted');
  });

  it('orders frames innermost first: the source line raising, then the test', () => {
    assert.deepEqual(obs.frames, [
      { file: 'tests/test_calc.py', line: 5, depth: 0, failure: 0 },
      { file: 'calc.py', line: 7, depth: 0, failure: 1 },
      { file: 'tests/test_calc.py', line: 9, depth: 1, failure: 1 },
    ]);
  });

  it('reads a passing run as green with its count', () => {
    const ok = observeTests('...                                                                      [100%]\n3 passed in 0.05s\n', 0, '/workspace');
    assert.deepEqual(ok.failures, []);
    assert.equal(ok.passed, 3);
    assert.equal(ok.green, true);
  });

  it('treats output with no sign of a known runner as no failures, never green on a failing exit', () => {
    const obs2 = observeTests('Segmentation fault (core dumped)\n', 139, '/workspace');
    assert.deepEqual(obs2.failures, []);
    assert.equal(obs2.green, false);
  });
});

describe('words', () => {
  it('lower-cases identifiers and splits camelCase and snake_case, dropping short parts', () => {
    const w = words('parseHTTPRequest snake_case_name a ab getX x.y');
    for (const expected of ['parsehttprequest', 'parse', 'httprequest', 'snake_case_name', 'snake', 'case', 'name', 'getx', 'get']) {
      assert.ok(w.has(expected), `${expected} in ${[...w].join(' ')}`);
    }
    for (const absent of ['a', 'ab', 'x', 'y', 'X']) assert.ok(!w.has(absent), absent);
  });

  it('ignores numbers and punctuation', () => {
    assert.deepEqual([...words('42 + 3.14 === (foo)')], ['foo']);
  });
});

describe('improved: which repairs the agent keeps', () => {
  const dir = tempDir('fn-improved-');
  const observe = (name: string, math: string) => {
    const r = runTap(join(dir, name), { 'src/math.js': math, 'tests/math.test.js': MATH_TESTS });
    return observeTests(r.output, r.code, join(dir, name));
  };

  it('keeps a repair that fixes one of two failing tests, or all of them', () => {
    const before = observe('red', MATH);
    assert.equal(before.failures.length, 2);
    assert.ok(improved(before, observe('one', MATH.replace('a - b', 'a + b'))));
    assert.ok(improved(before, observe('all', MATH.replace('a - b', 'a + b').replace("throw new RangeError('division by zero')", 'return Infinity'))));
  });

  it('undoes a repair that breaks the module at load: one failure reported, but fewer tests ran', () => {
    const before = observe('red2', MATH);
    const broken = observe('broken', MATH.replace('return a * b;', 'return a * ;'));
    assert.ok(broken.failures.length < before.failures.length, 'the failing count alone would call it better');
    assert.equal(improved(before, broken), false);
  });

  it('undoes a repair that hangs the suite until the time limit (no summary, no exit code)', () => {
    const before = observe('red3', MATH);
    const cut = observeTests(
      'Command timed out after 3 s and was killed.\nTAP version 13\n# Subtest: math\n    # Subtest: add sums\n    ok 1 - add sums\n',
      null,
      dir,
    );
    assert.equal(cut.failures.length, 0);
    assert.equal(improved(before, cut), false);
  });
});
