// The dashboard page: a hash router over the JSON API. Runs, one run's
// curves (live over server-sent events), two runs compared; the task and
// attempt views are in views.js.
import { lineChart, stackedShares } from './charts.js';
import { attemptPage, taskPage, tasksPage } from './views.js';

const page = document.getElementById('page');
const live = document.getElementById('live');
let cleanup = () => {};

export async function api(path) {
  const res = await fetch(`/api/${path}`);
  if (!res.ok) throw new Error(res.status === 404 ? 'not found' : `the server answered ${res.status}`);
  return res.json();
}

/** Builds an element: h('td', {class: 'num'}, 'text', child). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** Replaces a container's content, leaving out absent parts (null, undefined, false). */
export function show(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
}

export const pct = (x) => (x === null || x === undefined ? '-' : `${(100 * x).toFixed(1)}%`);
/** A rate with its counts, and its interval when known: 16.7% (2/12) [95% 4.7-44.8]. */
export function rateText(p) {
  if (!p) return '-';
  const counts = p.solved !== null && p.attempts !== null ? ` (${p.solved}/${p.attempts})` : '';
  const ci = p.low !== null ? ` [95% ${(100 * p.low).toFixed(1)}-${(100 * p.high).toFixed(1)}]` : '';
  return `${pct(p.rate)}${counts}${ci}`;
}
const when = (iso) => (iso ? new Date(iso).toLocaleString() : '-');
const enc = encodeURIComponent;

function progressBar(done, total) {
  const share = total ? Math.min(1, done / total) : 0;
  return h('span', {}, h('span', { class: 'bar' }, h('span', { style: `width:${(100 * share).toFixed(0)}%` })), `${done}/${total}`);
}

/** Runs ticked for comparison: kept across the list's refreshes. */
const chosen = new Set();

async function runsPage() {
  await renderRuns();
  return watch(null, renderRuns);
}

async function renderRuns() {
  const runs = await api('runs');
  const compare = h(
    'button',
    { id: 'compare', disabled: chosen.size !== 2, onclick: () => (location.hash = `#/compare/${[...chosen].map(enc).join('/')}`) },
    'Compare two runs',
  );
  const rows = runs.map((r) =>
    h(
      'tr',
      { 'data-run': r.name },
      h(
        'td',
        {},
        h('input', {
          type: 'checkbox',
          'aria-label': `choose ${r.name}`,
          checked: chosen.has(r.name),
          onchange: (e) => {
            if (e.target.checked) chosen.add(r.name);
            else chosen.delete(r.name);
            compare.disabled = chosen.size !== 2;
          },
        }),
      ),
      h('td', {}, h('a', { href: `#/run/${enc(r.name)}` }, r.name)),
      h('td', {}, h('span', { class: `badge ${r.status}` }, r.status), r.stop ? h('span', { class: 'muted' }, ` (${r.stop})`) : null),
      h('td', {}, r.curriculum),
      h('td', {}, r.learner),
      h('td', {}, progressBar(r.step, r.steps)),
      h('td', {}, progressBar(r.rollouts, r.budget)),
      h('td', { class: 'num' }, rateText(r.heldOut)),
      h('td', { class: 'num' }, r.attempts),
      h('td', { class: 'muted' }, when(r.updatedAt)),
    ),
  );
  show(
    page,
    h('h1', {}, 'Runs'),
    runs.length === 0
      ? h('p', { class: 'muted' }, 'No runs in this data directory yet: start one with frognano train.')
      : h(
          'table',
          { id: 'runs' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['', 'run', 'status', 'curriculum', 'learner', 'steps', 'rollouts', 'held-out solve rate (last)', 'attempts kept', 'updated'].map((t) =>
                h('th', {}, t),
              ),
            ),
          ),
          h('tbody', {}, rows),
        ),
    h('div', { class: 'toolbar' }, compare),
  );
}

/** Re-renders on each update of a run (or of any run for the list), polling the list every 3 s. */
function watch(run, render) {
  live.hidden = false;
  if (run === null) {
    const t = setInterval(() => render().catch(() => {}), 3000);
    return () => {
      clearInterval(t);
      live.hidden = true;
    };
  }
  const es = new EventSource(`/api/runs/${enc(run)}/events`);
  let first = true;
  es.addEventListener('update', () => {
    if (first) return void (first = false);
    render().catch(() => {});
  });
  return () => {
    es.close();
    live.hidden = true;
  };
}

const BIN_LABELS = Array.from({ length: 10 }, (_, i) => `${i * 10}-${i * 10 + 10}%`);

/** The x values of a run's steps and held-out points on the chosen axis (held-out points take their step's time). */
function axis(series, by) {
  const minutes = new Map([[0, 0], ...series.steps.map((s) => [s.step, s.minutes])]);
  if (by === 'steps') return { x: (s) => s.step, hx: (p) => p.step, label: 'steps' };
  if (by === 'minutes') return { x: (s) => s.minutes, hx: (p) => minutes.get(p.step) ?? null, label: 'minutes' };
  return { x: (s) => s.rollouts, hx: (p) => p.rollouts, label: 'rollouts' };
}

