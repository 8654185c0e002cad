import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultWorkers } from '../../src/util/machine.js';
import { trainConfig } from '../../src/cli/train.js';
import { TRAIN_DEFAULTS } from '../../src/train/config.js';
import { UserError } from '../../src/util/errors.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/workspace.js';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { LinearPolicy, type PolicyCheckpoint } from '../../src/policy/linear.js';
import { EmbeddedLearner } from '../../src/policy/learner.js';
import type { TrainConfig } from '../../src/train/config.js';
import { loadState, saveState, STATE_SCHEMA } from '../../src/train/state.js';
import { runState } from '../helpers/run-state.js';

describe('frognano train options', () => {
  it('defaults to the frontier curriculum on the JavaScript starters with one held out', () => {
    const said: string[] = [];
    const cfg = trainConfig({}, (l) => said.push(l));
    assert.deepEqual({ ...cfg, workers: TRAIN_DEFAULTS.workers }, TRAIN_DEFAULTS);
    // Workers come from the machine, and the run says how many.
    assert.equal(cfg.workers, defaultWorkers());
    assert.match(said.join('\n'), new RegExp(`^workers: ${cfg.workers} \\(from \\d+ cores?, [\\d.]+ GiB memory; --workers to change\\)$`, 'm'));
    assert.equal(cfg.curriculum, 'frontier');
    assert.ok(cfg.heldOut.every((e) => !cfg.envs.includes(e)));
  });

  it('reads every flag', () => {
    const cfg = trainConfig({
      curriculum: 'static',
      envs: 'a,b',
      'held-out': 'c',
      steps: '3',
      budget: '50',
      batch: '2',
      group: '3',
      advantage: 'grpo',
      credit: 'attempt',
      lr: '0.1',
      'eval-tasks': '4',
      'eval-every': '2',
      'time-limit': '0',
      target: '0.4',
      families: 'operations,control',
      extend: '8',
      track: 'all',
    });
    assert.deepEqual(
      [
        cfg.curriculum,
        cfg.envs,
        cfg.heldOut,
        cfg.steps,
        cfg.budget,
        cfg.batch,
        cfg.group,
        cfg.advantage,
        cfg.credit,
        cfg.lr,
        cfg.evalTasks,
        cfg.evalEvery,
        cfg.timeLimitMin,
        cfg.target,
        cfg.families,
        cfg.extend,
        cfg.track,
      ],
      ['static', ['a', 'b'], ['c'], 3, 50, 2, 3, 'grpo', 'attempt', 0.1, 4, 2, 0, 0.4, ['operations', 'control'], 8, 'all'],
    );
  });

  it('reads the evidence flags: --ablate (frontier only), --eval-attempts, --forgetting', () => {
    const cfg = trainConfig({ ablate: 'probe,replay', 'eval-attempts': '4', forgetting: '8' });
    assert.deepEqual([cfg.ablate, cfg.evalRollouts, cfg.forgetting], [['probe', 'replay'], 4, 8]);
    assert.throws(
      () => trainConfig({ ablate: 'probes' }),
      (e: Error) => e instanceof UserError && /unknown --ablate part "probes"/.test(e.message),
    );
    assert.throws(() => trainConfig({ ablate: 'probe', curriculum: 'static' }), /--ablate switches off parts of the frontier curriculum/);
    assert.throws(() => trainConfig({ 'eval-attempts': '0' }), /--eval-attempts must be an integer >= 1/);
  });

  it('refuses bad settings with a clear message', () => {
    assert.throws(
      () => trainConfig({ curriculum: 'random' }),
      (e: Error) => e instanceof UserError && /unknown curriculum "random"/.test(e.message),
    );
    assert.throws(() => trainConfig({ group: '1' }), /at least 2/);
    assert.throws(() => trainConfig({ steps: 'many' }), /--steps must be an integer >= 1, got "many"/);
    assert.throws(() => trainConfig({ batch: '0' }), /--batch must be an integer >= 1/);
    assert.throws(() => trainConfig({ extend: '-1' }), /--extend must be an integer >= 0/);
    assert.throws(
      () => trainConfig({ track: 'some' }),
      (e: Error) => e instanceof UserError && /unknown --track "some"/.test(e.message),
    );
    assert.throws(() => trainConfig({ lr: '' }), /--lr must be a number >= 0/);
    assert.throws(() => trainConfig({ target: '1' }), /--target must be a pass rate strictly between 0 and 1/);
    assert.throws(() => trainConfig({ credit: 'token' }), /unknown credit "token"/);
    assert.throws(() => trainConfig({ envs: 'durations,md-tokens', 'held-out': 'md-tokens' }), /md-tokens cannot be both trained on and held out/);
    assert.throws(() => trainConfig({ advantage: 'ppo' }), /unknown advantage/);
    assert.throws(
      () => trainConfig({ families: 'operations,loops' }),
      (e: Error) => e instanceof UserError && /unknown operator family "loops"/.test(e.message),
    );
  });

  it('names an unknown environment before starting', async () => {
    const { code, err } = await runCli(['train', '--data-dir', tempDir(), '--envs', 'nope', '--held-out', 'md-tokens']);
    assert.equal(code, 2); // a usage error, like every UserError
    assert.match(err, /unknown environment "nope"/);
  });

  it('names operator families that apply to no training environment before starting', async () => {
    const { code, err } = await runCli(['train', '--data-dir', tempDir(), '--envs', 'durations', '--held-out', 'md-tokens', '--families', 'class']);
    assert.equal(code, 2);
    assert.match(err, /no operator family of --families class applies to durations \(javascript\)/);
  });

  it('a run saved before --families existed used every family: resuming it with the default asks for the same settings', async () => {
    const data = tempDir();
    const { families: _, ...old } = trainConfig({ envs: 'durations', 'held-out': 'md-tokens' });
    saveState(join(data, 'runs', 'old'), runState(old as TrainConfig, { groups: { total: 2, degenerate: 1 } }));
    const { code, err } = await runCli(['train', '--data-dir', data, '--run', 'old', '--envs', 'durations', '--held-out', 'md-tokens']);
    assert.equal(code, 2);
    assert.match(err, /run "old" exists with other settings/);
  });

  /** A run state as the previous format (v1) saved it: the embedded policy's checkpoint in place of the learner's state. */
  const saveV1 = (runDir: string, config: TrainConfig, policy: PolicyCheckpoint) => {
    mkdirSync(runDir, { recursive: true });
    writeFileSync(
      join(runDir, 'state.json'),
      JSON.stringify({
        ...runState(config, { step: 2, rolloutsUsed: 32, groups: { total: 4, degenerate: 1 } }),
        schema: 'frognano.train-state/v1',
        learner: undefined,
        policy,
      }),
    );
  };

  it('reads a run saved in the previous state format: the embedded policy becomes its learner state, one version per step', () => {
    const data = tempDir();
    const cfg = trainConfig({ envs: 'durations', 'held-out': 'md-tokens' });
    const policy = new LinearPolicy();
    policy.w[0] = 0.25;
    saveV1(join(data, 'runs', 'v1'), cfg, policy.toJSON());
    const state = loadState(join(data, 'runs', 'v1'))!;
    assert.equal(state.schema, STATE_SCHEMA);
    assert.equal(state.step, 2);
    assert.equal(state.learner.kind, 'embedded-policy');
    const learner = new EmbeddedLearner(cfg);
    learner.restore(state.learner.state);
    assert.equal(learner.linear.w[0], 0.25);
    assert.equal(learner.policy().version, 2);
  });

  it('refuses to resume a run saved by an earlier embedded policy, saying to start it over', async () => {
    const data = tempDir();
    const cfg = trainConfig({ envs: 'durations', 'held-out': 'md-tokens' });
    saveV1(join(data, 'runs', 'old'), cfg, { ...new LinearPolicy().toJSON(), featureVersion: 1 });
    const { code, err } = await runCli(['train', '--data-dir', data, '--run', 'old', '--envs', 'durations', '--held-out', 'md-tokens']);
    assert.equal(code, 2);
    assert.match(err, /run "old" cannot resume: not a checkpoint of this embedded policy version/);
    assert.match(err, /--fresh/);
  });

  it('refuses a run state it cannot read or saved in another format, naming --fresh', async () => {
    for (const [content, message] of [
      [
        '{"schema":"frognano.train-state/v0"}',
        /saved in another format \("frognano\.train-state\/v0"; this version reads frognano\.train-state\/v2 and frognano\.train-state\/v1\)/,
      ],
      ['{"schema": ', /cannot be read/],
    ] as const) {
      const data = tempDir();
      mkdirSync(join(data, 'runs', 'old'), { recursive: true });
      writeFileSync(join(data, 'runs', 'old', 'state.json'), content);
      const { code, err } = await runCli(['train', '--data-dir', data, '--run', 'old']);
      assert.equal(code, 2);
      assert.match(err, message);
      assert.match(err, /fix: pass --fresh/);
    }
  });
});
