// How fast the dashboard's pages load over the store of a long run, and what
// an attempt costs on disk.
//   npx tsx bench/dashboard-load.ts --from DATA_DIR [--rollouts 5000] [--loads 5]
// DATA_DIR holds a real (short) training run. Its attempts, with their real
// trajectories, are replicated into a fresh store until it holds --rollouts
// attempts over as many steps as a long run of that pace would take, with one
// metrics row per step; then each page is loaded --loads times in Chromium
// and the median and the largest time to drawn are printed.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { readySelector, chromiumPath, dashboardPages } from '../src/serve/pages.js';
import { Dashboard } from '../src/serve/server.js';
import { artifactPath, AttemptLog, type AttemptRow } from '../src/store/attempts.js';
import { gunzipSync } from 'node:zlib';
import { Store } from '../src/store/store.js';
import { isRecord } from '../src/util/guards.js';

const { values } = parseArgs({ options: { from: { type: 'string' }, rollouts: { type: 'string' }, loads: { type: 'string' } } });
if (!values.from) throw new Error('--from DATA_DIR (a data directory holding a real training run) is required');
const from = resolve(values.from);
const target = Number(values.rollouts ?? 5000);
const loads = Number(values.loads ?? 5);
const executablePath = chromiumPath();
if (!executablePath) throw new Error('no chromium: apt-get install chromium');

const KEEP_ROW: AttemptRow = {
  run: 'keep',
  step: 1,
  kind: 'train',
  taskId: '',
  policyVersion: 0,
  reward: 1,
  verdict: 'pass',
  cause: null,
  stopReason: 'submitted',
  turns: 1,
  tokens: null,
  ms: 0,
  verifyMs: 0,
  cached: false,
  reason: null,
};

const src = new Store(from);
const run = src.db.prepare<[], { run: string }>('SELECT run FROM attempts GROUP BY run ORDER BY COUNT(*) DESC LIMIT 1').get()?.run;
if (!run) throw new Error(`${from} holds no attempts: run frognano train there first`);
const rows = src.db
  .prepare<[string], Record<string, unknown> & { id: number; step: number; bytes: number }>('SELECT * FROM attempts WHERE run = ? ORDER BY id')
  .all(run);
const metrics = src.db
  .prepare<[string], { step: number; metrics_json: string }>('SELECT step, metrics_json FROM train_metrics WHERE run = ? ORDER BY step')
  .all(run);
const bytes = rows.reduce((a, r) => a + r.bytes, 0);
console.log(
  `source: run ${run} in ${from}: ${rows.length} attempts, ${metrics.length} steps; ${(bytes / rows.length / 1024).toFixed(1)} KiB per rollout on disk (gzipped JSON)`,
);

// What keeping an attempt costs the trainer: gzip, file and row, timed over the source's real artifacts.
{
  const scratch = mkdtempSync(join(tmpdir(), 'fn-dash-keep-'));
  const keepStore = new Store(scratch);
  const log = new AttemptLog(keepStore, scratch);
  const artifacts = rows.map((r): unknown => JSON.parse(gunzipSync(readFileSync(join(from, String(r.artifact)))).toString('utf8')));
  const t = performance.now();
  artifacts.forEach((a, i) => log.record({ ...KEEP_ROW, taskId: `t${i}` }, a));
  console.log(`keeping an attempt (gzip, file, row): ${((performance.now() - t) / artifacts.length).toFixed(1)} ms each over ${artifacts.length}`);
  keepStore.close();
  rmSync(scratch, { recursive: true, force: true });
}

