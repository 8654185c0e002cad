// Attempts kept in the store: rows and gzipped artifacts, the disk budget
// (oldest files go, rows stay), and `frognano gc` pruning runs and files.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { artifactBytes, AttemptLog } from '../../src/store/attempts.js';
import { TaskQueries } from '../../src/serve/tasks.js';
import { Store } from '../../src/store/store.js';
import { acquireLock } from '../../src/util/lock.js';
import { runCli } from '../helpers/cli.js';
import { addRun, artifact, attemptRow, fixtureStore } from '../helpers/serve-store.js';

const gc = (dir: string, args: string[], answer?: string) => runCli(['gc', '--data-dir', dir, ...args], answer === undefined ? {} : { answer });

/** A store holding one finished run of `attempts` attempts, closed for the command to open it. */
async function finishedRun(name: string, attempts: number) {
  const f = await fixtureStore();
  addRun(f, name, attempts);
  f.log.runProgress(name, { step: 2, rollouts: 3 * attempts }, 'steps');
  f.store.close();
  return f;
}

describe('attempts in the store', () => {
  it('keeps each attempt as a row and a gzipped artifact that reads back whole', async () => {
    const f = await fixtureStore();
    const [id] = addRun(f, 'a', 1);
    const view = new TaskQueries(f.store, f.dir).attempt(id!)!;
    assert.equal(view.pruned, false);
    assert.ok(view.bytes > 0 && view.bytes < JSON.stringify(artifact(f.task.id)).length, 'compressed');
    assert.deepEqual(view.artifact, artifact(f.task.id));
    assert.equal(view.verdict, 'pass');
    assert.equal(view.kind, 'train');
  });

  it('holds the files within the disk budget: the oldest go first, every row stays', async () => {
    const f = await fixtureStore();
    // Incompressible output, so each file is about 3 KB.
    const noise = (i: number) => Array.from({ length: 400 }, (_, k) => ((k * 7919 + i * 104729) % 1000003).toString(36)).join(' ');
    const log = new AttemptLog(f.store, f.dir, 10 / 1024); // 10 KiB
    const ids = Array.from({ length: 8 }, (_, i) => log.record(attemptRow('a', f.task.id), artifact(f.task.id, noise(i))));
    assert.ok(artifactBytes(f.store) <= 10 * 1024, `${artifactBytes(f.store)} bytes kept`);
    const q = new TaskQueries(f.store, f.dir);
    const views = ids.map((id) => q.attempt(id)!);
    assert.equal(views.length, 8, 'every row stays');
    const pruned = views.map((v) => v.pruned);
    assert.ok(pruned[0] && !pruned[7], `oldest pruned, newest kept: ${pruned.join(',')}`);
    assert.equal(pruned.indexOf(false), pruned.lastIndexOf(true) + 1, 'a prefix is pruned');
    assert.equal(views[0]!.artifact, null);
    assert.equal(existsSync(join(f.dir, 'attempts', 'a', `${ids[0]}.json.gz`)), false);
    assert.equal(views[0]!.reward, 1, 'the outcome stays');
  });
});

