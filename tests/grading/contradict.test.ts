import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contradictionSites, versions } from '../../src/grading/tests/contradict.js';
import { readTestFile } from '../../src/grading/tests/defs.js';
import { decodeJsString, numberSeries, stringSeries } from '../../src/grading/tests/literals.js';
import { rng } from '../../src/util/rng.js';

/** Each test's one other version (a twin), with a fixed seed. */
async function copies(rel: string, text: string, seed = 1): Promise<(string | null)[]> {
  const f = (await readTestFile(rel, text))!;
  const sites = await contradictionSites(f);
  const random = rng(seed);
  return f.tests.map((t, i) => {
    const v = versions(f, t, sites[i]!, 2, random);
    if (!v) return null;
    assert.equal(v.texts[v.real], text.slice(t.start, t.end), 'the original is among its versions');
    return v.texts[1 - v.real]!;
  });
}

describe('contradicting a test', () => {
  it('changes the expected literal of node:assert, tape and expect-style equality, and leaves negated or valueless assertions', async () => {
    const js = [
      "it('a', () => { assert.equal(f(2, 3), 5); });",
      "test('b', (t) => { t.deepEqual(g(), [1, 'x', true]); t.end(); });",
      "it('c', () => { expect(h(1)).toEqual({ k: -2 }); });",
      "it('d', () => { expect(h(1)).not.toBe(4); assert.ok(h(2)); assert.throws(() => h(3)); });",
      "it('e', () => { expect(k()).toBeTruthy(); });",
    ].join('\n');
    const [a, b, c, d, e] = await copies('t.test.js', js);
    assert.match(a!, /^it\('a', \(\) => \{ assert\.equal\(f\(2, 3\), (\d+)\); \}\);$/);
    assert.notEqual(/equal\(f\(2, 3\), (\d+)\)/.exec(a!)![1], '5', 'the input stays, the expectation moves');
    assert.notEqual(b, js.split('\n')[1]);
    assert.match(b!, /^test\('b', \(t\) => \{ t\.deepEqual\(g\(\), \[.*\]\); t\.end\(\); \}\);$/);
    assert.match(c!, /toEqual\(\{ k: -\d+ \}\)/);
    assert.notEqual(c, js.split('\n')[2]);
    assert.equal(d, null);
    assert.match(e!, /toBeFalsy\(\)/);
  });

  it('changes pytest comparisons, approx values, unittest assertions and truth checks', async () => {
    const py = [
      'def test_a():\n    assert f(2) == "abc"\n',
      'def test_b():\n    assert 0.3 == pytest.approx(g())\n',
      'class T(unittest.TestCase):\n    def test_c(self):\n        self.assertEqual(h(), (1, 2))\n\n    def test_d(self):\n        self.assertTrue(k())\n',
      'def test_e():\n    assert m() is False\n',
      'def test_f():\n    assert n(1)\n',
      'def test_g():\n    assert p() != 3\n    with pytest.raises(ValueError):\n        q()\n',
    ].join('\n\n');
    const [a, b, c, d, e, f, g] = await copies('tests/test_x.py', py);
    assert.match(a!, /assert f\(2\) == "[a-z]{3}"/);
    assert.notEqual(a, 'def test_a():\n    assert f(2) == "abc"');
    const moved = Number(/assert ([\d.]+) ==/.exec(b!)![1]);
    assert.ok(Math.abs(moved - 0.3) >= 1, `an approximate comparison cannot take ${moved} for 0.3`);
    assert.match(c!, /self\.assertEqual\(h\(\), \(\d+, \d+\)\)/);
    assert.match(d!, /self\.assertFalse\(k\(\)\)/);
    assert.match(e!, /assert m\(\) is True/);
    assert.match(f!, /assert not n\(1\)/);
    assert.equal(g, null);
  });

  it('draws value series whose shape does not say which value is real: evenly spaced numbers at any rank, strings one same place apart', () => {
    const r = rng(7);
    const ranks = [0, 0, 0];
    for (let i = 0; i < 600; i++) {
      const n = numberSeries('41', 3, r)!;
      const values = n.values.map(Number);
      assert.equal(values[n.real], 41);
      assert.equal(new Set(values).size, 3);
      assert.equal(values[1]! - values[0]!, values[2]! - values[1]!, 'evenly spaced');
      ranks[n.real]!++;
      const s = stringSeries("'Hello, World 2'", 3, r)!;
      assert.equal(s.values[s.real], "'Hello, World 2'");
      for (const v of s.values) assert.equal(v.length, "'Hello, World 2'".length);
      const differing = [...s.values[0]!].map((_, k) => new Set(s.values.map((v) => v[k])).size > 1);
      assert.equal(differing.filter(Boolean).length, 1, 'every version differs in the same one place');
    }
    for (const k of ranks) assert.ok(k > 150 && k < 250, `the real value's rank is uniform: ${ranks.join(', ')}`);
    assert.deepEqual(
      numberSeries('-2.50', 2, rng(1))!
        .values.filter((v) => v !== '-2.50')
        .map((v) => /^-?\d+\.\d\d$/.test(v)),
      [true],
      'decimals keep their places',
    );
    assert.ok(
      [1, 2, 3, 4, 5, 6, 7, 8].some((seed) => /-\d/.test(numberSeries('0', 3, rng(seed))!.values.join(' '))),
      'zero may be the top of its series, twins then negative',
    );
    assert.equal(numberSeries('0x1f', 2, r), null);
    assert.equal(numberSeries('1e5', 2, r), null);
    assert.match(numberSeries('10n', 2, r)!.values.join(' '), /^-?\d+n -?\d+n$/);
    assert.equal(stringSeries("'a\\nb'", 2, r), null, 'escapes are left alone');
    assert.equal(stringSeries('f"{x}"', 2, r), null, 'f-strings are left alone');
    assert.equal(stringSeries('""', 2, r), null, 'an empty string has no other of its length');
  });

  it('reads JavaScript string literals as the runner names tests', () => {
    assert.equal(decodeJsString("'it\\'s'"), "it's");
    assert.equal(decodeJsString('"tab\\tand \\u00e9"'), 'tab\tand é');
    assert.equal(decodeJsString('`plain`'), 'plain');
    assert.equal(decodeJsString('`with ${x}`'), null);
  });
});
