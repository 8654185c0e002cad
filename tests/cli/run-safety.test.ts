// `frognano train` as people use it: started twice on one run, stopped with
// Ctrl-C (the step in flight finishes) or SIGTERM twice (stopped at once),
// resumed, left with a stale lock, resumed with another setting, and with a
// damaged metrics line. Real child processes on two tiny environments.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadState } from '../../src/train/state.js';
import { processAlive } from '../../src/util/process.js';
import { acquireLock, LOCK_FILE } from '../../src/util/lock.js';
import { addChecked, runCli } from '../helpers/cli.js';
import { killLeftovers, spawnCli } from '../helpers/cli-lm.js';
import { tinyTrainEnvs } from '../helpers/train-env.js';
import { tempDir } from '../helpers/workspace.js';

const data = tempDir('fn-safety-');
const runDir = join(data, 'runs', 'safe');
const ARGS = ['train', '--data-dir', data, '--run', 'safe', '--envs', 'tiny-stats', '--held-out', 'tiny-text'];
const SMALL = [
  '--steps',
  '6',
  '--batch',
  '2',
  '--group',
  '2',
  '--eval-tasks',
  '2',
  '--eval-attempts',
  '1',
  '--budget',
  '300',
  '--time-limit',
  '0',
  '--workers',
  '1',
];
/** SMALL with one flag's value replaced. */
const small = (flag: string, value: string) => SMALL.map((a, i) => (SMALL[i - 1] === flag ? value : a));
const stepsIn = (file: string) =>
  readFileSync(join(runDir, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { step: number }).step);

