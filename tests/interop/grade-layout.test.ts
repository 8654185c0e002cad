// The Harbor grader's reading of a graded run (assets/exports/grade.py
// read_layout, read_groups) against the verifier's own (src/grading/layout.ts
// readLayout, copies.ts readGroups), and its fresh test file names against
// freshTestPath: the same results on many hand-made layouts, so an exported
// task is graded as FrogNano grades it (copy groups, same-file twins, moved
// files, renamed repeats, generated checks, forged ids).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readLayout } from '../../src/grading/layout.js';
import type { TestRun } from '../../src/grading/testrun.js';
import { freshTestPath } from '../../src/grading/tests/names.js';
import type { TestStatus } from '../../src/report/index.js';
import type { GradingLayout } from '../../src/task/task.js';
import { exportAssetsDir } from '../../src/util/paths.js';
import { rng } from '../../src/util/rng.js';

/** Loads grade.py's functions (its main does not run) and answers each case on stdin. */
const DRIVER = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("grade", sys.argv[1])
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)


class Replay:
    """The same draws as the TypeScript side: choice is floor(r * n), as names.ts picks a word."""

    def __init__(self, draws):
        self.draws = iter(draws)

    def random(self):
        return next(self.draws)

    def choice(self, seq):
        return seq[int(self.random() * len(seq))]


out = []
for case in json.load(sys.stdin):
    if case["kind"] == "read":
        g.CFG = case["cfg"]
        status = dict(case["status"])
        twins, forged = g.read_layout(status, {"moves": [tuple(m) for m in case["moves"]], "groups": case["groups"]})
        out.append({"status": status, "twins": sorted(map(list, twins)), "forged": sorted(forged)})
    else:
        g.RANDOM = Replay(case["draws"])
        out.append(g.fresh_name(case["like"], set(case["taken"]), case["words"]))
