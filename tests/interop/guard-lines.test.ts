// The lines the Harbor grader tells the guard a change added (assets/exports/
// grade.py guard_lines, from the broken state's file and the new content)
// against the verifier's own (src/grading/guard.ts guardLines, from the
// change's diff): the same map on random edits, new and deleted files and
// files without a final newline; past 64 KiB, each file whole in both.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { guardLines } from '../../src/grading/guard.js';
import { fileDiff } from '../../src/util/diff.js';
import { exportAssetsDir } from '../../src/util/paths.js';
import { rng } from '../../src/util/rng.js';
import { tempDir } from '../helpers/workspace.js';

/** Loads grade.py's functions (its main does not run); each case's broken files under a folder of its own as REPO. */
const DRIVER = `
import importlib.util, json, os, sys
spec = importlib.util.spec_from_file_location("grade", sys.argv[1])
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)
g.LIMITS = {"max_file_bytes": 1 << 24}
out = []
for k, case in enumerate(json.load(sys.stdin)):
    g.REPO = os.path.join(sys.argv[2], str(k))
    for rel, f in case.items():
        if f["old"] is not None:
            os.makedirs(os.path.dirname(os.path.join(g.REPO, rel)), exist_ok=True)
            open(os.path.join(g.REPO, rel), "wb").write(f["old"].encode())
    out.append(g.guard_lines({rel: None if f["new"] is None else f["new"].encode() for rel, f in case.items()}))
print(json.dumps(out))
`;

type Case = Record<string, { old: string | null; new: string | null }>;

function python(cases: Case[]): string[] {
  const out = execFileSync('python3', ['-c', DRIVER, join(exportAssetsDir, 'grade.py'), tempDir('fn-guard-lines-')], {
    input: JSON.stringify(cases),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out) as string[];
}

/** The verifier's map: the change as one patch of every file's diff. */
function verifier(c: Case): string {
  const patch = Object.entries(c)
    .map(([rel, f]) => fileDiff(rel, f.old ?? '', f.new ?? ''))
    .join('');
  return guardLines(patch);
}

/** Files of distinct lines (so the added lines are the same in any minimal diff), edited at random. */
function editCase(random: () => number, serial: { n: number }): Case {
  const line = () => `x${serial.n++} = ${Math.floor(random() * 1000)}`;
  const c: Case = {};
  const files = 1 + Math.floor(random() * 3);
  for (let f = 0; f < files; f++) {
    const rel = `pkg/m${f}.py`;
    const kind = random();
    const old = Array.from({ length: Math.floor(random() * 40) }, line);
    const end = () => (random() < 0.2 ? '' : '\n');
    if (kind < 0.1) {
      c[rel] = { old: null, new: `${Array.from({ length: 1 + Math.floor(random() * 10) }, line).join('\n')}${end()}` };
      continue;
    }
    if (kind < 0.15 && old.length) {
      c[rel] = { old: `${old.join('\n')}\n`, new: null };
      continue;
    }
    const now = [...old];
    for (let e = Math.floor(random() * 6); e > 0; e--) {
      const at = Math.floor(random() * (now.length + 1));
      const op = random();
      if (op < 0.4) now.splice(at, 0, ...Array.from({ length: 1 + Math.floor(random() * 4) }, line));
      else if (op < 0.7) now.splice(at, 1 + Math.floor(random() * 3));
      else now.splice(at, 1 + Math.floor(random() * 2), ...Array.from({ length: 1 + Math.floor(random() * 3) }, line));
    }
    const before = old.length ? `${old.join('\n')}${end()}` : '';
    const after = now.length ? `${now.join('\n')}${end()}` : '';
    if (before !== after) c[rel] = { old: before, new: after };
  }
  return c;
}

describe('the Harbor grader\u2019s added-lines map for the guard', () => {
  it('is the verifier\u2019s on 300 random changes (edits, new and deleted files, no final newline)', () => {
    const random = rng(17);
    const serial = { n: 0 };
    const cases = Array.from({ length: 300 }, () => editCase(random, serial)).filter((c) => Object.keys(c).length);
    const got = python(cases);
    cases.forEach((c, k) => assert.deepEqual(JSON.parse(got[k]!), JSON.parse(verifier(c)), JSON.stringify(c)));
  });

  it('marks a changed last line whose newline was added, as git does', () => {
    const c: Case = { 'a.py': { old: 'x = 1\ny = 2', new: 'x = 1\ny = 2\n' } };
    assert.deepEqual(JSON.parse(python([c])[0]!), JSON.parse(verifier(c)));
    assert.deepEqual(JSON.parse(verifier(c)), { 'a.py': [[2, 2]] });
  });

  it('past 64 KiB, gives every file whole, as the verifier does, bounded by the file\u2019s own lines', () => {
    // Every other line changed in 80 files: their spans together are over 64 KiB.
    const old = Array.from({ length: 200 }, (_, i) => `v${i} = 0`);
    const now = old.map((l, i) => (i % 2 ? l.replace('0', '1') : l));
    const c: Case = Object.fromEntries(Array.from({ length: 80 }, (_, f) => [`pkg/m${f}.py`, { old: `${old.join('\n')}\n`, new: `${now.join('\n')}\n` }]));
    c['small.py'] = { old: 'a = 1\n', new: 'a = 2' };
    assert.ok(
      JSON.stringify(Object.fromEntries(Object.keys(c).map((f) => [f, Array.from({ length: 100 }, (_, i) => [2 * i + 2, 2 * i + 2])]))).length > 64 * 1024,
    );
    const ours = JSON.parse(python([c])[0]!) as Record<string, [number, number][]>;
    const theirs = JSON.parse(verifier(c)) as Record<string, [number, number][]>;
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(theirs).sort());
    for (const [f, spans] of Object.entries(theirs)) {
      assert.deepEqual(spans, [[1, 1e9]], f);
      assert.deepEqual(ours[f], [[1, f === 'small.py' ? 1 : 201]], f);
    }
  });
});
