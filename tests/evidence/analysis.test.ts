import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { analyse, rolloutsToReach } from '../../src/evidence/analysis.js';
import { cellDir, cellsOf, isPrimaryArm, parseProtocol, PROTOCOLS, type Protocol } from '../../src/evidence/protocol.js';
import { forgettingLines, renderAnalysis } from '../../src/evidence/report.js';
import { isCellResult, onSchedule, type CellResult } from '../../src/evidence/result.js';
import { readResults, resultPath } from '../../src/evidence/run.js';
import { tempDir } from '../helpers/workspace.js';
import { bootstrapMean, pairedGain } from '../../src/util/stats.js';

const protocol: Protocol = {
  ...PROTOCOLS.reduced,
  arms: PROTOCOLS.full.arms.filter((a) => ['frontier', 'static', 'uniform'].includes(a.name)),
  seeds: [1, 2, 3, 4, 5],
};

/** A finished cell whose held-out rate climbs from `start` to `end` (solved of 100 attempts), reaching it at `at` rollouts. */
function cell(heldOutEnv: string, arm: string, seed: number, start: number, end: number, at = 300): CellResult {
  return {
    schema: 'frognano.evidence-cell/v1',
    cell: `${heldOutEnv}.${arm}.s${seed}`,
    heldOutEnv,
    arm,
    seed,
    rollouts: 300,
    stop: 'budget',
    heldOut: [
      { step: 0, rollouts: 0, solveRate: start, solved: start * 100, attempts: 100 },
      { step: 6, rollouts: at, solveRate: end, solved: end * 100, attempts: 100 },
      { step: 19, rollouts: 300, solveRate: end, solved: end * 100, attempts: 100 },
    ],
    final: { solved: end * 100, attempts: 100 },
    handwritten: { solved: 1, attempts: 10, byTask: {} },
    groups: 10,
    degenerate: 2,
    minutes: 10,
  };
}

