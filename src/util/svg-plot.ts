// A dependency-free SVG line plot: axes, nice ticks, a legend, one colour per
// series group. Benchmarks plot several seeds per curriculum as faint lines
// and their mean as a bold one in the same colour (same `group`).

export interface Series {
  name: string;
  points: [number, number][];
  dashed?: boolean;
  /** Thin and translucent (e.g. one seed); left out of the legend. */
  faint?: boolean;
  /** Thick (e.g. the mean over seeds). */
  bold?: boolean;
  /** Series with the same group share a colour (default: the name). */
  group?: string;
}

export interface PlotSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  width?: number;
  height?: number;
  xDomain?: [number, number];
  yDomain?: [number, number];
}

export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

const MARGIN = { left: 64, right: 170, top: 40, bottom: 56 };

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Round tick values (steps of 1, 2 or 5 × 10^k) covering [min, max]. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function label(v: number): string {
  if (Math.abs(v) >= 10000) return `${Number((v / 1000).toPrecision(6))}k`;
  return String(Number(v.toPrecision(6)));
}

function domain(values: number[], fixed?: [number, number]): [number, number] {
  if (fixed) return fixed;
  if (values.length === 0) return [0, 1];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) [lo, hi] = [lo - 0.5, hi + 0.5];
  return [lo, hi];
}

const f = (v: number) => v.toFixed(1);

export function linePlot(spec: PlotSpec): string {
  const width = spec.width ?? 720;
  const height = spec.height ?? 440;
  const pw = width - MARGIN.left - MARGIN.right;
  const ph = height - MARGIN.top - MARGIN.bottom;
  const series = spec.series.map((s) => ({ ...s, points: s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y)) }));
  const all = series.flatMap((s) => s.points);
  const [x0, x1] = domain(
    all.map((p) => p[0]),
    spec.xDomain,
  );
  const [y0, y1] = domain(
    all.map((p) => p[1]),
    spec.yDomain,
  );
  const sx = (x: number) => MARGIN.left + ((x - x0) / (x1 - x0)) * pw;
  const sy = (y: number) => MARGIN.top + ph - ((y - y0) / (y1 - y0)) * ph;

  const groups: string[] = [];
  const colour = (s: Series) => {
    const g = s.group ?? s.name;
    if (!groups.includes(g)) groups.push(g);
    return PALETTE[groups.indexOf(g) % PALETTE.length]!;
  };

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="white"/>`,
    `<text x="${f(MARGIN.left + pw / 2)}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(spec.title)}</text>`,
  ];
  // Grid and ticks.
  for (const t of niceTicks(x0, x1)) {
    const x = f(sx(t));
    out.push(`<line x1="${x}" y1="${MARGIN.top}" x2="${x}" y2="${MARGIN.top + ph}" stroke="#eee"/>`);
    out.push(`<text x="${x}" y="${MARGIN.top + ph + 18}" text-anchor="middle">${label(t)}</text>`);
  }
  for (const t of niceTicks(y0, y1)) {
    const y = f(sy(t));
    out.push(`<line x1="${MARGIN.left}" y1="${y}" x2="${MARGIN.left + pw}" y2="${y}" stroke="#eee"/>`);
    out.push(`<text x="${MARGIN.left - 8}" y="${y}" text-anchor="end" dominant-baseline="middle">${label(t)}</text>`);
  }
  // Axes and their labels.
  out.push(`<path d="M${MARGIN.left},${MARGIN.top}V${MARGIN.top + ph}H${MARGIN.left + pw}" fill="none" stroke="#333"/>`);
  out.push(`<text x="${f(MARGIN.left + pw / 2)}" y="${height - 14}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`);
  out.push(`<text transform="translate(16 ${f(MARGIN.top + ph / 2)}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`);
  // Lines: faint ones first so bold means are drawn on top.
  const legend: { name: string; stroke: string; dashed: boolean }[] = [];
  const ordered = [...series.filter((s) => s.faint), ...series.filter((s) => !s.faint)];
  const strokes = new Map(series.map((s) => [s, colour(s)]));
  for (const s of ordered) {
    const stroke = strokes.get(s)!;
    const w = s.faint ? 1 : s.bold ? 3 : 1.8;
    const style = `stroke="${stroke}" stroke-width="${w}"${s.faint ? ' stroke-opacity="0.3"' : ''}${s.dashed ? ' stroke-dasharray="6 4"' : ''}`;
    const pts = s.points.map(([x, y]) => `${f(sx(x))},${f(sy(y))}`).join(' ');
    out.push(`<polyline fill="none" ${style} points="${pts}"><title>${escapeXml(s.name)}</title></polyline>`);
    if (!s.faint) legend.push({ name: s.name, stroke, dashed: !!s.dashed });
  }
  legend.forEach((l, i) => {
    const y = MARGIN.top + 10 + i * 20;
    const x = MARGIN.left + pw + 16;
    out.push(`<line x1="${x}" y1="${y}" x2="${x + 24}" y2="${y}" stroke="${l.stroke}" stroke-width="3"${l.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    out.push(`<text x="${x + 30}" y="${y}" dominant-baseline="middle">${escapeXml(l.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
