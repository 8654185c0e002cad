import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRepair, asEdit, repairsIn, type Repair } from '../../src/policy/candidates.js';

const JS_RIGHT = `export function add(a, b) {
  return a + b;
}

export function clamp(x, lo, hi) {
  if (x < lo) {
    return lo;
  }
  return Math.min(x, hi);
}

export function span(s, from, to) {
  return s.slice(from, to);
}

export function sign(x) {
  if (x >= 0) {
    return 'plus';
  } else {
    return 'minus';
  }
}

export function last(xs) {
  return xs[xs.length - 1];
}

export function pair(a, b) {
  const out = [];
  out.push(a);
  out.push(b);
  return out;
}
`;

const PY_RIGHT = `def add(a, b):
    return a + b


def clamp(x, lo, hi):
    if x < lo:
        return lo
    return min(x, hi)


def sub(a, b):
    return a - b


def member(x, xs):
    return x in xs
`;

/** Planted bugs: name, the broken text, and the line the repair must touch. */
const JS_BUGS: [string, string, number][] = [
  ['`-` where `+` belongs', JS_RIGHT.replace('a + b', 'a - b'), 2],
  ['a flipped comparison', JS_RIGHT.replace('x < lo', 'x > lo'), 6],
  ['swapped arguments', JS_RIGHT.replace('slice(from, to)', 'slice(to, from)'), 13],
  ['an inverted if/else', JS_RIGHT.replace("return 'plus';\n  } else {\n    return 'minus';", "return 'minus';\n  } else {\n    return 'plus';"), 17],
  ['a constant off by one', JS_RIGHT.replace('length - 1', 'length - 2'), 25],
  ['swapped statements', JS_RIGHT.replace('out.push(a);\n  out.push(b);', 'out.push(b);\n  out.push(a);'), 30],
];

const PY_BUGS: [string, string, number][] = [
  ['`-` where `+` belongs', PY_RIGHT.replace('a + b', 'a - b'), 2],
  ['a flipped comparison', PY_RIGHT.replace('x < lo', 'x > lo'), 6],
  ['swapped operands', PY_RIGHT.replace('a - b', 'b - a'), 12],
  ['a flipped membership test', PY_RIGHT.replace('x in xs', 'x not in xs'), 16],
];

async function inverse(file: string, broken: string, right: string): Promise<Repair | undefined> {
  return (await repairsIn(file, broken)).find((r) => applyRepair(broken, r) === right);
}

describe('repairsIn finds the inverse of a planted bug', () => {
  for (const [what, broken, line] of JS_BUGS) {
    it(`JavaScript: ${what}`, async () => {
      assert.notEqual(broken, JS_RIGHT, 'the bug was planted');
      const r = await inverse('src/m.js', broken, JS_RIGHT);
      assert.ok(r, `no repair undoes ${what}`);
      assert.equal(r.file, 'src/m.js');
      assert.equal(r.line, line);
      assert.ok(['operations', 'control'].includes(r.family), r.family);
    });
  }
  for (const [what, broken, line] of PY_BUGS) {
    it(`Python: ${what}`, async () => {
      assert.notEqual(broken, PY_RIGHT, 'the bug was planted');
      const r = await inverse('pkg/m.py', broken, PY_RIGHT);
      assert.ok(r, `no repair undoes ${what}`);
      assert.equal(r.line, line);
    });
  }

  it('describes the edit: operator, family and the text before and after', async () => {
    const broken = JS_RIGHT.replace('a + b', 'a - b');
    const r = (await inverse('src/m.js', broken, JS_RIGHT))!;
    assert.equal(r.operator, 'op_change');
    assert.equal(r.family, 'operations');
    assert.equal(r.before, '-');
    assert.equal(r.after, '+');
    assert.equal(broken.slice(r.start, r.end), '-');
    const flip = (await inverse('src/m.js', JS_RIGHT.replace('x < lo', 'x > lo'), JS_RIGHT))!;
    assert.equal(flip.operator, 'op_flip');
    assert.deepEqual([flip.before, flip.after], ['>', '<']);
  });

  it('lists only real, distinct edits of the repair families', async () => {
    const rs = await repairsIn('src/m.js', JS_RIGHT);
    assert.ok(rs.length > 10, `${rs.length} repairs`);
    const ids = new Set(rs.map((r) => `${r.start}:${r.end}:${r.text}`));
    assert.equal(ids.size, rs.length, 'no duplicate edits');
    for (const r of rs) {
      assert.ok(['operations', 'control'].includes(r.family), `${r.operator} is ${r.family}`);
      assert.notEqual(applyRepair(JS_RIGHT, r), JS_RIGHT, `${r.operator} at ${r.line} changes nothing`);
      assert.ok(r.line >= 1 && r.line <= JS_RIGHT.split('\n').length);
    }
  });

  it('has nothing to offer in a file of no known language', async () => {
    assert.deepEqual(await repairsIn('README.md', 'a + b\n'), []);
  });
});