function card(title, note) {
  const el = h('div', { class: 'chart' });
  return { el, node: h('div', { class: 'card' }, h('h3', {}, title), el, note ? h('p', { class: 'note' }, note) : null) };
}

function runCharts(series, by) {
  const { x, hx, label } = axis(series, by);
  const steps = series.steps.filter((s) => x(s) !== null);
  const held = series.heldOut.filter((p) => hx(p) !== null);
  const xs = steps.map(x);
  const cards = {
    reward: card('Mean reward', 'of the step’s sampled groups; infrastructure failures left out'),
    heldOut: card('Held-out solve rate', 'with its Wilson 95% interval; reach: the chance the fix is among the policy’s first ten tries'),
    nonDegenerate: card('Non-degenerate groups', 'share of groups with mixed rewards (the ones that carry a gradient)'),
    yield: card('Synthesis yield', 'cumulative: valid tasks per candidate; admitted per probed'),
    tampering: card('Tampering verdicts', 'rollouts per step the verifier judged a forged or dodged test run (scored 0)'),
    frontier: card('The frontier: pass-rate estimates of active tasks', 'each band: the share of the pool whose posterior mean pass rate lies in that bin'),
    knobs: card('Difficulty knobs', 'the controller’s level per environment (0 easiest, 1 hardest)'),
  };
  const grid = h('div', { class: 'grid' }, ...Object.values(cards).map((c) => c.node));
  const draw = () => {
    lineChart(cards.reward.el, {
      name: 'reward',
      xLabel: label,
      yLabel: 'reward',
      yRange: [0, 1],
      lines: [{ label: 'mean reward', x: xs, y: steps.map((s) => s.meanReward) }],
    });
    const hxs = held.map(hx);
    lineChart(cards.heldOut.el, {
      name: 'held-out',
      xLabel: label,
      yLabel: 'solve rate',
      yRange: [0, 1],
      lines: [
        { label: 'solve rate', x: hxs, y: held.map((p) => p.rate), points: true },
        { label: '95% high', x: hxs, y: held.map((p) => p.high), width: 1, dash: [4, 4], color: '#98a2b3' },
        { label: '95% low', x: hxs, y: held.map((p) => p.low), width: 1, dash: [4, 4], color: '#98a2b3' },
        { label: 'reach', x: hxs, y: held.map((p) => p.reach), color: '#067647', dash: [2, 3] },
      ],
      bands: [[1, 2]],
    });
    lineChart(cards.nonDegenerate.el, {
      name: 'non-degenerate',
      xLabel: label,
      yLabel: 'share',
      yRange: [0, 1],
      lines: [{ label: 'non-degenerate share', x: xs, y: steps.map((s) => s.nonDegenerateShare) }],
    });
    lineChart(cards.yield.el, {
      name: 'yield',
      xLabel: label,
      yLabel: 'share',
      yRange: [0, 1],
      lines: [
        { label: 'valid / candidates', x: xs, y: steps.map((s) => (s.yield.candidates ? s.yield.valid / s.yield.candidates : null)) },
        { label: 'admitted / probed', x: xs, y: steps.map((s) => (s.yield.probed ? s.yield.admitted / s.yield.probed : null)) },
      ],
    });
    lineChart(cards.tampering.el, {
      name: 'tampering',
      xLabel: label,
      yLabel: 'rollouts',
      yRange: [0, Math.max(1, ...steps.map((s) => s.tampering))],
      lines: [{ label: 'tampering', x: xs, y: steps.map((s) => s.tampering) }],
    });
    stackedShares(cards.frontier.el, { name: 'frontier', xLabel: label, x: xs, rows: steps.map((s) => s.poolHistogram), labels: BIN_LABELS });
    const envs = [...new Set(steps.flatMap((s) => Object.keys(s.knobs)))];
    lineChart(cards.knobs.el, {
      name: 'knobs',
      xLabel: label,
      yLabel: 'level',
      yRange: [0, 1],
      lines: envs.map((e) => ({ label: e, x: xs, y: steps.map((s) => s.knobs[e] ?? null) })),
    });
  };
  return { grid, draw };
}

function heldOutTable(series) {
  return h(
    'table',
    { id: 'held-out' },
    h('thead', {}, h('tr', {}, ...['step', 'rollouts', 'solve rate (solved/scored) [95%]', 'reach'].map((t) => h('th', {}, t)))),
    h(
      'tbody',
      {},
      series.heldOut.map((p) => h('tr', {}, h('td', {}, p.step), h('td', {}, p.rollouts), h('td', {}, rateText(p)), h('td', {}, pct(p.reach)))),
    ),
  );
}

/** Whether the run's configuration is unfolded: kept across the page's live redraws. */
let configOpen = false;

