import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJunit } from '../../src/report/junit.js';
import { parseXml } from '../../src/report/xml.js';
import { fixture, statuses } from '../helpers/fixtures.js';

describe('JUnit parser (pytest output)', () => {
  it('maps xunit1 testcases to pytest node ids with a status each', () => {
    const report = parseJunit(fixture('reports/pytest-xunit1.xml'));
    assert.deepEqual(statuses(report.tests), {
      'tests/test_sample.py::test_adds': 'passed',
      'tests/test_sample.py::test_fails': 'failed',
      'tests/test_sample.py::test_skipped': 'skipped',
      'tests/test_sample.py::test_xfail': 'skipped',
      'tests/test_sample.py::test_param[1-1-2]': 'passed',
      'tests/test_sample.py::test_param[2-2-5]': 'failed',
      'tests/test_sample.py::test_error': 'error',
      'tests/test_sample.py::TestMath::test_adds': 'passed',
      'tests/test_sample.py::TestMath::TestNested::test_adds': 'passed',
      'tests/test_sample.py::TestOther::test_adds': 'passed',
    });
  });

  it('keeps messages of failures and errors', () => {
    const report = parseJunit(fixture('reports/pytest-xunit1.xml'));
    const err = report.tests.find((t) => t.id.endsWith('test_error'))!;
    assert.match(err.message ?? '', /fixture exploded/);
    const fail = report.tests.find((t) => t.id.endsWith('::test_fails'))!;
    assert.match(fail.message ?? '', /assert/);
  });

  it('reads the default xunit2 family, which has no file attribute', () => {
    const report = parseJunit(fixture('reports/pytest-xunit2.xml'));
    const s = statuses(report.tests);
    assert.equal(s['tests.test_sample.TestMath.TestNested::test_adds'], 'passed');
    assert.equal(s['tests.test_sample::test_fails'], 'failed');
    assert.equal(report.tests.length, 10);
  });

  it('reports a collection failure as an error', () => {
    const report = parseJunit(fixture('reports/pytest-collection-error.xml'));
    assert.equal(report.tests.length, 1);
    assert.equal(report.tests[0]!.status, 'error');
    assert.match(report.tests[0]!.message ?? '', /collection failure/);
  });

  it('names an inherited test by the module that collects it, not the file that defines it', () => {
    // Real pytest 9 output: a base class in tests/__init__.py, inherited by two classes of tests/test_a.py.
    const xml = `<testsuites><testsuite tests="2">
<testcase classname="tests.test_a.TestA" name="test_shared" file="tests/__init__.py" line="2" time="0.004" />
<testcase classname="tests.test_a.TestB" name="test_shared" file="tests/__init__.py" line="2" time="0.001"><failure message="assert 2 == 1">x</failure></testcase>
</testsuite></testsuites>`;
    const tests = parseJunit(xml).tests;
    assert.deepEqual(
      tests.map((t) => [t.id, t.file, t.status]),
      [
        ['tests/test_a.py::TestA::test_shared', 'tests/test_a.py', 'passed'],
        ['tests/test_a.py::TestB::test_shared', 'tests/test_a.py', 'failed'],
      ],
    );
  });

  it('rejects XML that is not a JUnit report, and broken XML', () => {
    assert.throws(() => parseJunit('<html><body/></html>'), /not a JUnit report/);
    assert.throws(() => parseJunit('<testsuite><testcase name="a"></testsuite>'), /mismatched|unclosed/);
  });
});

describe('XML reader', () => {
  it('decodes entities, CDATA and quoted ">" in attributes', () => {
    const doc = parseXml('<?xml version="1.0"?><a x="1 &gt; 0" y=\'&#65;\'><![CDATA[<raw>]]>&amp;</a>');
    const a = doc.children[0]!;
    assert.equal(a.attrs.x, '1 > 0');
    assert.equal(a.attrs.y, 'A');
    assert.equal(a.text, '<raw>&');
  });
});

describe('JUnit parser: ids stable across runs', () => {
  const xml = (time: string) =>
    `<testsuite tests="3"><testcase classname="math" name="adds (${time})" time="0.012"/>` +
    `<testcase classname="math" name="handles 12 items"/><testcase classname="math" name="times out after 100ms"/></testsuite>`;

  it('strips a duration suffix from test names, so the same test keeps its id', () => {
    const a = parseJunit(xml('12ms')).tests.map((t) => t.id);
    const b = parseJunit(xml('1.2 s')).tests.map((t) => t.id);
    assert.deepEqual(a, b);
    assert.deepEqual(a, ['math::adds', 'math::handles 12 items', 'math::times out after 100ms']);
  });
});
