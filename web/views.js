// The task browser, one task, and the trajectory viewer of one attempt.
import { api, h, pct, show } from './app.js';

const enc = encodeURIComponent;

/** A unified diff with its added, removed and hunk lines marked. */
export function diffBlock(text, id) {
  const pre = h('pre', { class: 'diff', id });
  if (!text) {
    pre.append('(no change)');
    return pre;
  }
  for (const line of text.split('\n')) {
    const cls =
      line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : null;
    pre.append(cls ? h('span', { class: cls }, line) : `${line}\n`);
  }
  return pre;
}

function outcome(a) {
  if (a.reward === null) return h('span', { class: 'badge interrupted' }, 'infrastructure');
  if (a.verdict === 'tampering') return h('span', { class: 'badge tampering' }, 'tampering');
  return a.reward >= 1 ? h('span', { class: 'badge pass' }, 'pass') : h('span', { class: 'badge fail' }, 'fail');
}

export async function tasksPage(page, run, q) {
  const { tasks, facets } = await api(`runs/${enc(run)}/tasks?${q}`);
  const select = (name, label, values) =>
    h(
      'label',
      {},
      `${label} `,
      h(
        'select',
        { name },
        h('option', { value: '' }, 'all'),
        values.map((v) => h('option', { value: v, selected: q.get(name) === v }, v)),
      ),
    );
  const form = h(
    'form',
    {
      class: 'toolbar',
      id: 'filters',
      onsubmit: (e) => {
        e.preventDefault();
        const params = new URLSearchParams();
        for (const [k, v] of new FormData(e.target)) if (v !== '') params.set(k, String(v));
        location.hash = `#/tasks/${enc(run)}?${params}`;
      },
    },
    select('env', 'environment', facets.envs),
    select('strategy', 'generator', facets.strategies),
    select('operator', 'operator', facets.operators),
    h('label', {}, 'pass rate from ', h('input', { type: 'number', name: 'min', min: 0, max: 1, step: 0.05, value: q.get('min') ?? '' })),
    h('label', {}, 'to ', h('input', { type: 'number', name: 'max', min: 0, max: 1, step: 0.05, value: q.get('max') ?? '' })),
    h(
      'label',
      {},
      'set ',
      h(
        'select',
        { name: 'heldOut' },
        h('option', { value: '' }, 'all'),
        h('option', { value: 'false', selected: q.get('heldOut') === 'false' }, 'training'),
        h('option', { value: 'true', selected: q.get('heldOut') === 'true' }, 'held-out'),
      ),
    ),
    h('button', { type: 'submit' }, 'Filter'),
  );
  const rows = tasks.map((t) =>
    h(
      'tr',
      { 'data-task': t.taskId },
      h('td', {}, h('a', { href: `#/task/${enc(run)}/${enc(t.taskId)}` }, t.taskId)),
      h('td', {}, t.env),
      h('td', {}, t.strategy),
      h('td', {}, t.operators.join(', ')),
      h('td', { class: 'num' }, t.bugs),
      h('td', {}, t.hint),
      h('td', {}, t.heldOut ? 'held-out' : 'training'),
      h('td', { class: 'num' }, t.attempts),
      h('td', { class: 'num' }, t.passRate === null ? '-' : `${pct(t.passRate)} (${t.passed}/${t.scored})`),
    ),
  );
  show(
    page,
    h('h1', {}, `Tasks of run `, h('a', { href: `#/run/${enc(run)}` }, run)),
    form,
    h('p', { class: 'muted', id: 'task-count' }, `${tasks.length} task${tasks.length === 1 ? '' : 's'}`),
    h(
      'table',
      { id: 'tasks' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['task', 'environment', 'generator', 'operators', 'bugs', 'hint', 'set', 'attempts', 'pass rate (passed/scored)'].map((t) => h('th', {}, t)),
        ),
      ),
      capped(rows, 'tasks'),
    ),
  );
}

/** Rows past the first few hundred wait for a click: a long run's tables would otherwise cost seconds to draw. */
const ROWS_SHOWN = 300;

