// The protocol's results as people read them: a table with intervals, the hypotheses' verdicts, the cost, and plots
// of the held-out solve rate against rollouts per held-out environment (SVG). Printed whichever way they fall.
import { linePlot, type Series } from '../util/svg-plot.js';
import { rate, wilson } from '../util/stats.js';
import { table } from '../util/table.js';
import { MARGIN, MIN_SEEDS, savingVerdict, type Analysis, type Estimate, type ForgettingCurve } from './analysis.js';
import type { CellResult } from './result.js';
import type { Protocol } from './protocol.js';

const pts = (x: number) => (100 * x).toFixed(1);
/** A ratio with its interval: `1.26 [1.07, 1.47]`. */
export const ratioInterval = (i: Estimate): string =>
  `${i.mean.toFixed(2)} ${i.thin ? `[under ${MIN_SEEDS} seeds]` : `[${i.low.toFixed(2)}, ${i.high.toFixed(2)}]`}`;
/** `35.0% [30.1, 39.8]`. */
export function interval(i: Estimate | null, signed = false): string {
  if (!i) return '-';
  const sign = (x: number) => (signed && x > 0 ? '+' : '');
  if (i.thin) return `${sign(i.mean)}${pts(i.mean)}${signed ? ' pts' : '%'} [under ${MIN_SEEDS} seeds]`;
  return `${sign(i.mean)}${pts(i.mean)}${signed ? ' pts' : '%'} [${sign(i.low)}${pts(i.low)}, ${sign(i.high)}${pts(i.high)}]`;
}

export function renderAnalysis(p: Protocol, a: Analysis, total: number): string {
  const rows = a.rows.map((r) => [
    r.arm,
    r.runs,
    interval(r.final),
    interval(r.vsFrontier, true),
    interval(r.handwritten),
    interval(r.handwrittenVsFrontier, true),
    r.medianRollouts === null ? `never (0/${r.runs})` : `${r.medianRollouts} (${r.reached}/${r.runs} runs)`,
    `${pts(r.nonDegenerate)}%`,
    rate(r.stillSolved.solved, r.stillSolved.tried),
    r.probeRollouts.toFixed(1),
    `${(r.minutes / Math.max(1, r.runs)).toFixed(1)} min`,
  ]);
  const lines = [
    `protocol ${p.name}: ${a.cells}/${total} runs finished, ${(a.totalMinutes / 60).toFixed(2)} h of runs so far`,
    ...leftLine(a.left),
    `held-out: ${p.groups.map((g) => g.heldOut).join(', ')}; seeds ${p.seeds.join(',')}; ${p.budget} rollouts per run; ${p.evalTasks} held-out tasks x ${p.evalAttempts} attempts per evaluation`,
    '',
    table(
      [
        'arm',
        'runs',
        'final held-out solve rate [95% CI]',
        'minus frontier (paired)',
        'hand-written solve rate',
        'minus frontier (paired)',
        "rollouts to static's final (median)",
        'non-degenerate groups',
        'solved earlier, still solved',
        'probe rollouts per run',
        'wall per run',
      ],
      rows,
    ),
    '',
    ...a.h1.map(
      (h) =>
        `H1 frontier vs ${h.vs}, final held-out solve rate, frontier minus ${h.vs}: ${interval(h.gain, true)} -> ${h.verdict} (${h.gain?.thin ? `no verdict before ${MIN_SEEDS} seeds in every held-out environment` : `refuted when the interval lies below +${pts(MARGIN)} pts`})`,
    ),
    `H2 rollouts the frontier needs to reach static's final rate, over static's own (paired, ${a.h2.pairs} pairs where static gained): ${
      a.h2.ratio ? ratioInterval(a.h2.ratio) : '-'
    } -> ${a.h2.verdict}${a.h2.pairs === 0 ? ' (needs evaluations between the start and the end, and static above the untrained policy)' : ''}`,
    `difficulty model, predicted before each probe against observed (${a.calibration.bins.reduce((s, b) => s + b.tasks, 0)} probed tasks): ${
      a.calibration.bins
        .map((b) => `[${b.low.toFixed(1)}, ${b.high.toFixed(1)}) ${b.tasks} tasks: predicted ${pts(b.predicted)}% observed ${pts(b.observed)}%`)
        .join('; ') || '-'
    }; Brier ${a.calibration.brier?.toFixed(3) ?? '-'} against ${a.calibration.baseline?.toFixed(3) ?? '-'} for the overall rate`,
    ...savingLines(p, a),
    ...forgettingLines(a.forgetting),
    'intervals: 95% percentile bootstrap, seeds resampled within each held-out environment (4000 resamples, seed 1)',
  ];
  return lines.join('\n');
}