print(json.dumps(out))
`;

function python(cases: unknown[]): unknown[] {
  const out = execFileSync('python3', ['-c', DRIVER, join(exportAssetsDir, 'grade.py')], { input: JSON.stringify(cases), encoding: 'utf8' });
  return JSON.parse(out) as unknown[];
}

const STATUSES: (TestStatus | undefined)[] = ['passed', 'failed', 'skipped', 'error', undefined];

/** A layout with two copy groups (pytest and ava), same-file twins, renamed repeats, old-style copies and generated checks. */
function layoutCase(random: () => number): {
  layout: GradingLayout;
  f2p: string[];
  p2p: string[];
  moves: [string, string][];
  groups: string[][];
  status: Record<string, TestStatus>;
} {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const keys = ['::test_a', '::TestX::test_b', '::test_p', '::test_check_1', '::test_home'];
  const graded: Record<string, number> = {};
  const decoys: Record<string, number[]> = {};
  for (const k of keys.slice(0, 4)) {
    graded[k] = Math.floor(random() * 3);
    decoys[k] = [0, 1, 2].filter((c) => c !== graded[k] && random() < 0.8);
  }
  const layout: GradingLayout = {
    files: [],
    groups: [
      { like: 'tests/test_calc.py', contents: ['', '', ''], graded, decoys, home: Math.floor(random() * 3) },
      { like: 'test/core.test.js', contents: ['', ''], graded: { sums: 1 }, decoys: { sums: [0] }, home: 0, avaPrefix: 'test \u203a core \u203a ' },
    ],
    twins: [
      { id: 'toy > y', of: 'toy > y' },
      { id: 'toy > w [2]', of: 'toy > w' },
    ],
    renamed: { 'toy > y [2]': 'toy > y' },
    copies: ['tests/test_old.py'],
    copyPrefixes: ['test \u203a old'],
    relocate: true,
    repeats: ['toy > z [2]'],
    words: [],
    checks: ['tests/test_calc.py::test_check_1'],
  };
  const groups = [
    ['tests/test_one.py', 'tests/test_two_three.py', 'tests/test_four.py'],
    ['test/alpha.test.js', 'test/beta-gamma.test.js'],
  ];
  const moves: [string, string][] = [['tests/test_m.py', 'tests/test_fresh.py']];
  const ids = [
    ...groups[0]!.flatMap((p) => [...keys.map((k) => p + k), `${p}::test_p[1]`, `${p}::test_p[x-2]`]),
    ...groups[1]!.flatMap((p) => [
      `test \u203a ${p.split('/')[1]!.replace('.test.js', '')} \u203a sums`,
      `test \u203a ${p.split('/')[1]!.replace('.test.js', '')} \u203a other`,
    ]),
    'tests/test_calc.py::test_a',
    'test \u203a core \u203a sums',
    'tests/test_m.py::test_m',
    'tests/test_fresh.py::test_m',
    'tests/test_fresh.py::TestM::test_n[1]',
    'tests/test_old.py::test_a',
    'test \u203a old \u203a sums',
    'toy > y',
    'toy > y [2]',
    'toy > y [3]',
    'toy > w',
    'toy > w [2]',
    'toy > z [2]',
    'toy > mul',
  ];
  const status: Record<string, TestStatus> = {};
  for (const id of ids) {
    const s = pick(STATUSES);
    if (s) status[id] = s;
  }
  const f2p = ['tests/test_calc.py::test_a', 'tests/test_calc.py::TestX::test_b', 'toy > y', 'toy > w'];
  const p2p = ['tests/test_calc.py::test_p', 'tests/test_m.py::test_m', 'toy > mul', 'test \u203a core \u203a sums'];
  return { layout, f2p, p2p, moves, groups, status };
}

describe('the Harbor grader reads a graded run as the verifier does', () => {
  it('maps copy groups, twins, moves, renames and forged ids alike on 300 random runs', () => {
    const random = rng(7);
    const cases = Array.from({ length: 300 }, () => layoutCase(random));
    const answers = python(
      cases.map((c) => ({
        kind: 'read',
        cfg: { layout: c.layout, FAIL_TO_PASS: c.f2p, PASS_TO_PASS: c.p2p },
        status: c.status,
        moves: c.moves,
        groups: c.groups,
      })),
    );
    cases.forEach((c, i) => {
      const run: TestRun = {
        outcome: 'completed',
        exitCode: 0,
        exitAgrees: true,
        tests: new Map(Object.entries(c.status).map(([id, status]) => [id, { id, status }])),
        durationMs: 0,
        outputTail: '',
      };
      const reading = readLayout(run, c.layout, { moves: c.moves.map(([from, to]) => ({ from, to })), groups: c.groups }, [
        ...c.f2p,
        ...c.p2p,
        ...(c.layout.checks ?? []),
      ]);
      const ours = {
        status: Object.fromEntries([...run.tests].map(([id, r]) => [id, r.status])),
        twins: reading.twins.map((t) => [t.id, t.of, t.status]).sort(),
        forged: [...reading.forged].sort(),
      };
      const theirs = answers[i] as typeof ours;
      assert.deepEqual({ ...theirs, twins: theirs.twins.sort() }, ours, `case ${i}`);
    });
  });

  it('names fresh test files in the project style freshTestPath gives, draw for draw', () => {
    const random = rng(11);
    const likes = [
      'tests/test_calc.py',
      'test_calc.py',
      'tests/calc_test.py',
      'test/core.test.js',
      'src/__tests__/a-b.spec.ts',
      'tests/math.test.mjs',
      'test/test-thing.js',
      'lib/thing.py',
      'test/a_b-c.test.js',
      'tests/test_x-y_z.py',
    ];
    const words = ['alpha', 'beta', 'gamma'];
    const cases = likes.flatMap((like) =>
      Array.from({ length: 20 }, () => {
        const draws = Array.from({ length: 600 }, () => random());
        const taken = ['tests/test_alpha.py', 'test/alpha.test.js', 'lib/alpha.py'];
        let i = 0;
        const ours = freshTestPath(like, words, new Set(taken), () => draws[i++]!);
        return { like, taken, draws, ours };
      }),
    );
    const answers = python(cases.map((c) => ({ kind: 'name', like: c.like, taken: c.taken, words, draws: c.draws })));
    cases.forEach((c, i) => assert.equal(answers[i], c.ours, c.like));
  });
});