function capped(rows, what) {
  const body = h('tbody', {}, rows.slice(0, ROWS_SHOWN));
  if (rows.length > ROWS_SHOWN) {
    const more = h(
      'tr',
      { class: 'more' },
      h(
        'td',
        { colspan: 12 },
        h('button', { onclick: () => more.replaceWith(...rows.slice(ROWS_SHOWN)) }, `show the other ${rows.length - ROWS_SHOWN} ${what}`),
      ),
    );
    body.append(more);
  }
  return body;
}

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

function attemptsTable(list) {
  return h(
    'table',
    { id: 'attempts' },
    h(
      'thead',
      {},
      h('tr', {}, ...['attempt', 'step', 'why', 'policy version', 'outcome', 'verdict', 'cause', 'stopped', 'turns', 'time'].map((t) => h('th', {}, t))),
    ),
    capped(
      list.map((a) =>
        h(
          'tr',
          { 'data-attempt': a.id },
          h('td', {}, h('a', { href: `#/attempt/${a.id}` }, `#${a.id}`)),
          h('td', { class: 'num' }, a.step),
          h('td', {}, a.kind),
          h('td', { class: 'num' }, a.policyVersion),
          h('td', {}, outcome(a)),
          h('td', {}, a.verdict ?? '-'),
          h('td', {}, a.cause ?? a.reason ?? '-'),
          h('td', {}, a.stopReason),
          h('td', { class: 'num' }, a.turns),
          h('td', { class: 'num' }, secs(a.ms)),
        ),
      ),
      'attempts',
    ),
  );
}

export async function taskPage(page, run, id) {
  const t = await api(`runs/${enc(run)}/tasks/${enc(id)}`);
  // Long lists (a suite's passing tests) start folded.
  const tests = (label, ids) => {
    const list = h(
      'ul',
      { class: 'tests' },
      ids.map((x) => h('li', {}, x)),
    );
    return h('div', {}, h('h3', {}, `${label} (${ids.length})`), ids.length > 15 ? h('details', {}, h('summary', {}, `show all ${ids.length}`), list) : list);
  };
  show(
    page,
    h('h1', {}, `Task ${t.taskId}`),
    h('p', {}, h('a', { href: `#/tasks/${enc(run)}` }, `← tasks of run ${run}`)),
    h(
      'dl',
      { class: 'kv' },
      h('dt', {}, 'environment'),
      h('dd', {}, t.env),
      h('dt', {}, 'generator / operators'),
      h('dd', {}, `${t.strategy} / ${t.operators.join(', ') || '-'}`),
      h('dt', {}, 'bugs / hint'),
      h('dd', {}, `${t.bugs} / ${t.hint}`),
      h('dt', {}, 'pass rate'),
      h('dd', {}, t.passRate === null ? '-' : `${pct(t.passRate)} (${t.passed}/${t.scored})`),
    ),
    t.missing ? h('p', { class: 'error' }, `The task directory cannot be read: ${t.missing}`) : null,
    h('h2', {}, 'Instruction'),
    h('pre', { id: 'instruction' }, t.instruction),
    h('h2', {}, 'The bug'),
    diffBlock(t.bugPatch, 'bug'),
    h('h2', {}, 'Tests'),
    h(
      'div',
      { class: 'grid', id: 'tests' },
      tests('FAIL_TO_PASS', t.tests.FAIL_TO_PASS),
      tests('PASS_TO_PASS', t.tests.PASS_TO_PASS),
      tests('hidden files', t.tests.hiddenFiles),
    ),
    h('h2', {}, `Attempts (${t.attemptList.length})`),
    attemptsTable(t.attemptList),
  );
}

const PREVIEW_LINES = 12;

/** Text shown whole when short; otherwise its first lines, the rest one click away. */
function longText(text) {
  const lines = text.split('\n');
  if (lines.length <= PREVIEW_LINES) return h('pre', {}, text);
  return h(
    'div',
    {},
    h('pre', {}, lines.slice(0, PREVIEW_LINES).join('\n')),
    h('details', {}, h('summary', {}, `all ${lines.length} lines`), h('pre', {}, text)),
  );
}

function toolCalls(m) {
  return (m.tool_calls ?? []).map((c) => {
    const fn = c.function ?? {};
    let args = fn.arguments ?? '';
    try {
      args = JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      /* shown as sent */
    }
    return h('div', { class: 'call' }, h('strong', {}, fn.name ?? '?'), longText(args));
  });
}