describe('train: one writer per run, and a clean stop on Ctrl-C or SIGTERM', () => {
  before(async () => {
    for (const env of tinyTrainEnvs().values()) {
      writeFileSync(join(env.baseDir, 'environment.json'), JSON.stringify(env.spec));
      await addChecked(env.baseDir, data);
    }
  });
  after(killLeftovers);

  it('refuses a second train on the run in use, naming the holder; Ctrl-C finishes the step in flight and says how to go on', async () => {
    const first = spawnCli([...ARGS, ...SMALL], { group: true });
    await first.waitFor('stderr', /^step 2\/6: /m, 180_000);
    const second = await runCli([...ARGS, ...SMALL]);
    assert.equal(second.code, 1, second.err);
    assert.match(
      second.err,
      new RegExp(`run "safe" is in use by "frognano train --data-dir \\S+ --run safe .*" \\(pid ${first.child.pid} on ${hostname()}, since [\\d-]+ [\\d:]+\\)`),
    );
    assert.doesNotMatch(second.err, /^\s+at /m, 'no stack trace');
    // Read-only commands never wait on a run's lock.
    const listed = await runCli(['gc', '--data-dir', data, '--dry-run']);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /^safe\s+running\s/m);
    // As a terminal's Ctrl-C: to the whole process group, the process helper included, which must live on to finish the step.
    const helper = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(first.child.pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter((l) => l.includes('start(JSON.parse(line))')) // the helper's own source (src/util/spawner.ts)
      .map((l) => Number(l.trim().split(/\s+/)[0]))[0];
    process.kill(-first.child.pid!, 'SIGINT');
    await first.waitFor(
      'stderr',
      /SIGINT: finishing step 2, then saving and stopping \(Ctrl-C again to stop at once: run "safe" is saved after step 1/,
      10_000,
    );
    assert.ok(helper, 'the CLI runs its processes through the helper');
    await new Promise((r) => setTimeout(r, 300));
    // Once the command has ended (a signal near the step's end), its helper ends with it, rightly.
    if (first.child.exitCode === null) assert.equal(processAlive(helper), true, 'the process helper outlives the Ctrl-C');
    const end = await first.exited(180_000);
    assert.equal(end.code, 130, first.stderr());
    assert.match(
      first.stdout(),
      /stopped on request \(Ctrl-C or SIGTERM\) after 2 steps of 6, \d+ of 300 rollouts: every finished step is saved; run the same command again/,
    );
    assert.equal(loadState(runDir)?.step, 2);
    assert.deepEqual(stepsIn('metrics.jsonl'), [1, 2]);
    assert.doesNotMatch(first.stderr().match(/^step 2: .*$/m)?.[0] ?? '', /infrastructure failures/, 'the finished step ran whole');
    assert.equal(existsSync(join(runDir, LOCK_FILE)), false, 'the lock is released');
  });

  it('SIGTERM twice stops at once: the step in flight is lost, the saved ones are kept, and the run resumes after them', async () => {
    const again = spawnCli([...ARGS, ...SMALL]);
    await again.waitFor('stderr', /resuming run "safe" after step 2/, 60_000);
    await again.waitFor('stderr', /^step 3\/6: /m, 180_000);
    again.child.kill('SIGTERM');
    await again.waitFor('stderr', /SIGTERM: finishing step 3/, 10_000);
    again.child.kill('SIGTERM');
    await again.waitFor(
      'stderr',
      /SIGTERM: stopping now; step 3 is abandoned; run "safe" is saved after step 2 \(.*\); to continue: frognano train --data-dir/,
      10_000,
    );
    const end = await again.exited(30_000);
    assert.equal(end.code, 143, again.stderr());
    assert.equal(loadState(runDir)?.step, 2);
    assert.equal(existsSync(join(runDir, LOCK_FILE)), false, 'the lock goes with the process');
  });

  it('takes over a lock whose holder died, and says so', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(runDir, LOCK_FILE), JSON.stringify({ pid: dead, host: hostname(), command: 'frognano train', since: '2026-12-01 10:00:00' }));
    // --steps 2: the two saved steps are all it asks for, so it stops at once.
    const res = await runCli([...ARGS, ...small('--steps', '2')]);
    assert.equal(res.code, 0, res.err);
    assert.match(res.err, new RegExp(`run "safe": took over a stale lock \\(its holder, pid ${dead}, is no longer running; it was held by "frognano train"`));
    assert.match(res.out, /finished all 2 steps/);
  });

  it('names the setting that differs when a resume is refused', async () => {
    const res = await runCli([...ARGS, ...small('--group', '3')]);
    assert.equal(res.code, 2);
    assert.match(res.err, /run "safe" exists with other settings: --group was 2, now 3\n/);
  });

  it('refuses a damaged metrics line with its number, and drops a line cut off mid-write', async () => {
    const path = join(runDir, 'metrics.jsonl');
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    writeFileSync(path, `${lines[0]}\nnot a record\n${lines[1]}\n`);
    const damaged = await runCli([...ARGS, ...SMALL]);
    assert.equal(damaged.code, 1);
    assert.match(damaged.err, /metrics\.jsonl line 2 is not a JSON object: "not a record"\n {2}fix: remove or correct that line/);
    writeFileSync(path, `${lines[0]}\n${lines[1]}\n{"step":3,"meanRew`);
    const cut = await runCli([...ARGS, ...small('--steps', '2')]);
    assert.equal(cut.code, 0, cut.err);
    assert.match(cut.err, /metrics\.jsonl: dropped line 3, cut off mid-write/);
    assert.deepEqual(stepsIn('metrics.jsonl'), [1, 2]);
  });

  it('refuses an evidence run on an output folder another process is filling', async () => {
    const out = tempDir('fn-evidence-out-');
    const lock = acquireLock(out, `evidence output ${out}`, 'frognano evidence run --protocol reduced');
    try {
      const res = await runCli(['evidence', 'run', '--protocol', 'reduced', '--data-dir', data, '--out', out]);
      assert.equal(res.code, 1);
      assert.match(res.err, new RegExp(`evidence output ${out} is in use by "frognano evidence run --protocol reduced" \\(pid ${process.pid} on `));
    } finally {
      lock.release();
    }
  });
});
