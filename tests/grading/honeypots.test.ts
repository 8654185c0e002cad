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
  const taken = new Set(files.map((f) => f.rel));
  const p = await planHoneypots({ files, style, f2p, p2p, reportIds: new Set([...f2p, ...p2p]), taken, random: rng(seed) });
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

  it('Python: twins in copies of the file under fresh names in the project’s style, with its fixtures and helpers', async () => {
    const file = (await readTestFile('tests/test_lexer.py', PY))!;
    const names = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const p = await plan(
        [file],
        'pytest',
        ['tests/test_lexer.py::test_split_words'],
        ['tests/test_lexer.py::test_count_tokens', 'tests/test_lexer.py::TestEdges::test_empty_input'],
        seed,
      );
      assert.deepEqual(
        p.copies,
        p.files.map((f) => f.path),
      );
      for (const f of p.files) {
        assert.match(f.path, /^tests\/test_[a-z_]+\.py$/);
        assert.notEqual(f.path, 'tests/test_lexer.py');
        assert.doesNotMatch(f.path, MARKS);
        assert.equal(f.like, 'tests/test_lexer.py');
        assert.match(f.content, /@pytest\.fixture\ndef sample\(\):/, 'the fixture comes along');
        names.add(f.path);
      }
      const split = p.twins.filter((t) => t.of === 'tests/test_lexer.py::test_split_words');
      assert.ok(split.length >= 1 && split.length <= 2);
      for (const t of p.twins) {
        const copy = p.files.find((f) => t.id.startsWith(`${f.path}::`))!;
        assert.equal(t.id.slice(copy.path.length), t.of.slice('tests/test_lexer.py'.length), 'same test name, other file');
        const copied = await readTestFile(copy.path, copy.content);
        const def = copied!.tests.find((d) => testIdOf(d, 'pytest') === t.id)!;
        assert.equal(PY.includes(copy.content.slice(def.start, def.end)), false, 'the twin expects another value');
      }
    }
    assert.ok(names.size >= 10, `file names vary across tasks (${names.size} distinct)`);
  });

  it('Jest and Vitest ids carry the file: twins stay in it, numbered after the file and suite path', async () => {
    const file = (await readTestFile('src/parse.spec.ts', JS.replace("'../src/parse.js'", "'./parse.ts'")))!;
    const p = await planHoneypots({
      files: [file],
      style: 'jest',
      f2p: ['src/parse.spec.ts > parse > reads words'],
      p2p: [],
      reportIds: new Set(['src/parse.spec.ts > parse > reads words']),
      taken: new Set(),
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
    const taken = new Set<string>();
    const repeated = await planHoneypots({
      files: [file],
      style: 'tap',
      f2p: ['x'],
      p2p: ['y'],
      reportIds: new Set(['x', 'x [2]', 'y']),
      taken,
      random: rng(1),
    });
    assert.equal(repeated, null);
    const none = await planHoneypots({ files: [file], style: 'tap', f2p: ['y'], p2p: [], reportIds: new Set(['y']), taken, random: rng(1) });
    assert.equal(none, null);
  });
});