// A fresh data directory: the source's runs/ (state and task banks) and a store with the replicated run.
const dir = mkdtempSync(join(tmpdir(), 'fn-dash-bench-'));
for (const name of readdirSync(join(from, 'runs'))) cpSync(join(from, 'runs', name), join(dir, 'runs', name), { recursive: true });
cpSync(join(from, 'frognano.db'), join(dir, 'frognano.db'));
const store = new Store(dir);
const db = store.db;
db.prepare('DELETE FROM attempts').run();
const perStep = Math.max(1, Math.round(rows.length / Math.max(1, metrics.length)));
const steps = Math.ceil(target / perStep);
const insert = db.prepare(
  `INSERT INTO attempts (run, step, kind, task_id, policy_version, reward, verdict, cause, stop_reason, turns, tokens, ms, verify_ms, cached, reason, at, artifact, bytes)
   VALUES (@run, @step, @kind, @task_id, @policy_version, @reward, @verdict, @cause, @stop_reason, @turns, @tokens, @ms, @verify_ms, @cached, @reason, @at, @artifact, @bytes)`,
);
const t0 = performance.now();
db.transaction(() => {
  // Each pass over the source's attempts acts on copies of its tasks under new ids, as a long run meets new tasks.
  const tasks = db.prepare<[string], Record<string, unknown> & { task_id: string }>('SELECT * FROM run_tasks WHERE run = ?').all(run);
  const addTask = db.prepare(
    'INSERT OR IGNORE INTO run_tasks (run, task_id, env, strategy, operators, bugs, hint, held_out, dir) VALUES (@run, @task_id, @env, @strategy, @operators, @bugs, @hint, @held_out, @dir)',
  );
  for (let i = 0; i < target; i++) {
    const r = rows[i % rows.length]!;
    const pass = Math.floor(i / rows.length);
    const id = i + 1;
    const rel = artifactPath(run, id);
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    cpSync(join(from, String(r.artifact)), join(dir, rel));
    const taskId = pass === 0 ? String(r.task_id) : `${String(r.task_id)}.r${pass}`;
    if (pass > 0 && i % rows.length === 0) for (const t of tasks) addTask.run({ ...t, task_id: `${t.task_id}.r${pass}` });
    insert.run({ ...r, task_id: taskId, step: 1 + Math.floor(i / perStep), artifact: rel, id: undefined });
  }
  db.prepare('DELETE FROM train_metrics WHERE run = ?').run(run);
  const add = db.prepare('INSERT INTO train_metrics (run, step, metrics_json) VALUES (?, ?, ?)');
  for (let s = 1; s <= steps; s++) {
    const m: unknown = JSON.parse(metrics[(s - 1) % metrics.length]!.metrics_json);
    if (!isRecord(m)) throw new Error(`metrics row ${s} is not an object`);
    add.run(run, s, JSON.stringify({ ...m, step: s, rollouts: s * perStep, elapsedMs: s * 20_000 }));
  }
})();
// The replicated run is the most recent (the pages visit it), with a held-out evaluation every 10 steps as a long run has.
db.prepare('UPDATE runs SET updated_at = ? WHERE name = ?').run(new Date().toISOString(), run);
const statePath = join(dir, 'runs', run, 'state.json');
const state: unknown = JSON.parse(readFileSync(statePath, 'utf8'));
if (isRecord(state) && Array.isArray(state.heldOut) && state.heldOut.length > 0) {
  const points: unknown[] = state.heldOut;
  const heldOut = Array.from({ length: Math.floor(steps / 10) + 1 }, (_, k) => {
    const p = points[k % points.length];
    return { ...(isRecord(p) ? p : {}), step: 10 * k, rollouts: 10 * k * perStep };
  });
  writeFileSync(statePath, JSON.stringify({ ...state, heldOut, step: steps, rolloutsUsed: target }));
}
const taskCount = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM run_tasks WHERE run = ?').get(run)?.n ?? 0;
console.log(`replicated store: ${target} attempts over ${steps} steps and ${taskCount} tasks in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const dash = new Dashboard({ store, dataDir: dir, host: '127.0.0.1', port: 0 });
const url = await dash.listen();
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  console.log(`\npage       median    max   (${loads} loads each, time from navigation to drawn)`);
  for (const p of dashboardPages(store, dir)) {
    const times: number[] = [];
    for (let i = 0; i < loads; i++) {
      await page.goto('about:blank');
      const t = performance.now();
      await page.goto(`${url}${p.hash}`);
      await page.waitForSelector(readySelector(p.hash), { state: 'attached' });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${p.name.padEnd(10)} ${times[Math.floor(times.length / 2)]!.toFixed(0).padStart(6)} ms ${times.at(-1)!.toFixed(0).padStart(6)} ms   ${p.shows}`,
    );
  }
} finally {
  await browser.close();
  await dash.close();
  store.close();
  src.close();
  rmSync(dir, { recursive: true, force: true });
}