describe('evidence analysis', () => {
  it('a frontier ahead of static on every pair: H1 supported, with the paired gain and its interval', () => {
    const results = ['md-tokens', 'lru-cache'].flatMap((env) =>
      protocol.seeds.flatMap((s) => [cell(env, 'frontier', s, 0.2, 0.4 + s / 100, 100), cell(env, 'static', s, 0.2, 0.3), cell(env, 'uniform', s, 0.2, 0.2)]),
    );
    const a = analyse(protocol, results);
    const vsStatic = a.h1.find((h) => h.vs === 'static')!;
    assert.equal(vsStatic.verdict, 'supported');
    assert.ok(Math.abs(vsStatic.gain!.mean - 0.13) < 1e-9, String(vsStatic.gain!.mean));
    assert.ok(vsStatic.gain!.low > 0.1 && vsStatic.gain!.high < 0.16);
    // Frontier reached static's final (0.3) at 100 rollouts, static at 300: a third of the rollouts.
    assert.equal(a.h2.verdict, 'supported');
    assert.ok(Math.abs(a.h2.ratio!.mean - 1 / 3) < 1e-9);
    assert.equal(a.h2.pairs, 10);
    const staticRow = a.rows.find((r) => r.arm === 'static')!;
    assert.ok(Math.abs(staticRow.vsFrontier!.mean + 0.13) < 1e-9);
    assert.equal(staticRow.runs, 10);
    assert.equal(staticRow.nonDegenerate, 0.8);
  });

  it('forgetting: earlier solved tasks pooled by age per arm, printed as a curve in age bins with counts', () => {
    const f = (step: number, byAge: [number, 0 | 1][]) => ({
      step,
      rollouts: step * 16,
      tried: byAge.length,
      solved: byAge.filter(([, x]) => x).length,
      byAge,
    });
    const a1 = {
      ...cell('md-tokens', 'frontier', 1, 0.2, 0.3),
      forgetting: [
        f(10, [
          [2, 1],
          [9, 0],
        ]),
        f(19, [
          [2, 1],
          [11, 1],
          [18, 0],
        ]),
      ],
    };
    const a2 = {
      ...cell('md-tokens', 'frontier', 2, 0.2, 0.3),
      forgetting: [
        f(10, [
          [2, 0],
          [3, 1],
        ]),
      ],
    };
    const a = analyse(protocol, [a1, a2, cell('md-tokens', 'static', 1, 0.2, 0.3)]);
    assert.deepEqual(a.forgetting, [
      {
        arm: 'frontier',
        byAge: [
          [2, 2, 3],
          [3, 1, 1],
          [9, 0, 1],
          [11, 1, 1],
          [18, 0, 1],
        ],
      },
    ]);
    const [line, ...rest] = forgettingLines(a.forgetting);
    assert.equal(rest.length, 0, 'static tracked no forgetting: no line');
    assert.match(line!, /^forgetting, frontier: still solved by steps since first solved: 1-4: 75\.0% \(3\/4\) \[\d+\.\d, \d+\.\d\]; 5-9: 0\.0% \(0\/1\) /);
    assert.match(line!, /10-14: 100\.0% \(1\/1\) .*; 15\+: 0\.0% \(0\/1\)/);
    assert.match(renderAnalysis(protocol, a, 6), /forgetting, frontier: /);
  });

  it('under 3 seeds in a held-out environment: the estimate is thin, printed without an interval, and earns no verdict', () => {
    // Two seeds in md-tokens, both far ahead of static: a collapsed bootstrap would call it supported.
    const results = [1, 2].flatMap((s) => [cell('md-tokens', 'frontier', s, 0.1, 0.5), cell('md-tokens', 'static', s, 0.1, 0.2)]);
    const a = analyse(protocol, results);
    const h1 = a.h1.find((h) => h.vs === 'static')!;
    assert.equal(h1.gain?.thin, true);
    assert.ok(Math.abs(h1.gain!.mean - 0.3) < 1e-9);
    assert.equal(h1.verdict, 'not shown');
    assert.equal(a.h2.verdict, 'not shown');
    const text = renderAnalysis(protocol, a, 15);
    assert.match(text, /frontier minus static: \+30\.0 pts \[under 3 seeds\] -> not shown \(no verdict before 3 seeds in every held-out environment\)/);
    assert.match(text, /static +2 +20\.0% \[under 3 seeds\]/);
    // A third seed: an interval and a verdict.
    const three = analyse(protocol, [...results, cell('md-tokens', 'frontier', 3, 0.1, 0.5), cell('md-tokens', 'static', 3, 0.1, 0.2)]);
    assert.equal(three.h1.find((h) => h.vs === 'static')!.verdict, 'supported');
    assert.equal(three.rows[0]!.final?.thin, undefined);
  });

  it('probe saving: a variant saves only with fewer probes, paired, and a final rate not below the frontier by the margin', () => {
    const gated: Protocol = {
      ...protocol,
      arms: PROTOCOLS.full.arms.filter((a) => ['frontier', 'frontier-gate-model', 'frontier-gate-greso', 'frontier-no-controller'].includes(a.name)),
    };
    const probed = (c: CellResult, probes: number): CellResult => ({ ...c, probeRollouts: probes });
    const results = [1, 2, 3].flatMap((s) => [
      probed(cell('md-tokens', 'frontier', s, 0.1, 0.3), 100 + s),
      // Level with the frontier on 60 fewer probes: saves.
      probed(cell('md-tokens', 'frontier-gate-model', s, 0.1, 0.3 + (s - 2) / 100), 40 + s),
      // Fewer probes, but 10 points behind: the saving is not at equal final rate.
      probed(cell('md-tokens', 'frontier-gate-greso', s, 0.1, 0.2), 50),
      // Ahead, on more probes: no saving.
      probed(cell('md-tokens', 'frontier-no-controller', s, 0.1, 0.35), 200),
    ]);
    const a = analyse(gated, results);
    const model = a.rows.find((r) => r.arm === 'frontier-gate-model')!;
    assert.ok(Math.abs(model.probesVsFrontier!.mean + 60) < 1e-9, String(model.probesVsFrontier!.mean));
    const text = renderAnalysis(gated, a, 12);
    assert.match(text, /frontier-gate-model: -60\.0 probe rollouts a run \[-60\.0, -60\.0\], final held-out solve rate 0\.0 pts \[-1\.0, \+1\.0\] -> saves/);
    assert.match(text, /frontier-gate-greso: -52\.0 probe rollouts a run .* -> not shown/);
    assert.match(text, /frontier-no-controller: \+98\.0 probe rollouts a run .* -> no saving/);
    assert.doesNotMatch(text, /  frontier: /);
    // Two seeds: no verdict either way.
    const two = renderAnalysis(
      gated,
      analyse(
        gated,
        results.filter((r) => r.seed < 3),
      ),
      12,
    );
    assert.match(two, /frontier-gate-model: -60\.0 probe rollouts a run \[under 3 seeds\].* -> not shown/);
  });

  it("what is left: unfinished cells per held-out environment at the pace of its finished runs of each cell's curriculum", () => {
    const two: Protocol = { ...protocol, groups: [...protocol.groups, { heldOut: 'lru-cache', train: ['durations'] }] };
    const done = [
      cell('md-tokens', 'frontier', 1, 0.2, 0.3),
      cell('md-tokens', 'frontier', 2, 0.2, 0.3),
      { ...cell('md-tokens', 'static', 1, 0.2, 0.3), minutes: 40 },
    ];
    const a = analyse(two, done);
    // 3 frontier runs left at 10 min, 4 static at 40, 5 uniform at the mean of all finished (20): 290 min over 12.
    assert.deepEqual(
      a.left.map((l) => ({ ...l, minutesPerRun: l.minutesPerRun && Math.round(l.minutesPerRun * 1000) / 1000 })),
      [
        { heldOut: 'md-tokens', cells: 12, minutesPerRun: Math.round((290 / 12) * 1000) / 1000 },
        { heldOut: 'lru-cache', cells: 15, minutesPerRun: null },
      ],
    );
    assert.match(
      renderAnalysis(two, a, 30),
      /left: md-tokens 12 at 24\.2 min a run, lru-cache 15 \(no run finished yet\): about 4\.8 h at this machine's pace so far, plus one group not yet timed/,
    );
    assert.deepEqual(analyse(protocol, []).left, [{ heldOut: 'md-tokens', cells: 15, minutesPerRun: null }]);
  });

  it('a frontier level with static, tightly measured: H1 refuted (the interval lies below the margin)', () => {
    const results = ['md-tokens', 'lru-cache'].flatMap((env) =>
      protocol.seeds.flatMap((s) => [cell(env, 'frontier', s, 0.2, 0.3 + (s % 2) / 100), cell(env, 'static', s, 0.2, 0.3)]),
    );
    const h = analyse(protocol, results).h1.find((x) => x.vs === 'static')!;
    assert.equal(h.verdict, 'refuted');
  });

  it('noisy pairs that straddle zero: not shown either way', () => {
    const results = ['md-tokens'].flatMap((env) =>
      protocol.seeds.flatMap((s) => [cell(env, 'frontier', s, 0.2, s % 2 ? 0.5 : 0.1), cell(env, 'static', s, 0.2, 0.3)]),
    );
    assert.equal(analyse(protocol, results).h1.find((x) => x.vs === 'static')!.verdict, 'not shown');
  });

  it('rollouts to reach a rate: the first evaluation at or above it, null when never', () => {
    const r = cell('md-tokens', 'frontier', 1, 0.2, 0.4, 120);
    assert.equal(rolloutsToReach(r, 0.2), 0);
    assert.equal(rolloutsToReach(r, 0.4), 120);
    assert.equal(rolloutsToReach(r, 0.5), null);
    assert.ok(isCellResult(r));
    assert.ok(!isCellResult({ ...r, final: null }));
  });

  it("leaves out the evaluation a chunk's stop added: H2's first reach and forgetting see the protocol's schedule only", () => {
    const point = (step: number, rollouts: number, solveRate: number) => ({ step, rollouts, solveRate, solved: solveRate * 100, attempts: 100 });
    const check = (step: number) => ({ step, rollouts: step * 20, tried: 2, solved: 1, byAge: [[1, 1] as [number, 0 | 1], [2, 0] as [number, 0 | 1]] });
    // Stopped by a chunk after step 7, resumed, evaluated at step 10 and at its end (step 14).
    const split: CellResult = {
      ...cell('md-tokens', 'frontier', 1, 0.2, 0.4),
      heldOut: [point(0, 0, 0.2), point(7, 150, 0.4), point(10, 200, 0.4), point(14, 300, 0.4)],
      forgetting: [check(7), check(10), check(14)],
    };
    const kept = onSchedule(split, 10);
    assert.deepEqual(
      kept.heldOut.map((p) => p.step),
      [0, 10, 14],
    );
    assert.deepEqual(
      kept.forgetting?.map((f) => f.step),
      [10, 14],
    );
    assert.equal(rolloutsToReach(split, 0.4), 150);
    assert.equal(rolloutsToReach(kept, 0.4), 200);
    assert.deepEqual(onSchedule(kept, 10), kept, 'a run on schedule is left as it is');

    // As the report reads it from disk.
    const out = tempDir();
    const p = { ...protocol, evalEvery: 10 };
    const at = cellsOf(p).find((c) => c.id === split.cell)!;
    mkdirSync(cellDir(out, at.id), { recursive: true });
    writeFileSync(resultPath(out, at), JSON.stringify(split));
    assert.deepEqual(readResults(p, out), [kept]);
  });
});

