// eval's --predictions and --trajectories, and `frognano traj export` from
// those files and from a run's attempts in the store: every format read back
// by our importers, mini's submission the attempt's diff, and the
// predictions in SWE-bench's shape with a patch that fixes the task.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fromAtif, fromMiniSweAgent, fromOpenAIJsonl } from '../../src/agent/export.js';
import { loadTrajectory } from '../../src/agent/trajectory.js';
import { AttemptLog } from '../../src/store/attempts.js';
import { Store } from '../../src/store/store.js';
import { writeTask } from '../../src/task/io.js';
import { sampleTrajectory } from '../agent/fixtures.js';
import { runCli } from '../helpers/cli.js';
import { toyTask, type ToyTask } from '../helpers/task.js';
import { tempDir } from '../helpers/workspace.js';

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe('eval --predictions and traj export', () => {
  let toy: ToyTask;
  let traj: string;
  let preds: string;
  before(async () => {
    toy = await toyTask('javascript');
    const env = toy.built.env;
    writeFileSync(join(env.baseDir, 'environment.json'), JSON.stringify(env.spec, null, 2));
    assert.equal((await runCli(['env', 'add', env.baseDir, '--data-dir', toy.dataDir])).code, 0);
    const tasks = tempDir('fn-trajtasks-');
    writeTask(tasks, toy.task);
    traj = tempDir('fn-traj-');
    preds = join(tempDir('fn-preds-'), 'preds.jsonl');
    const r = await runCli([
      'eval',
      '--tasks',
      tasks,
      '--model',
      'scripted:oracle',
      '--data-dir',
      toy.dataDir,
      '--trajectories',
      traj,
      '--predictions',
      preds,
      '--n',
      '2',
    ]);
    assert.equal(r.code, 0, r.err);
  });

  it('writes SWE-bench predictions per attempt, the patch without test files', () => {
    for (const file of [preds, preds.replace('.jsonl', '.attempt-1.jsonl')]) {
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      assert.equal(lines.length, 1);
      const p = JSON.parse(lines[0]!) as Record<string, string>;
      assert.deepEqual(Object.keys(p).sort(), ['instance_id', 'model_name_or_path', 'model_patch']);
      assert.equal(p.instance_id, toy.task.id);
      assert.equal(p.model_name_or_path, 'scripted:oracle');
      assert.match(p.model_patch!, /^diff --git a\/src\/math\.js/);
      assert.match(p.model_patch!, /^\+ {2}return a \+ b;$/m);
    }
  });

  it('exports eval trajectories as mini-swe-agent files with the diff as submission, ATIF and OpenAI JSONL', async () => {
    const file = join(traj, toy.task.id, 'attempt-0.jsonl');
    const diff = readFileSync(file.replace('.jsonl', '.diff'), 'utf8');
    const original = loadTrajectory(file);
    const mini = tempDir('fn-mini-');
    assert.equal((await runCli(['traj', 'export', '--from', traj, '--format', 'mini', '--out', mini])).code, 0);
    const m = readJson(join(mini, toy.task.id, 'attempt-0.traj.json'));
    const back = fromMiniSweAgent(m as Parameters<typeof fromMiniSweAgent>[0]);
    assert.equal(back.submission, diff);
    assert.deepEqual(back.messages, original.messages);
    const atif = tempDir('fn-atif-');
    assert.equal((await runCli(['traj', 'export', '--from', traj, '--format', 'atif', '--out', atif])).code, 0);
    assert.equal(fromAtif(readJson(join(atif, toy.task.id, 'attempt-1.json')) as Parameters<typeof fromAtif>[0]).length, original.messages.length);
    const jsonl = join(tempDir('fn-oai-'), 'all.jsonl');
    assert.equal((await runCli(['traj', 'export', '--from', traj, '--format', 'openai', '--out', jsonl])).code, 0);
    assert.equal(fromOpenAIJsonl(readFileSync(jsonl, 'utf8')).length, 2);
    // Without --out, beside the folder read, and the path is printed.
    const beside = await runCli(['traj', 'export', '--from', traj, '--format', 'atif']);
    assert.equal(beside.code, 0, beside.err);
    assert.equal(beside.out, `exported 2 trajectories as atif to ${traj}-atif`);
    assert.ok(existsSync(join(`${traj}-atif`, toy.task.id, 'attempt-0.json')));
    const kind = await runCli(['traj', 'export', '--from', traj, '--format', 'atif', '--kind', 'eval']);
    assert.equal(kind.code, 2);
    assert.match(kind.err, /the files of --from have no kind/);
  });

  it("exports a run's stored attempts, counting the pruned ones", async () => {
    const data = tempDir('fn-trajstore-');
    const store = new Store(data);
    const log = new AttemptLog(store, data);
    const row = {
      run: 'r1',
      step: 1,
      kind: 'train' as const,
      taskId: 'calc.add-1',
      policyVersion: 0,
      reward: 1,
      verdict: 'pass',
      cause: null,
      stopReason: 'submitted',
      turns: 3,
      tokens: null,
      ms: 5,
      verifyMs: 1,
      cached: false,
      reason: null,
    };
    log.record(row, { schema: 'frognano.attempt/v1', taskId: 'calc.add-1', trajectory: sampleTrajectory(), change: 'diff --git a/calc.py b/calc.py\n' });
    log.record({ ...row, kind: 'probe' }, { schema: 'frognano.attempt/v1', taskId: 'calc.add-1', trajectory: sampleTrajectory() });
    store.db.prepare("UPDATE attempts SET artifact = NULL WHERE kind = 'probe'").run();
    store.close();
    const out = tempDir('fn-trajrun-');
    const r = await runCli(['traj', 'export', '--run', 'r1', '--format', 'mini', '--out', out, '--data-dir', data]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /1 of 2 attempts had their trajectories pruned/);
    const m = readJson(join(out, 'calc.add-1', 'train-1.traj.json')) as { info: { submission: string } };
    assert.equal(m.info.submission, 'diff --git a/calc.py b/calc.py\n');
    // Without --out, into the run's own folder; with --kind, a folder of that kind.
    const probe = await runCli(['traj', 'export', '--run', 'r1', '--kind', 'train', '--format', 'atif', '--data-dir', data]);
    assert.equal(probe.code, 0, probe.err);
    assert.equal(probe.out, `exported 1 trajectories as atif to ${join(data, 'runs', 'r1', 'export', 'atif-train')}`);
    assert.ok(existsSync(join(data, 'runs', 'r1', 'export', 'atif-train', 'calc.add-1', 'train-1.json')));
    const none = await runCli(['traj', 'export', '--run', 'nope', '--format', 'atif', '--out', out, '--data-dir', data]);
    assert.equal(none.code, 2);
    assert.match(none.err, /no attempts of run "nope"/);
    assert.equal(existsSync(join(out, 'nope')), false);
  });

  it('exports the run "default" by default, and says how to get one when there is none', async () => {
    const data = tempDir('fn-trajdefault-');
    const missing = await runCli(['traj', 'export', '--format', 'openai', '--data-dir', data]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /no attempts of run "default"/);
    assert.match(missing.err, /fix: train one first \(frognano train\), or pass --run NAME .* or --from DIR/);
    const store = new Store(data);
    const row = {
      run: 'default',
      step: 1,
      kind: 'train' as const,
      taskId: 't-1',
      policyVersion: 0,
      reward: 0,
      verdict: 'fail',
      cause: null,
      stopReason: 'submitted',
    };
    new AttemptLog(store, data).record(
      { ...row, turns: 1, tokens: null, ms: 1, verifyMs: 1, cached: false, reason: null },
      { schema: 'frognano.attempt/v1', taskId: 't-1', trajectory: sampleTrajectory() },
    );
    store.close();
    const r = await runCli(['traj', 'export', '--format', 'openai', '--data-dir', data]);
    assert.equal(r.code, 0, r.err);
    const file = join(data, 'runs', 'default', 'export', 'openai.jsonl');
    assert.equal(r.out, `exported 1 trajectories as openai to ${file}`);
    assert.equal(fromOpenAIJsonl(readFileSync(file, 'utf8')).length, 1);
    assert.match((await runCli(['traj', '--help'])).out, /from a run: +OUT\/<task>\/<kind>-<attempt id>\.json \(atif\) or \.traj\.json \(mini\)/);
  });
});