/** Per frontier variant: probe rollouts saved against the frontier's own runs, and whether at equal final rate. */
function savingLines(p: Protocol, a: Analysis): string[] {
  const variants = new Set(p.arms.filter((x) => x.curriculum === 'frontier' && x.name !== 'frontier').map((x) => x.name));
  const lines = a.rows
    .filter((r) => variants.has(r.arm) && r.probesVsFrontier)
    .map((r) => {
      const probes = r.probesVsFrontier!;
      const range = probes.thin ? `under ${MIN_SEEDS} seeds` : `${signed(probes.low)}, ${signed(probes.high)}`;
      return `  ${r.arm}: ${signed(probes.mean)} probe rollouts a run [${range}], final held-out solve rate ${interval(r.vsFrontier, true)} -> ${savingVerdict(probes, r.vsFrontier)}`;
    });
  const rule = `fewer probe rollouts, final rate not below the frontier's by ${pts(MARGIN)} pts`;
  return lines.length ? [`probe saving, variant minus frontier (paired; saves: ${rule}):`, ...lines] : [];
}

const signed = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(1)}`;

/** What is left, at the pace each held-out environment's finished runs set (none where it has no finished run yet). */
function leftLine(left: Analysis['left']): string[] {
  if (!left.length) return [];
  const known = left.filter((l) => l.minutesPerRun !== null);
  const hours = known.reduce((a, l) => a + (l.cells * l.minutesPerRun!) / 60, 0);
  const parts = left.map((l) =>
    l.minutesPerRun === null ? `${l.heldOut} ${l.cells} (no run finished yet)` : `${l.heldOut} ${l.cells} at ${l.minutesPerRun.toFixed(1)} min a run`,
  );
  const unknown = left.length - known.length;
  return [
    `left: ${parts.join(', ')}: about ${hours.toFixed(1)} h at this machine's pace so far${unknown ? `, plus ${unknown === 1 ? 'one group' : `${unknown} groups`} not yet timed` : ''}`,
  ];
}

/** One SVG per held-out environment: each run faint, each arm's mean over seeds bold, against rollouts. */
export function curvePlots(p: Protocol, results: CellResult[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of p.groups) {
    const series: Series[] = [];
    for (const arm of p.arms) {
      const runs = results.filter((r) => r.heldOutEnv === g.heldOut && r.arm === arm.name);
      if (runs.length === 0) continue;
      for (const r of runs)
        series.push({
          name: `${arm.name} seed ${r.seed}`,
          group: arm.name,
          faint: true,
          points: r.heldOut.map((q): [number, number] => [q.rollouts, q.solveRate]),
        });
      const n = Math.min(...runs.map((r) => r.heldOut.length));
      const mean = (f: (i: number, r: CellResult) => number, i: number) => runs.reduce((s, r) => s + f(i, r), 0) / runs.length;
      series.push({
        name: `${arm.name} (mean of ${runs.length})`,
        group: arm.name,
        bold: true,
        points: Array.from({ length: n }, (_, i): [number, number] => [mean((k, r) => r.heldOut[k]!.rollouts, i), mean((k, r) => r.heldOut[k]!.solveRate, i)]),
      });
    }
    if (series.length)
      out[`held-out-${g.heldOut}.svg`] = linePlot({
        title: `Held-out ${g.heldOut}: solve rate against rollouts (trained on ${g.train.join(', ')})`,
        xLabel: 'training rollouts (probes included)',
        yLabel: `held-out solve rate (${p.evalTasks} tasks x ${p.evalAttempts})`,
        series,
        yDomain: [0, 1],
      });
  }
  return out;
}

/** Share of earlier solved training tasks still solved when tried again, against steps since they were solved, per arm (all runs pooled). */
export function forgettingPlot(curves: readonly ForgettingCurve[]): string | null {
  const series: Series[] = curves.map((c) => ({ name: c.arm, points: c.byAge.map(([age, s, n]): [number, number] => [age, s / n]) }));
  if (series.length === 0) return null;
  return linePlot({
    title: 'Forgetting: training tasks solved earlier, tried again',
    xLabel: 'steps since the task was first solved',
    yLabel: 'share still solved',
    series,
    yDomain: [0, 1],
  });
}

/** Ages in steps since first solved, as the text's forgetting curve groups them (the plot keeps every age). */
const AGE_BINS: [number, number][] = [
  [1, 4],
  [5, 9],
  [10, 14],
  [15, Number.POSITIVE_INFINITY],
];

/** The forgetting curve as numbers: per arm, the share still solved in each age bin, with its count and a Wilson interval. */
export function forgettingLines(curves: readonly ForgettingCurve[]): string[] {
  return curves.map((c) => {
    const bins = AGE_BINS.map(([lo, hi]) => {
      const inBin = c.byAge.filter(([age]) => age >= lo && age <= hi);
      const s = inBin.reduce((a, [, x]) => a + x, 0);
      const n = inBin.reduce((a, [, , x]) => a + x, 0);
      const [low, high] = wilson(s, n);
      return `${Number.isFinite(hi) ? `${lo}-${hi}` : `${lo}+`}: ${n ? `${rate(s, n)} [${pts(low)}, ${pts(high)}]` : '-'}`;
    });
    return `forgetting, ${c.arm}: still solved by steps since first solved: ${bins.join('; ')}`;
  });
}
