// Charts on uPlot (bundled, global `uPlot`). Each chart keeps its container's
// data-points attribute equal to the x values it shows, so a test (or a
// person with dev tools) can tell a curve gained points.
const PALETTE = ['#2e6bd1', '#d1462e', '#067647', '#b54708', '#7a2ed1', '#0e9384', '#c11574', '#475467'];

export const color = (i) => PALETTE[i % PALETTE.length];

function size(el) {
  return { width: Math.max(320, el.clientWidth - 4), height: 220 };
}

/** Series on one shared x: the union of the xs, nulls where a series has no point (uPlot draws across them). */
export function align(lines) {
  const xs = [...new Set(lines.flatMap((l) => l.x))].sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  const ys = lines.map((l) => {
    const y = new Array(xs.length).fill(null);
    l.x.forEach((x, i) => {
      y[at.get(x)] = l.y[i];
    });
    return y;
  });
  return [xs, ...ys];
}

/**
 * A line chart. `lines`: [{label, x, y, dash?, points?}]; `bands`: pairs of
 * line indexes [upper, lower] filled between (an interval).
 */
export function lineChart(el, { xLabel, yLabel, lines, bands = [], yRange, name }) {
  el.innerHTML = '';
  el.dataset.chart = name;
  const data = align(lines);
  el.dataset.points = String(data[0].length);
  const opts = {
    ...size(el),
    scales: { x: { time: false }, y: yRange ? { range: yRange } : { auto: true } },
    axes: [{ label: xLabel }, { label: yLabel }],
    series: [
      { label: xLabel },
      ...lines.map((l, i) => ({
        label: l.label,
        stroke: l.color ?? color(i),
        width: l.width ?? 2,
        dash: l.dash,
        spanGaps: true,
        points: { show: l.points ?? data[0].length < 60 },
      })),
    ],
    bands: bands.map(([hi, lo]) => ({ series: [hi + 1, lo + 1], fill: 'rgba(46,107,209,0.12)' })),
    legend: { live: true },
  };
  const chart = new uPlot(opts, data, el);
  return chart;
}

/** Shares of each pass-rate bin stacked to 1 over x: the distribution of the pool's estimates as it moves. */
export function stackedShares(el, { xLabel, x, rows, labels, name }) {
  el.innerHTML = '';
  el.dataset.chart = name;
  el.dataset.points = String(x.length);
  const k = labels.length;
  const cumulative = Array.from({ length: k }, () => []);
  rows.forEach((row) => {
    const total = row.reduce((a, b) => a + b, 0);
    let c = 0;
    for (let j = 0; j < k; j++) {
      c += total ? (row[j] ?? 0) / total : 0;
      cumulative[j].push(c);
    }
  });
  const zero = x.map(() => 0);
  // Red for tasks the policy rarely solves, green for those it nearly always does.
  const hue = (j) => `hsl(${Math.round((120 * j) / Math.max(1, k - 1))} 65% 48%)`;
  const opts = {
    ...size(el),
    height: 260,
    scales: { x: { time: false }, y: { range: [0, 1] } },
    axes: [{ label: xLabel }, { label: 'share of active tasks' }],
    series: [{ label: xLabel }, { label: 'zero', show: false }, ...labels.map((label, j) => ({ label, stroke: hue(j), width: 1, points: { show: false } }))],
    bands: labels.map((_, j) => ({ series: [j + 2, j + 1], fill: hue(j) })),
  };
  return new uPlot(opts, [x, zero, ...cumulative], el);
}