describe('frognano gc', () => {
  it('lists each run with its bytes per rollout and, dry, removes nothing', async () => {
    const f = await fixtureStore();
    addRun(f, 'old', 3);
    addRun(f, 'new', 2);
    f.log.runProgress('old', { step: 2, rollouts: 6 }, 'steps');
    f.log.runProgress('new', { step: 2, rollouts: 6 }, 'steps');
    f.store.close();
    const res = await gc(f.dir, ['--keep-runs', '1', '--dry-run']);
    assert.equal(res.code, 0, res.err);
    assert.match(res.out, /old\s+stopped\s+3\s+3\s+[\d.]+ MiB\s+[\d.]+ KiB\s+would prune \(checkpoint kept\)/);
    assert.match(res.out, /new\s+stopped\s+2\s+2/);
    const store = new Store(f.dir);
    assert.deepEqual(store.db.prepare('SELECT COUNT(*) AS n FROM attempts').get(), { n: 5 });
    store.close();
  });

  it('removes a named run or all but the most recent, never a running one', async () => {
    const f = await fixtureStore();
    addRun(f, 'first', 2);
    addRun(f, 'second', 2);
    addRun(f, 'third', 2);
    f.log.runProgress('first', { step: 2, rollouts: 6 }, 'steps');
    f.log.runProgress('third', { step: 2, rollouts: 6 }, 'steps');
    // 'second' stays marked running by this (live) process.
    f.store.close();
    const named = await gc(f.dir, ['--run', 'first', '--yes']);
    assert.equal(named.code, 0, named.err);
    assert.equal(existsSync(join(f.dir, 'attempts', 'first')), false);
    const rest = await gc(f.dir, ['--keep-runs', '0', '--yes']);
    assert.match(rest.err, /run second is in use \(training now\): kept/);
    const store = new Store(f.dir);
    const runs = store.db.prepare<[], { run: string }>('SELECT DISTINCT run FROM attempts ORDER BY run').all();
    assert.deepEqual(
      runs.map((r) => r.run),
      ['second'],
    );
    store.close();
    assert.match((await gc(f.dir, ['--run', 'nope'])).err, /no run named nope/);
  });

  it('prunes trajectory files to --keep-mb, keeping outcomes', async () => {
    const f = await fixtureStore();
    addRun(f, 'a', 4);
    f.store.close();
    const res = await gc(f.dir, ['--keep-mb', '0']);
    assert.equal(res.code, 0, res.err);
    assert.match(res.out, /trajectory files left 0\.0 MiB/);
    const store = new Store(f.dir);
    assert.deepEqual(store.db.prepare('SELECT COUNT(*) AS n, COUNT(artifact) AS files FROM attempts').get(), { n: 4, files: 0 });
    store.close();
  });

  it('asks before removing a run, refuses without a terminal unless --yes, and removes nothing on no', async () => {
    const f = await finishedRun('only', 2);
    const piped = await gc(f.dir, ['--keep-runs', '0']);
    assert.equal(piped.code, 2);
    assert.match(piped.err, /gc would remove runs: only \(all but its checkpoint\)\n {2}fix: pass --yes/);
    const no = await gc(f.dir, ['--run', 'only'], 'n');
    assert.equal(no.code, 1);
    assert.match(no.asked[0]!, /remove this run: only \(whole\)\? \[y\/N\]/);
    assert.match(no.out, /only\s+stopped\s+2\s+2\s+[\d.]+ MiB\s+[\d.]+ KiB\s+remove/, 'the table shows what would go before the question');
    assert.equal(existsSync(join(f.dir, 'attempts', 'only')), true, 'nothing removed on no');
    const yes = await gc(f.dir, ['--run', 'only'], 'y');
    assert.equal(yes.code, 0, yes.err);
    assert.match(yes.out, /runs: only removed/);
    assert.equal(existsSync(join(f.dir, 'attempts', 'only')), false);
  });

  it('prunes runs past --keep-runs to their checkpoint, state, metrics and reports', async () => {
    const f = await finishedRun('old', 2);
    const runDir = join(f.dir, 'runs', 'old');
    mkdirSync(join(runDir, 'tasks', 't1'), { recursive: true });
    mkdirSync(join(runDir, 'evals'), { recursive: true });
    writeFileSync(join(runDir, 'evals', 'report.json'), '{}\n');
    for (const name of ['policy.json', 'metrics.jsonl', 'difficulty.jsonl']) writeFileSync(join(runDir, name), '{}\n');
    const res = await gc(f.dir, ['--keep-runs', '0', '--yes']);
    assert.equal(res.code, 0, res.err);
    assert.match(res.out, /runs: old pruned/);
    assert.deepEqual(
      readdirSync(runDir).sort(),
      ['difficulty.jsonl', 'evals', 'metrics.jsonl', 'policy.json'],
      'the task bank goes; checkpoint, metrics and reports stay',
    );
    assert.equal(existsSync(join(f.dir, 'attempts', 'old')), false);
  });

  it('refuses to remove a run whose lock a live process holds, naming it', async () => {
    const f = await finishedRun('busy', 1);
    const runDir = join(f.dir, 'runs', 'busy');
    mkdirSync(runDir, { recursive: true });
    const lock = acquireLock(runDir, 'run "busy"', 'frognano train --run busy');
    try {
      const res = await gc(f.dir, ['--run', 'busy', '--yes']);
      assert.equal(res.code, 1);
      assert.match(res.err, new RegExp(`run "busy" is in use by "frognano train --run busy" \\(pid ${process.pid} on ${hostname()}, since `));
      assert.equal(existsSync(join(f.dir, 'attempts', 'busy')), true);
    } finally {
      lock.release();
    }
  });
});
