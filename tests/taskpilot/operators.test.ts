// Every procedural operator, on every language it supports, produces code that
// parses and behaves differently from the original on a small program.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { operatorsFor } from '../../src/taskpilot/procedural/index.js';
import { applyAt } from '../../src/taskpilot/procedural/generate.js';
import { parse, parsesCleanly, type SyntaxLanguage } from '../../src/util/syntax.js';
import { packageRoot } from '../../src/util/paths.js';
import { rng } from '../../src/util/rng.js';
import { tempDir } from '../helpers/workspace.js';

const JS = `function sub(x, y) {
  return x - y;
}

function calc(a, b) {
  let total = a + b * 2;
  total += a % 3;
  if (a > b && b >= 0) {
    total = total - 1;
  } else {
    total = total + 10;
  }
  for (let i = 0; i < 3; i++) {
    total += i;
  }
  const label = total > 20 ? 'big' : 'small';
  try {
    if (a === 30) throw new Error('thirty');
    total = total << 1;
  } catch (e) {
    total = -1;
  }
  return [total, label, Math.max(a, b - 5), sub(a, b)];
}

console.log(JSON.stringify([calc(7, 2), calc(1, 5), calc(30, 4)]));
`;

const TS = JS.replace('function sub(x, y)', 'function sub(x: number, y: number): number')
  .replace('function calc(a, b)', 'function calc(a: number, b: number): unknown[]')
  .replace('let total = a', 'let total: number = a');

const PY = `from contextlib import nullcontext


class Base:
    def scale(self):
        return 2


class Calc(Base):
    def run(self, a, b):
        total = a + b * 2
        total += a % 3
        if a > b and b >= 0:
            total = total - 1
        else:
            total = total + 10
        for i in range(3):
            total += i
        try:
            total = total + 100 // (a - 30)
        except ZeroDivisionError:
            total = -1
        with nullcontext():
            total = total << 1
        return [total, a in (1, 7), self.scale()]


print([Calc().run(7, 2), Calc().run(1, 5), Calc().run(30, 4)])
`;

const dir = tempDir('fn-ops-');

function execute(lang: SyntaxLanguage, source: string): string {
  const file = join(dir, lang === 'python' ? 'p.py' : lang === 'javascript' ? 'p.mjs' : 'p.ts');
  writeFileSync(file, source);
  const argv = lang === 'python' ? ['python3', file] : lang === 'javascript' ? ['node', file] : ['node', '--import', 'tsx', file];
  const res = spawnSync(argv[0]!, argv.slice(1), { cwd: packageRoot, encoding: 'utf8', timeout: 20000 });
  // A crash is a behaviour too: keep its kind, not its stack.
  return `${res.status}:${res.stdout}:${(res.stderr.match(/\w*Error\b/) ?? [''])[0]}`;
}

const programs: [SyntaxLanguage, string][] = [
  ['javascript', JS],
  ['typescript', TS],
  ['python', PY],
];

for (const [lang, source] of programs) {
  describe(`procedural operators on ${lang}`, () => {
    const original = execute(lang, source);

    it('the sample program runs', () => {
      assert.match(original, /^0:/);
    });

    for (const op of operatorsFor(lang)) {
      it(`${op.name} gives parseable code with different behaviour`, async () => {
        const tree = await parse(source, lang);
        const sites = op.sites(tree.rootNode);
        assert.ok(sites.length > 0, 'the operator finds a site in the sample');
        let differs = 0;
        let produced = 0;
        // Each site with a few seeds: some operators pick among choices at a site.
        const tries = sites.flatMap((node) => [1, 2, 3, 4].map((seed) => ({ node, seed })));
        for (const { node, seed } of tries) {
          const result = await applyAt(op, { rel: 'p', lang, text: source }, node, rng(seed));
          if (!result || typeof result === 'string') continue;
          produced++;
          const after = result.files.p!.after;
          assert.ok(await parsesCleanly(after, lang));
          assert.equal(result.edit.operator, op.name);
          // Only the edited region changes: the text before the edit is untouched.
          assert.equal(
            after.slice(0, node.startIndex - 200 > 0 ? node.startIndex - 200 : 0),
            source.slice(0, node.startIndex - 200 > 0 ? node.startIndex - 200 : 0),
          );
          if (execute(lang, after) !== original) {
            differs++;
            break;
          }
        }
        assert.ok(produced > 0, 'at least one site gives a mutant');
        assert.ok(differs > 0, 'at least one mutant behaves differently');
      });
    }
  });
}

describe('class_rm_base with several bases', () => {
  it('removes one base and its comma, keeping keyword arguments', async () => {
    const { classRmBase } = await import('../../src/taskpilot/procedural/classes.js');
    const src = 'class A(B, C, metaclass=M):\n    pass\n';
    const tree = await parse(src, 'python');
    const outs = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) {
      const r = await applyAt(classRmBase, { rel: 'a.py', lang: 'python', text: src }, classRmBase.sites(tree.rootNode)[0]!, rng(seed));
      assert.ok(r && typeof r !== 'string');
      outs.add(r.files['a.py']!.after.split('\n')[0]!);
    }
    assert.deepEqual([...outs].sort(), ['class A(B, metaclass=M):', 'class A(C, metaclass=M):']);
  });
});