/** The x-axis choice: rollouts or minutes, kept in the address. */
function axisToggle(base, by) {
  const option = (v) => h('option', { value: v, selected: by === v }, v);
  return h(
    'label',
    {},
    'x axis ',
    h('select', { id: 'axis', onchange: (e) => (location.hash = `${base}?by=${e.target.value}`) }, option('rollouts'), option('minutes'), option('steps')),
  );
}

async function runPage(name, by = 'rollouts') {
  const render = async () => {
    const s = await api(`runs/${enc(name)}`);
    const r = s.run;
    const toggle = axisToggle(`#/run/${enc(name)}`, by);
    const { grid, draw } = runCharts(s, by);
    show(
      page,
      h('h1', {}, `Run ${r.name} `, h('span', { class: `badge ${r.status}`, id: 'status' }, r.status)),
      h(
        'dl',
        { class: 'kv' },
        h('dt', {}, 'curriculum / learner'),
        h('dd', {}, `${r.curriculum} / ${r.learner}`),
        h('dt', {}, 'steps'),
        h('dd', { id: 'steps' }, progressBar(r.step, r.steps)),
        h('dt', {}, 'rollouts'),
        h('dd', { id: 'rollouts' }, progressBar(r.rollouts, r.budget)),
        h('dt', {}, 'held-out solve rate (last)'),
        h('dd', {}, rateText(r.heldOut)),
        h('dt', {}, 'stopped because'),
        h('dd', {}, r.stop ?? '-'),
        h('dt', {}, 'attempts kept'),
        h('dd', {}, h('a', { href: `#/tasks/${enc(r.name)}` }, `${r.attempts} (browse the tasks)`)),
      ),
      h(
        'details',
        { open: configOpen, ontoggle: (e) => (configOpen = e.target.open) },
        h('summary', {}, 'configuration'),
        h('pre', {}, JSON.stringify(r.config, null, 2)),
      ),
      h('div', { class: 'toolbar' }, toggle),
      grid,
      h('h2', {}, 'Held-out evaluations'),
      heldOutTable(s),
    );
    draw();
  };
  await render();
  return watch(name, render);
}

async function comparePage(a, b, by = 'rollouts') {
  const [sa, sb] = await Promise.all([api(`runs/${enc(a)}`), api(`runs/${enc(b)}`)]);
  const both = [sa, sb];
  const cards = {
    reward: card('Mean reward'),
    heldOut: card('Held-out solve rate'),
    nonDegenerate: card('Non-degenerate groups'),
  };
  show(
    page,
    h('h1', {}, `${a} against ${b}`),
    h(
      'p',
      { class: 'muted' },
      `${a}: ${sa.run.curriculum}, ${sa.run.rollouts} rollouts; ${b}: ${sb.run.curriculum}, ${sb.run.rollouts} rollouts. Same axes: x is ${by}.`,
    ),
    h('div', { class: 'toolbar' }, axisToggle(`#/compare/${enc(a)}/${enc(b)}`, by)),
    h('div', { class: 'grid' }, ...Object.values(cards).map((c) => c.node)),
  );
  const lines = (pick, held = false) =>
    both.map((s, i) => {
      const { x, hx } = axis(s, by);
      const pts = held ? s.heldOut.filter((p) => hx(p) !== null) : s.steps.filter((p) => x(p) !== null);
      return { label: s.run.name, x: pts.map(held ? hx : x), y: pts.map(pick), dash: i ? [6, 3] : undefined, points: held || undefined };
    });
  lineChart(cards.reward.el, { name: 'compare-reward', xLabel: by, yLabel: 'reward', yRange: [0, 1], lines: lines((s) => s.meanReward) });
  lineChart(cards.heldOut.el, { name: 'compare-held-out', xLabel: by, yLabel: 'solve rate', yRange: [0, 1], lines: lines((p) => p.rate, true) });
  lineChart(cards.nonDegenerate.el, { name: 'compare-non-degenerate', xLabel: by, yLabel: 'share', yRange: [0, 1], lines: lines((s) => s.nonDegenerateShare) });
  return () => {};
}

async function route() {
  cleanup();
  cleanup = () => {};
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const q = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  try {
    if (parts.length === 0) cleanup = await runsPage();
    else if (parts[0] === 'run' && parts[1]) cleanup = await runPage(parts[1], q.get('by') ?? 'rollouts');
    else if (parts[0] === 'compare' && parts[2]) cleanup = await comparePage(parts[1], parts[2], q.get('by') ?? 'rollouts');
    else if (parts[0] === 'tasks' && parts[1]) await tasksPage(page, parts[1], q);
    else if (parts[0] === 'task' && parts[2]) await taskPage(page, parts[1], parts[2]);
    else if (parts[0] === 'attempt' && parts[1]) await attemptPage(page, parts[1]);
    else show(page, h('p', { class: 'error' }, `No page at ${location.hash}.`));
  } catch (err) {
    show(page, h('p', { class: 'error' }, `Could not load this page: ${err.message}`));
  }
  document.body.dataset.ready = location.hash || '#/';
}

window.addEventListener('hashchange', route);
route();
