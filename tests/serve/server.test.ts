// The dashboard's server over a real HTTP socket on loopback: read-only, its
// assets bundled, the JSON API over the store (runs and their status, series,
// task filters, attempts), and the event stream that wakes open pages.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startDashboard } from '../../src/cli/serve.js';
import { Dashboard } from '../../src/serve/server.js';
import { addRun, artifact, fixtureStore, type FixtureStore } from '../helpers/serve-store.js';

describe('the dashboard server', () => {
  let f: FixtureStore;
  let dash: Dashboard;
  let url = '';
  const get = async (path: string) => {
    const res = await fetch(`${url}${path}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
  };
  const json = async (path: string): Promise<unknown> => JSON.parse((await get(path)).body);
  /** The path sent as written: fetch would resolve '..' and '%2e%2e' segments itself, as browsers do, but other clients need not. */
  const rawGet = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${url}${path}`, { path: `/${path}` }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  before(async () => {
    f = await fixtureStore();
    addRun(f, 'a', 4);
    f.log.runProgress('a', { step: 2, rollouts: 6 }, 'steps');
    addRun(f, 'b', 1);
    dash = new Dashboard({ store: f.store, dataDir: f.dir, host: '127.0.0.1', port: 0, pollMs: 50 });
    url = await dash.listen();
  });
  after(async () => {
    await dash.close();
    f.store.close();
  });

  it('binds loopback and serves its page and uPlot from the packages, nothing from the network', async () => {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get('');
    assert.match(page.type, /text\/html/);
    for (const asset of ['/uPlot.iife.min.js', '/uPlot.min.css', '/app.js', '/views.js', '/charts.js', '/app.css']) {
      assert.ok(page.body.includes(asset) || (await get(asset.slice(1))).body.length > 0, asset);
      assert.equal((await get(asset.slice(1))).status, 200, asset);
    }
    assert.doesNotMatch(page.body, /https?:\/\//, 'no remote asset');
    const res = await fetch(url);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'; script-src 'self'/);
  });

  it('refuses every method that could change something', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await fetch(`${url}api/runs`, { method });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get('allow'), 'GET, HEAD');
    }
    assert.equal((await get('api/nothing')).status, 404);
    assert.equal((await get('api/runs/nope')).status, 404);
  });

  it('refuses run names and task ids that are not plain names: nothing outside the data directory is read', async () => {
    // Plain '..' segments are resolved by the URL parser before routing: they never reach a handler.
    assert.equal((await rawGet('api/runs/..')).status, 404);
    assert.equal((await rawGet('api/runs/a/tasks/../../../../etc')).status, 404);
    assert.equal((await rawGet('api/runs/%2e%2e')).status, 404);
    for (const path of [
      'api/runs/..%2f..%2fetc',
      'api/runs/%2fetc%2fpasswd',
      'api/runs/a%2f..%2f..%2fruns',
      'api/runs/.hidden',
      'api/runs/..%2fa/tasks',
      'api/runs/a/tasks/..%2f..%2fpolicy.json',
      'api/runs/a/tasks/..%2f',
      'api/runs/a/events/x/y',
      'api/runs/%E0%A4%A',
    ]) {
      const r = await rawGet(path);
      assert.equal(r.status, 400, path);
      assert.match(r.body, /error/, path);
    }
    assert.equal((await get('api/runs/a')).status, 200, 'a plain name still works');
  });

  it('lists runs with status and progress: stopped with its reason, running while its process lives, interrupted when it died', async () => {
    const runs = (await json('api/runs')) as { name: string; status: string; stop: string | null; attempts: number; step: number }[];
    const by = new Map(runs.map((r) => [r.name, r]));
    assert.equal(by.get('a')!.status, 'stopped');
    assert.equal(by.get('a')!.stop, 'steps');
    assert.equal(by.get('a')!.attempts, 4);
    assert.equal(by.get('b')!.status, 'running', 'its row names this live process');
    f.store.db.prepare("UPDATE runs SET pid = 2147483646 WHERE name = 'b'").run();
    const again = (await json('api/runs')) as { name: string; status: string }[];
    assert.equal(again.find((r) => r.name === 'b')!.status, 'interrupted');
  });

  it("serves a run's series: steps with time, cumulative yield, the pool histogram and knobs", async () => {
    const s = (await json('api/runs/a')) as {
      steps: { minutes: number; yield: { candidates: number }; poolHistogram: number[]; knobs: Record<string, number> }[];
    };
    assert.deepEqual(
      s.steps.map((x) => x.minutes),
      [1, 2],
    );
    assert.deepEqual(
      s.steps.map((x) => x.yield.candidates),
      [4, 8],
    );
    assert.equal(s.steps[1]!.poolHistogram[2], 1);
    assert.equal(Object.values(s.steps[1]!.knobs)[0], 0.2);
  });

  it('filters tasks by environment, generator, operator and pass rate', async () => {
    type List = { tasks: { taskId: string; passRate: number; passed: number; scored: number }[]; facets: { operators: string[] } };
    const all = (await json('api/runs/a/tasks')) as List;
    assert.equal(all.tasks.length, 1);
    assert.deepEqual(all.tasks[0]!.passed, 2);
    assert.deepEqual(all.facets.operators, ['op_change']);
    assert.equal(((await json('api/runs/a/tasks?operator=op_change&strategy=procedural')) as List).tasks.length, 1);
    assert.equal(((await json('api/runs/a/tasks?operator=other')) as List).tasks.length, 0);
    assert.equal(((await json('api/runs/a/tasks?min=0.6')) as List).tasks.length, 0, 'pass rate 0.5 is below 0.6');
    assert.equal(((await json('api/runs/a/tasks?min=0.5&max=0.5')) as List).tasks.length, 1);
    assert.equal(((await json(`api/runs/a/tasks?env=${f.task.env.name}`)) as List).tasks.length, 1);
  });

  it('serves a task with its instruction, bug and tests, and an attempt with its trajectory', async () => {
    const t = (await json(`api/runs/a/tasks/${encodeURIComponent(f.task.id)}`)) as {
      instruction: string;
      bugPatch: string;
      tests: { FAIL_TO_PASS: string[] };
      attemptList: { id: number }[];
    };
    assert.equal(t.instruction, f.task.instruction);
    assert.equal(t.bugPatch, f.task.bugPatch);
    assert.deepEqual(t.tests.FAIL_TO_PASS, f.task.FAIL_TO_PASS);
    assert.equal(t.attemptList.length, 4);
    const a = (await json(`api/attempts/${t.attemptList[0]!.id}`)) as { artifact: unknown };
    assert.deepEqual(a.artifact, artifact(f.task.id));
  });

  it('streams an update when a step lands or the run stops', async () => {
    const ctrl = new AbortController();
    const res = await fetch(`${url}api/runs/a/events`, { signal: ctrl.signal });
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const reader = res.body!.getReader();
    const next = async () => new TextDecoder().decode((await reader.read()).value);
    assert.match(await next(), /^event: update/);
    f.store.addTrainMetrics('a', 3, { step: 3, rollouts: 9, meanReward: 1 });
    assert.match(await next(), /^event: update/);
    f.log.runProgress('a', { step: 3, rollouts: 9 }, 'budget');
    assert.match(await next(), /^event: update/);
    ctrl.abort();
  });
});

describe('frognano serve options', () => {
  it('warns when bound beyond loopback, and names the fix when the port is taken', async () => {
    const f = await fixtureStore();
    const err: string[] = [];
    const ctx = { positionals: [], flags: { host: '0.0.0.0', port: '0' }, out: () => {}, err: (l: string) => err.push(l) };
    const dash = await startDashboard(ctx, f.store, f.dir);
    assert.match(err.join('\n'), /WARNING: the dashboard binds 0\.0\.0\.0: anyone who can reach it can read/);
    const port = new URL(
      err
        .find((l) => l.startsWith('dashboard: '))!
        .slice('dashboard: '.length)
        .replace('0.0.0.0', '127.0.0.1'),
    ).port;
    await assert.rejects(startDashboard({ ...ctx, flags: { host: '0.0.0.0', port } }, f.store, f.dir), /port \d+ on 0\.0\.0\.0 is in use/);
    await dash.close();
    f.store.close();
  });
});
