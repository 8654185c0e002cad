import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { expandUnittest, UNITTEST_JUNIT } from '../../src/env/runners/unittest-junit.js';
import { parseJunit } from '../../src/report/junit.js';
import { hostPython } from '../../src/runtime/host.js';
import { writeRepo } from '../helpers/runner-repos.js';

const CASES = `import unittest
from tests import Base


class TestX(Base, unittest.TestCase):
    def test_ok(self):
        self.assertEqual(1, 1)

    def test_bad(self):
        self.assertEqual(1, 2)

    @unittest.skip("not now")
    def test_skip(self):
        pass

    def test_sub(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertLess(i, 2)

    def test_err(self):
        raise ValueError("<boom & co>")
`;

describe('the unittest runner that writes JUnit', () => {
  it('reports every test by file, class and method, subtest failures and import errors included', () => {
    const py = hostPython();
    assert.ok(py, 'a Python interpreter');
    const dir = writeRepo(
      {
        'tests/__init__.py': 'class Base:\n    def test_inherited(self):\n        pass\n',
        'tests/test_x.py': CASES,
        'tests/test_broken.py': 'import not_a_module_anywhere\n',
        // Doctests through load_tests: named by the object they document, in its file.
        'tests/test_docs.py':
          'import doctest\n\nfrom tests import helpers\n\n\ndef load_tests(loader, suite, ignore):\n    suite.addTests(doctest.DocTestSuite(helpers))\n    return suite\n',
        'tests/helpers.py': 'def double(x):\n    """\n    >>> double(2)\n    4\n    """\n    return x * 2\n',
      },
      'ut',
    );
    const argv = expandUnittest([py.executable, UNITTEST_JUNIT, join(dir, 'report.xml'), 'discover', '-s', 'tests', '-t', '.'], false);
    assert.throws(() => execFileSync(argv[0]!, argv.slice(1), { cwd: dir, stdio: 'pipe' }), 'a failing suite exits non-zero');
    const tests = parseJunit(readFileSync(join(dir, 'report.xml'), 'utf8')).tests;
    assert.equal(tests.find((t) => t.id === 'tests/helpers.py::tests.helpers.double')?.status, 'passed', 'a doctest, by the object it documents');
    const by = Object.fromEntries(tests.map((t) => [t.id, t]));
    assert.equal(by['tests/test_x.py::TestX::test_ok']?.status, 'passed');
    assert.equal(by['tests/test_x.py::TestX::test_bad']?.status, 'failed');
    assert.match(by['tests/test_x.py::TestX::test_bad']?.message ?? '', /1 != 2/);
    assert.equal(by['tests/test_x.py::TestX::test_skip']?.status, 'skipped');
    assert.equal(by['tests/test_x.py::TestX::test_sub']?.status, 'failed', 'a failing subtest fails its test');
    assert.equal(by['tests/test_x.py::TestX::test_err']?.status, 'error');
    assert.match(by['tests/test_x.py::TestX::test_err']?.message ?? '', /<boom & co>/, 'entities decoded');
    assert.equal(by['tests/test_x.py::TestX::test_inherited']?.status, 'passed', 'an inherited test is named by the class that runs it');
    assert.ok(
      tests.some((t) => t.status === 'error' && /test_broken/.test(t.id)),
      'a module that fails to import is an error',
    );
  });

  it('shows an agent the same run as plain `python -m unittest`', () => {
    assert.deepEqual(expandUnittest(['python3', UNITTEST_JUNIT, '{report}', 'discover', '-s', 'tests'], true), [
      'python3',
      '-m',
      'unittest',
      'discover',
      '-s',
      'tests',
    ]);
  });
});
