// Drafts of generated checks: a failing test copied under a new name with an
// input varied and each equality assertion turned into a capture (the probe)
// or into the captured value (the check), in the file's own language.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readTestFile } from '../../src/grading/tests/defs.js';
import { draftValues, probeFile, readCaptures } from '../../src/grading/tests/probe.js';
import { draftChecks, varyLiteral, withDrafts, PROBE_FN } from '../../src/grading/tests/variants.js';
import { parsesCleanly } from '../../src/util/syntax.js';
import { rng } from '../../src/util/rng.js';

const PY = `import pytest
from calc import add, parse


def test_add():
    assert add(2, 3) == 5


class TestParse:
    def test_parse(self):
        text = "1h 30m"
        self.assertEqual(parse(text), {"h": 1, "m": 30}, "message stays")
        assert parse(text) is not None
`;

const JS = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { add, parse } from '../src/calc.js';

describe('calc', () => {
  it('adds', () => {
    assert.equal(add(2, 3), 5, 'two and three');
  });
  it('parses', () => {
    expect(parse('1h 30m')).toEqual({ h: 1, m: 30 });
  });
  it('has no input', () => {
    assert.equal(add.length, 2);
  });
});
`;

describe('drafts of generated checks', () => {
  it('Python: a renamed copy with an input varied; the probe captures the actual value, the check writes the captured value in the assertion it had', async () => {
    const file = (await readTestFile('tests/test_calc.py', PY))!;
    const names = new Set(file.tests.map((t) => t.path.at(-1)!));
    const [add] = await draftChecks(file, file.tests[0]!, 'tests/test_calc.py::test_add', { count: 1, names, words: ['more'], random: rng(1) });
    assert.ok(add);
    assert.equal(add.name, 'test_add_more');
    assert.equal(add.id, 'tests/test_calc.py::test_add_more');
    assert.match(add.probe(4), new RegExp(`^def test_add_more\\(\\):\\n    ${PROBE_FN}\\("4\\.0", add\\(\\d+, \\d+\\)\\)$`));
    assert.doesNotMatch(add.probe(4), /add\(2, 3\)/, 'an input is varied');
    assert.match(add.final(['7']), /^def test_add_more\(\):\n {4}assert add\(\d+, \d+\) == 7$/);
    const [parse] = await draftChecks(file, file.tests[1]!, 'tests/test_calc.py::TestParse::test_parse', { count: 1, names, words: ['edge'], random: rng(2) });
    assert.ok(parse);
    assert.equal(parse.id, 'tests/test_calc.py::TestParse::test_parse_edge');
    const final = parse.final(["{'h': 1, 'm': 40}"]);
    assert.match(final, /self\.assertEqual\(parse\(text\), \{'h': 1, 'm': 40\}, "message stays"\)/, 'the message and the assertion stay');
    assert.match(final, /assert parse\(text\) is not None/, 'truth assertions stay as they are');
    assert.doesNotMatch(final, /text = "1h 30m"/, 'the assigned input is varied');
    const written = withDrafts(file, [
      { after: file.tests[0]!, text: add.final(['7']) },
      { after: file.tests[1]!, text: final },
    ]);
    assert.ok(await parsesCleanly(written, 'python'));
    const again = (await readTestFile('tests/test_calc.py', written))!;
    assert.deepEqual(
      again.tests.map((t) => t.path.join('::')),
      ['test_add', 'test_add_more', 'TestParse::test_parse', 'TestParse::test_parse_edge'],
    );
  });

  it('JavaScript: the title renamed in its quotes, the message and other assertions kept; a test with no input to vary has no draft', async () => {
    const file = (await readTestFile('tests/calc.test.js', JS))!;
    const names = new Set(file.tests.map((t) => t.path.at(-1)!));
    const [adds] = await draftChecks(file, file.tests[0]!, 'calc > adds', { count: 1, names, words: ['more'], random: rng(3) });
    assert.ok(adds);
    assert.equal(adds.id, 'calc > adds more');
    assert.match(adds.final(['9']), /^it\('adds more', \(\) => \{\n {4}assert\.equal\(add\(\d+, \d+\), 9, 'two and three'\);\n {2}\}\);$/);
    assert.equal(adds.deep[0], false, 'assert.equal compares by value, not structure');
    const [parses] = await draftChecks(file, file.tests[1]!, 'calc > parses', { count: 1, names, words: ['edge'], random: rng(4) });
    assert.ok(parses);
    assert.equal(parses.deep[0], true, 'toEqual compares structure');
    const varied = /__frognano_probe__\("0\.0", parse\('(.{6})'\)\)/.exec(parses.probe(0))![1]!;
    assert.equal([...varied].filter((ch, k) => ch !== '1h 30m'[k]).length, 1, `one character of the input changes: ${varied}`);
    assert.deepEqual(await draftChecks(file, file.tests[2]!, 'calc > has no input', { count: 2, names, words: [], random: rng(5) }), []);
    const probe = probeFile(file, [
      { draft: adds, tag: 0 },
      { draft: parses, tag: 1 },
    ]);
    assert.match(probe, /^import \* as __frognanoFs from 'node:fs';/, 'an ES module imports what the capture needs');
    assert.ok(await parsesCleanly(probe, 'javascript'));
    const ts = (await readTestFile('tests/calc.test.ts', JS))!;
    assert.match(probeFile(ts, [{ draft: adds, tag: 0 }]), /function __frognano_probe__\(key: string, value: unknown\): unknown/);
    const cjs = (await readTestFile('tests/calc.test.js', "const { add } = require('../calc');\ntest('adds', () => { assert.equal(add(1, 2), 3); });\n"))!;
    const [c] = await draftChecks(cjs, cjs.tests[0]!, 'adds', { count: 1, names: new Set(['adds']), words: ['x'], random: rng(1) });
    assert.match(probeFile(cjs, [{ draft: c!, tag: 0 }]), /require\('node:fs'\)\.appendFileSync/, 'CommonJS requires it');
  });

  it('varies inputs within their kind and range, and never paths, titles or expectations', () => {
    const r = rng(9);
    for (let i = 0; i < 100; i++) {
      assert.ok(Number(varyLiteral('4', r)) >= 0);
      assert.ok(Number(varyLiteral('-4', r)) < 0);
      assert.match(varyLiteral('2.50', r)!, /^\d+\.\d\d$/);
      const s = varyLiteral("'1h 30m'", r)!;
      assert.equal(s.length, "'1h 30m'".length);
      assert.notEqual(s, "'1h 30m'");
    }
    assert.equal(varyLiteral("'a\\nb'", r), null);
    assert.equal(varyLiteral("'--'", r), null);
  });

  it('takes a captured value only where each assertion saw one literal, and a deep one for an object', async () => {
    const file = (await readTestFile('tests/calc.test.js', JS))!;
    const [d] = await draftChecks(file, file.tests[0]!, 'calc > adds', { count: 1, names: new Set(), words: ['x'], random: rng(1) });
    const caps = (lines: unknown[][]) => readCaptures(`${lines.map((l) => JSON.stringify(l)).join('\n')}\nnot json\n`);
    assert.deepEqual(draftValues(d!, 0, caps([['0.0', '8', false]])), ['8']);
    assert.equal(
      draftValues(
        d!,
        0,
        caps([
          ['0.0', '8', false],
          ['0.0', '9', false],
        ]),
      ),
      null,
      'two values: not deterministic or a loop',
    );
    assert.equal(draftValues(d!, 0, caps([['0.0', null, false]])), null, 'no literal for the value');
    assert.equal(draftValues(d!, 0, caps([['0.0', '{"a":1}', true]])), null, 'an object compared by value equality');
    assert.equal(draftValues(d!, 0, caps([])), null, 'nothing reached');
  });
});