describe('repairsIn cache', () => {
  it('returns the same array for the same file and text, a new one otherwise', async () => {
    const a = await repairsIn('src/m.js', JS_RIGHT);
    assert.equal(await repairsIn('src/m.js', JS_RIGHT), a);
    const b = await repairsIn('src/m.js', `${JS_RIGHT}\n`);
    assert.notEqual(b, a);
    assert.equal(b.length, a.length);
    const c = await repairsIn('src/other.js', JS_RIGHT);
    assert.notEqual(c, a, 'keyed by file as well');
    assert.ok(c.every((r) => r.file === 'src/other.js'));
  });
});

describe('asEdit', () => {
  // The same line twice: the edit must widen its context until unique.
  const DUP = `export function f(a, b) {
  return a - b;
}

export function g(a, b) {
  return a - b;
}

export function h(a, b) {
  return a - b;
}
`;

  for (const [name, file, text] of [
    ['JavaScript', 'src/m.js', JS_RIGHT],
    ['Python', 'm.py', PY_RIGHT],
    ['repeated lines', 'src/d.js', DUP],
  ] as const) {
    it(`gives an old_string found exactly once whose replacement is the repair (${name})`, async () => {
      const rs = await repairsIn(file, text);
      assert.ok(rs.length > 0);
      for (const r of rs) {
        const e = asEdit(text, r);
        const at = text.indexOf(e.old_string);
        assert.ok(at >= 0 && text.indexOf(e.old_string, at + 1) === -1, `${r.operator}@${r.line}: ${JSON.stringify(e.old_string)} is not unique`);
        assert.equal(text.slice(0, at) + e.new_string + text.slice(at + e.old_string.length), applyRepair(text, r), `${r.operator}@${r.line}`);
        // Undo is the same edit the other way round.
        const after = applyRepair(text, r);
        const back = after.indexOf(e.new_string);
        assert.equal(after.slice(0, back) + e.old_string + after.slice(back + e.new_string.length), text);
      }
    });
  }

  it('makes the reversed edit unique too, when the repaired line copies another line', async () => {
    // Repairing add's `+` into `-` makes its line equal to sub's: an undo by
    // the plain line would match twice and the Edit tool would refuse it.
    const text = 'export function add(a, b) {\n  return a + b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}\n';
    const r = (await repairsIn('src/s.js', text)).find((x) => x.line === 2 && x.operator === 'op_change' && x.after === '-')!;
    assert.ok(r);
    const e = asEdit(text, r);
    const after = applyRepair(text, r);
    assert.equal(after.indexOf(e.new_string), after.lastIndexOf(e.new_string), `${JSON.stringify(e.new_string)} occurs twice after the repair`);
    assert.match(e.old_string, /function add/);
  });

  it('widens past a repeated line to the function that holds it', async () => {
    const rs = await repairsIn('src/d.js', DUP);
    const r = rs.find((x) => x.line === 6 && x.operator === 'op_change')!;
    assert.ok(r);
    const e = asEdit(DUP, r);
    assert.ok(e.old_string.includes('return a - b;'));
    assert.ok(e.old_string.split('\n').length > 1, 'more than the repeated line');
    assert.ok(e.new_string.includes('return a + b;'));
  });
});
