import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planHoneypots, type HoneypotPlan } from '../../src/grading/honeypots.js';
import { readTestFile, testIdOf, type TestFile } from '../../src/grading/tests/defs.js';
import { rng } from '../../src/util/rng.js';

const JS = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../src/parse.js';

describe('parse', () => {
  it('reads numbers', () => {
    assert.equal(parse('12'), 12);
  });
  it('reads words', () => {
    assert.deepEqual(parse('a b'), ['a', 'b']);
  });
  it('reads nothing', () => {
    assert.equal(parse(''), null);
  });
});
`;

const PY = `import pytest

from lexer import tokens


@pytest.fixture
def sample():
    return "a b"


def test_split_words(sample):
    assert tokens(sample) == ["a", "b"]


def test_count_tokens():
    assert len(tokens("x y z")) == 3


class TestEdges:
    def test_empty_input(self):
        assert tokens("") == []
`;

async function plan(files: TestFile[], style: 'tap' | 'pytest', f2p: string[], p2p: string[], seed: number): Promise<HoneypotPlan> {
  const p = await planHoneypots({ files, style, f2p, p2p, reportIds: new Set([...f2p, ...p2p]), random: rng(seed) });
  assert.ok(p, 'a plan');
  return p;
}

/** Occurrence ids of each definition, in file order, as a TAP parser numbers repeats. */
async function occurrences(rel: string, content: string): Promise<{ id: string; text: string }[]> {
  const f = (await readTestFile(rel, content))!;
  const seen = new Map<string, number>();
  return f.tests.map((t) => {
    const base = testIdOf(t, 'tap');
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { id: n === 1 ? base : `${base} [${n}]`, text: content.slice(t.start, t.end) };
  });
}

const MARKS = /canary|frognano|must fail|zz|[0-9a-f]{12}|nonce/i;

describe('honeypot plans', () => {
  it('JavaScript: twins beside each chosen test in its own file, each expecting another value; the ids say which is which', async () => {
    const file = (await readTestFile('tests/parse.test.js', JS))!;
    for (let seed = 0; seed < 20; seed++) {
      const p = await plan([file], 'tap', ['parse > reads numbers'], ['parse > reads words', 'parse > reads nothing'], seed);
      assert.deepEqual(
        p.files.map((f) => f.path),
        ['tests/parse.test.js'],
      );
      assert.deepEqual(p.copies, []);
      const occ = await occurrences('tests/parse.test.js', p.files[0]!.content);
      const original = (id: string) => JS.includes(occ.find((o) => o.id === id)!.text);
      assert.ok(p.twins.filter((t) => t.of === 'parse > reads numbers').length >= 1, 'every failing test has a twin');
      for (const t of p.twins) assert.equal(original(t.id), false, `${t.id} is a changed copy`);
      for (const [reported, id] of Object.entries(p.renamed)) {
        assert.ok(original(reported), `${reported} is the real ${id}`);
        assert.equal(reported.replace(/ \[\d+\]$/, ''), id);
      }
      const realIds = occ.filter((o) => JS.includes(o.text)).map((o) => p.renamed[o.id] ?? o.id);
      assert.deepEqual(new Set(realIds), new Set(['parse > reads numbers', 'parse > reads words', 'parse > reads nothing']));
      assert.doesNotMatch(p.files[0]!.content.replace(JS, ''), MARKS);
    }
  });

  it('Python: the file as full copies, every test in each in the same order; each chosen test real in one copy drawn for it alone', async () => {
    const file = (await readTestFile('tests/test_lexer.py', PY))!;
    const placesOfSplit = new Set<number>();
    let independent = 0;
    for (let seed = 0; seed < 40; seed++) {
      const p = await plan(
        [file],
        'pytest',
        ['tests/test_lexer.py::test_split_words'],
        ['tests/test_lexer.py::test_count_tokens', 'tests/test_lexer.py::TestEdges::test_empty_input'],
        seed,
      );
      assert.deepEqual(p.files, [], 'nothing is written over the file itself');
      assert.equal(p.groups!.length, 1);
      const g = p.groups![0]!;
      assert.equal(g.like, 'tests/test_lexer.py');
      assert.ok(g.contents.length === 2 || g.contents.length === 3, `${g.contents.length} copies`);
      const parsed = await Promise.all(g.contents.map((c) => readTestFile('tests/test_copy.py', c)));
      for (const c of parsed) {
        assert.deepEqual(
          c!.tests.map((t) => t.path.join('::')),
          file.tests.map((t) => t.path.join('::')),
          'every test of the file, in its order',
        );
        assert.match(c!.text, /@pytest\.fixture\ndef sample\(\):/, 'the fixture comes along');
        assert.doesNotMatch(c!.text, MARKS);
      }
      assert.ok('::test_split_words' in g.graded, 'the failing test is chosen');
      for (const [key, real] of Object.entries(g.graded)) {
        const k = file.tests.findIndex((t) => `::${t.path.join('::')}` === key);
        const own = PY.slice(file.tests[k]!.start, file.tests[k]!.end);
        parsed.forEach((c, copy) => {
          const text = c!.text.slice(c!.tests[k]!.start, c!.tests[k]!.end);
          assert.equal(text === own, copy === real, `${key} is real in copy ${real} alone`);
          // The versions differ from the real test in one run of characters: the expected value.
          if (copy !== real) assert.ok(text.length - own.length <= 4 && own.length - text.length <= 4);
        });
        assert.deepEqual(
          g.decoys[key],
          [...g.contents.keys()].filter((x) => x !== real),
        );
      }
      placesOfSplit.add(g.graded['::test_split_words']!);
      if (Object.values(g.graded).some((x) => x !== g.graded['::test_split_words'])) independent++;
      // Tests the group did not choose are the same in every copy.
      for (const [k, t] of file.tests.entries()) {
        if (`::${t.path.join('::')}` in g.graded) continue;
        assert.equal(new Set(parsed.map((c) => c!.text.slice(c!.tests[k]!.start, c!.tests[k]!.end))).size, 1);
      }
    }
    assert.ok(placesOfSplit.size >= 2, 'the real test is in any copy');
    assert.ok(independent > 0, 'tests of one file are placed independently: no single copy is the graded file');
  });

  it('Jest and Vitest ids carry the file: twins stay in it, numbered after the file and suite path', async () => {
    const file = (await readTestFile('src/parse.spec.ts', JS.replace("'../src/parse.js'", "'./parse.ts'")))!;
    const p = await planHoneypots({
      files: [file],
      style: 'jest',
      f2p: ['src/parse.spec.ts > parse > reads words'],
      p2p: [],
      reportIds: new Set(['src/parse.spec.ts > parse > reads words']),
      random: rng(5),
    });
    assert.ok(p);
    assert.deepEqual(
      p.files.map((f) => f.path),
      ['src/parse.spec.ts'],
    );
    for (const t of [...p.twins.map((x) => x.id), ...Object.keys(p.renamed)]) assert.match(t, /^src\/parse\.spec\.ts > parse > reads words( \[\d\])?$/);
  });

  it('leaves out tests whose name already repeats in reports and tests with no expectation to change', async () => {
    const file = (await readTestFile('tests/a.test.js', "it('x', () => { assert.equal(f(), 1); });\nit('y', () => { f(); });\n"))!;
    const repeated = await planHoneypots({
      files: [file],
      style: 'tap',
      f2p: ['x'],
      p2p: ['y'],
      reportIds: new Set(['x', 'x [2]', 'y']),
      random: rng(1),
    });
    assert.equal(repeated, null);
    const none = await planHoneypots({ files: [file], style: 'tap', f2p: ['y'], p2p: [], reportIds: new Set(['y']), random: rng(1) });
    assert.equal(none, null);
  });
});