describe('stratified bootstrap', () => {
  it('is the plain paired bootstrap for one stratum, and resamples within strata', () => {
    const before = [0.1, 0.2, 0.3, 0.4];
    const after = [0.2, 0.2, 0.5, 0.3];
    assert.deepEqual(pairedGain(before, after), bootstrapMean([after.map((a, i) => a - before[i]!)]));
    // Two strata of constant values: every resample keeps each stratum's size, so the interval is a point.
    const b = bootstrapMean([
      [1, 1, 1],
      [0, 0],
    ])!;
    assert.equal(b.mean, 0.6);
    assert.equal(b.low, 0.6);
    assert.equal(b.high, 0.6);
    assert.equal(bootstrapMean([[], []]), null);
  });
});

describe('protocols', () => {
  it('the full protocol: four held-out environments (two JavaScript, two Python), five seeds, every ablation', () => {
    const full = PROTOCOLS.full;
    assert.equal(full.groups.length, 4);
    assert.ok(full.seeds.length >= 5 && full.evalTasks >= 40 && full.evalAttempts >= 4);
    for (const a of ['restock', 'weighting', 'controller', 'probe', 'replay'])
      assert.ok(
        full.arms.some((x) => x.ablate.includes(a as never)),
        a,
      );
    const ids = cellsOf(full).map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length);
    // The primary comparison first, seed by seed: seed 1's frontier, static and uniform cells of every group, then
    // seed 2's; the ablations and gates only after every primary cell.
    const cells = cellsOf(full);
    const primary = full.arms.filter(isPrimaryArm).map((a) => a.name);
    assert.deepEqual(primary, ['frontier', 'static', 'uniform']);
    const nPrimary = full.seeds.length * full.groups.length * primary.length;
    assert.ok(cells.slice(0, nPrimary).every((c) => primary.includes(c.arm.name)));
    assert.ok(cells.slice(nPrimary).every((c) => !primary.includes(c.arm.name)));
    assert.ok(cells.slice(0, full.groups.length * primary.length).every((c) => c.seed === 1));
    assert.equal(cells[nPrimary]?.seed, 1);
    assert.equal(cells.length, 130);
  });

  it('a protocol file is checked, each problem named', () => {
    const ok = parseProtocol({ ...PROTOCOLS.reduced });
    assert.ok(!('error' in ok));
    const bad = (x: unknown) => {
      const got = parseProtocol(x);
      assert.ok('error' in got);
      return got.error;
    };
    assert.match(bad({ ...PROTOCOLS.reduced, seeds: [] }), /seeds/);
    assert.match(bad({ ...PROTOCOLS.reduced, groups: [{ heldOut: 'a', train: ['a', 'b'] }] }), /both trained on and held out/);
    assert.match(bad({ ...PROTOCOLS.reduced, arms: [{ name: 'static', curriculum: 'static', ablate: [] }] }), /frontier/);
    assert.match(bad({ ...PROTOCOLS.reduced, arms: [{ name: 'frontier', curriculum: 'static', ablate: ['probe'] }] }), /ablations apply/);
    assert.match(bad({ ...PROTOCOLS.reduced, budget: -1 }), /budget/);
  });
});
