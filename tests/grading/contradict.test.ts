import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contradict, contradictionSites } from '../../src/grading/tests/contradict.js';
import { readTestFile } from '../../src/grading/tests/defs.js';
import { decodeJsString, otherNumber, otherString } from '../../src/grading/tests/literals.js';
import { rng } from '../../src/util/rng.js';

/** Each test's contradicted copy, with a fixed seed. */
async function copies(rel: string, text: string, seed = 1): Promise<(string | null)[]> {
  const f = (await readTestFile(rel, text))!;
  const sites = await contradictionSites(f);
  const random = rng(seed);
  return f.tests.map((t, i) => contradict(f, t, sites[i]!, random));
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

  it('makes small, natural changes: numbers by a few units, one letter for another, booleans flipped', () => {
    const r = rng(7);
    for (let i = 0; i < 200; i++) {
      const n = Number(otherNumber('41', r));
      assert.ok(n !== 41 && n >= 0 && Math.abs(n - 41) <= 10);
      const s = otherString("'Hello, World 2'", r)!;
      assert.equal(s.length, "'Hello, World 2'".length);
      assert.notEqual(s, "'Hello, World 2'");
      assert.equal([...s].filter((ch, k) => ch !== "'Hello, World 2'"[k]).length, 1);
    }
    assert.equal(otherNumber('0x1f', r), null);
    assert.equal(otherNumber('1e5', r), null);
    assert.match(otherNumber('10n', r)!, /^\d+n$/);
    assert.equal(otherString("'a\\nb'", r), null, 'escapes are left alone');
    assert.equal(otherString('f"{x}"', r), null, 'f-strings are left alone');
    assert.match(otherString('b""', r)!, /^b"[a-z]"$/);
  });

  it('reads JavaScript string literals as the runner names tests', () => {
    assert.equal(decodeJsString("'it\\'s'"), "it's");
    assert.equal(decodeJsString('"tab\\tand \\u00e9"'), 'tab\tand é');
    assert.equal(decodeJsString('`plain`'), 'plain');
    assert.equal(decodeJsString('`with ${x}`'), null);
  });
});