/** The trajectory turn by turn: each assistant message with its tool calls and tokens, then what the tools returned. */
function turns(traj) {
  const byMessage = new Map((traj.turns ?? []).map((t) => [t.messageIndex, t]));
  let n = 0;
  return traj.messages.map((m, i) => {
    if (m.role === 'system') return h('details', { class: 'turn' }, h('summary', {}, 'system prompt'), h('pre', {}, m.content ?? ''));
    const rec = byMessage.get(i);
    const who =
      m.role === 'assistant'
        ? `turn ${++n}${rec ? ` · ${secs(rec.ms)}` : ''}${rec?.tokens ? ` · ${rec.tokens.ids.length} sampled tokens` : ''}${rec?.usage?.promptTokens ? ` · ${rec.usage.promptTokens} prompt tokens` : ''}`
        : m.role === 'tool'
          ? 'tool output'
          : m.role;
    return h(
      'div',
      { class: `turn ${m.role}`, 'data-role': m.role },
      h('div', { class: 'who' }, who),
      m.content ? longText(m.content) : null,
      m.role === 'assistant' ? toolCalls(m) : null,
    );
  });
}

function reportBlock(r) {
  if (!r) return h('p', { class: 'muted' }, 'Not graded (the rollout failed before the verifier ran).');
  const row = (k, v) => [h('dt', {}, k), h('dd', {}, v)];
  const list = (xs) => (xs.length ? xs.join(', ') : '-');
  return h(
    'dl',
    { class: 'kv', id: 'report' },
    ...row('verdict', `${r.verdict}${r.cause ? ` (${r.cause})` : ''}`),
    ...row('reward', r.reward === null ? 'none (infrastructure)' : r.reward),
    ...row('resolution', r.resolution),
    ...row('FAIL_TO_PASS passed', list(r.FAIL_TO_PASS.success)),
    ...row('FAIL_TO_PASS failed', list(r.FAIL_TO_PASS.failure)),
    ...row('PASS_TO_PASS failed', list(r.PASS_TO_PASS.failure)),
    ...row('files changed', list(r.patch.files)),
    ...row('changes dropped', list(r.patch.dropped.map((d) => `${d.file}: ${d.reason ?? ''}`))),
    ...row('tampering signs', list(r.tamper)),
    ...row('honeypots judged', r.honeypots),
    ...row('reason', r.reason ?? '-'),
  );
}

export async function attemptPage(page, id) {
  const a = await api(`attempts/${enc(id)}`);
  const art = a.artifact ?? {};
  const change =
    typeof art.change === 'string'
      ? diffBlock(art.change, 'change')
      : art.change?.refused
        ? h('p', { class: 'error', id: 'change' }, `The host refused to read the change: ${art.change.refused.message}`)
        : h('p', { class: 'muted', id: 'change' }, 'No change recorded.');
  show(
    page,
    h('h1', {}, `Attempt #${a.id} `, outcome(a)),
    h(
      'p',
      {},
      h('a', { href: `#/task/${enc(a.run)}/${enc(a.taskId)}` }, `← task ${a.taskId}`),
      ` · run ${a.run}, step ${a.step} (${a.kind}), policy version ${a.policyVersion}, ${a.turns} turns, ${secs(a.ms)} (grading ${secs(a.verifyMs)})${a.cached ? ', verdict reused' : ''}${a.tokens ? `, ${a.tokens} sampled tokens` : ''}`,
    ),
    a.pruned ? h('p', { class: 'muted' }, 'This attempt’s trajectory was pruned to keep the store within its disk budget; its outcome is kept.') : null,
    a.detail ? h('p', { class: 'error' }, a.detail) : null,
    h('h2', {}, 'Trajectory'),
    art.trajectory ? h('div', { id: 'trajectory' }, turns(art.trajectory)) : h('p', { class: 'muted' }, 'No trajectory recorded.'),
    h('h2', {}, 'Final diff'),
    change,
    h('h2', {}, 'Verifier report'),
    reportBlock(art.report),
  );
}
