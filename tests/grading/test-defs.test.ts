import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { baseTestId, indexDefs, readTestFile, testIdOf } from '../../src/grading/tests/defs.js';
import { editTests } from '../../src/grading/tests/edit.js';

// A JavaScript test file with a focused test (it.only), a computed name and
// subtests; kept as a .txt fixture so no runner or check takes it for a test.
const JS = readFileSync(new URL('../fixtures/test-defs/outer.test.js.txt', import.meta.url), 'utf8');

const PY = `import unittest

import pytest


def helper():
    return 1


def test_plain():
    assert helper() == 1


@pytest.mark.parametrize("x", [1, 2])
def test_param(x):
    assert x > 0


class TestThings:
    def test_method(self):
        assert True

    class TestNested:
        def test_deep(self):
            assert True


class Cases(unittest.TestCase):
    def setUp(self):
        self.v = 2

    def test_case(self):
        self.assertEqual(self.v, 2)


class NotATest:
    def test_ignored(self):
        pass
`;

describe('test definitions', () => {
  it('finds node:test and Jest-style calls with literal names, nested suites and subtests, and skips computed names', async () => {
    const f = (await readTestFile('tests/a.test.js', JS))!;
    assert.deepEqual(
      f.tests.map((t) => t.path.join(' > ')),
      ['outer > adds', 'outer > inner "q" > nested', 'with subtests > first', 'with subtests > second', 'top'],
    );
    const adds = f.tests[0]!;
    assert.equal(JS.slice(adds.start, adds.end), "it('adds', () => { assert.equal(add(1, 2), 3); });");
    assert.equal(adds.indent, '  ');
    assert.equal(testIdOf(adds, 'tap'), 'outer > adds');
    assert.equal(testIdOf(adds, 'jest'), 'tests/a.test.js > outer > adds');
  });

  it('finds pytest functions, Test classes (nested too) and TestCase methods, with decorators', async () => {
    const f = (await readTestFile('tests/test_a.py', PY))!;
    assert.deepEqual(
      f.tests.map((t) => testIdOf(t, 'pytest')),
      [
        'tests/test_a.py::test_plain',
        'tests/test_a.py::test_param',
        'tests/test_a.py::TestThings::test_method',
        'tests/test_a.py::TestThings::TestNested::test_deep',
        'tests/test_a.py::Cases::test_case',
      ],
    );
    const param = f.tests[1]!;
    assert.match(PY.slice(param.start, param.end), /^@pytest\.mark\.parametrize[\s\S]*assert x > 0$/);
    assert.equal(baseTestId('tests/test_a.py::test_param[1]', 'pytest'), 'tests/test_a.py::test_param');
    assert.equal(baseTestId('suite > case [2]', 'tap'), 'suite > case [2]');
  });

  it('gives no definition to a path defined twice', async () => {
    const a = (await readTestFile('tests/a.test.js', "it('same', () => {});\nit('once', () => {});\n"))!;
    const b = (await readTestFile('tests/b.test.js', "it('same', () => {});\n"))!;
    // Every JavaScript naming is indexed: suite paths alone (tape, node:test) and with the file (Jest, node-tap, mocha).
    const index = indexDefs([a, b], 'tap');
    // ava names a test by its file's stem below the common folder of the files run, so each tail of the path is a key.
    assert.deepEqual([...index.keys()].sort(), [
      'a › once',
      'a › same',
      'b › same',
      'once',
      'tests › a › once',
      'tests › a › same',
      'tests › b › same',
      'tests/a.test.js > once',
      'tests/a.test.js > same',
      'tests/b.test.js > same',
    ]);
    assert.equal(index.get('tests/b.test.js > same')?.file, 'tests/b.test.js');
  });

  it('removes definitions with their lines, leaving `pass` in a Python block it would empty', async () => {
    const py = (await readTestFile(
      'tests/test_a.py',
      'class TestX:\n    def test_a(self):\n        pass\n\n    def test_b(self):\n        pass\n\n\ndef test_c():\n    pass\n',
    ))!;
    const [a, b, c] = py.tests;
    assert.equal(
      editTests(
        py,
        new Map([
          [a!, null],
          [b!, null],
        ]),
      ),
      'class TestX:\n\n    pass\n\n\ndef test_c():\n    pass\n',
    );
    assert.equal(editTests(py, new Map([[c!, null]])), 'class TestX:\n    def test_a(self):\n        pass\n\n    def test_b(self):\n        pass\n\n\n');
    const js = (await readTestFile('tests/a.test.js', "describe('s', () => {\n  it('a', () => {});\n  it('b', () => {});\n});\n"))!;
    assert.equal(editTests(js, new Map([[js.tests[0]!, null]])), "describe('s', () => {\n  it('b', () => {});\n});\n");
    assert.equal(
      editTests(js, new Map([[js.tests[1]!, "it('b', () => {});\n  it('b', () => { x(); });"]])),
      "describe('s', () => {\n  it('a', () => {});\n  it('b', () => {});\n  it('b', () => { x(); });\n});\n",
    );
  });
});
