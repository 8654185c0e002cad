// End to end: `train` with the Tinker learner against the dev server. The
// tiny token model is first warmed up by supervised steps through the same
// API to write the toy's one Write call with a random operator (about a third
// right); RL must then raise the share of passing rollouts. Real parts all
// the way: the HTTP server on loopback, the sandboxed workspaces, TaskPilot's
// tasks, the verifier, the frontier curriculum.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TinkerLearner, type TinkerLearnerState } from '../../src/lm/learner.js';
import { selectRuntime } from '../../src/runtime/select.js';
import type { TinkerDevServer } from '../../src/tinker-dev/server.js';
import { ChatCodec } from '../../src/tokens/codec.js';
import { writeTinyModelFolder } from '../../src/tokens/tiny-folder.js';
import { TRAIN_DEFAULTS, type TrainConfig } from '../../src/train/config.js';
import { loadState } from '../../src/train/state.js';
import { train, type StepMetrics, type TrainEvent } from '../../src/train/trainer.js';
import { toyEnv, toyLearner, warmDevServer } from '../helpers/lm-toy.js';
import { tempDir } from '../helpers/workspace.js';

const root = tempDir('fn-lm-train-');
const codec = ChatCodec.load(writeTinyModelFolder(join(root, 'tokenizer')));
const env = toyEnv();
const envs = new Map([[env.spec.name, env]]);
const runtime = selectRuntime({ warn: () => {} });
const STEPS = 8;
/** The mean reward of the last three steps must beat the first three's by this much on every seed. */
const MARGIN = 0.2;

let server: TinkerDevServer;
let warm: string;

const logs: string[] = [];

function learner(run: string, seed: number): TinkerLearner {
  return toyLearner(server.url, codec, warm, { run, seed, log: (line) => logs.push(`${run}: ${line}`) });
}

function config(seed: number, steps: number): TrainConfig {
  return {
    ...TRAIN_DEFAULTS,
    learner: 'tinker',
    envs: [env.spec.name],
    heldOut: [],
    evalTasks: 0,
    seed,
    steps,
    budget: 400,
    batch: 2,
    group: 8,
    timeLimitMin: 0,
    workers: 2,
  };
}

async function run(name: string, seed: number, steps: number, events: TrainEvent[] = []): Promise<{ metrics: StepMetrics[]; learner: TinkerLearner }> {
  const l = learner(name, seed);
  const metrics: StepMetrics[] = [];
  await train(config(seed, steps), {
    envs,
    runtime,
    dataDir: join(root, 'data'),
    runDir: join(root, 'runs', name),
    bankDir: join(root, 'bank'),
    runName: name,
    learner: l,
    onEvent: (e) => {
      events.push(e);
      if (e.kind === 'step') metrics.push(e.metrics);
    },
  });
  l.close();
  return { metrics, learner: l };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('train --learner tinker against the dev server, on a toy task', () => {
  before(async () => {
    ({ server, warm } = await warmDevServer(codec, join(root, 'checkpoints')));
  });
  after(() => server?.close());

  for (const seed of [1, 2, 3]) {
    it(`raises the mean reward by at least ${MARGIN} from the first three steps to the last three (seed ${seed})`, async (t) => {
      const { metrics, learner: l } = await run(`seed-${seed}`, seed, STEPS);
      assert.equal(metrics.length, STEPS);
      const rewards = metrics.map((m) => m.meanReward);
      const gain = mean(rewards.slice(-3)) - mean(rewards.slice(0, 3));
      t.diagnostic(`seed ${seed}: rewards by step ${rewards.map((r) => r.toFixed(2)).join(' ')}, gain ${gain.toFixed(2)}`);
      assert.ok(gain >= MARGIN, `rewards by step ${rewards.map((r) => r.toFixed(2)).join(' ')}: gain ${gain.toFixed(2)} < ${MARGIN}`);
      // Every step reports its tokens, and rollouts act with the version the learner holds.
      for (const m of metrics) {
        // A step whose tasks were all replay checks that held ran no group.
        if (m.groups + m.probeGroups > 0)
          assert.ok(m.learner && m.learner.tokens! > 0 && m.learner.sampledTokens! > 0, `token figures in step ${m.step}: ${JSON.stringify(m.learner)}`);
        assert.equal(m.infraFailures, 0);
        assert.equal(m.stale, undefined);
      }
      const state = l.save();
      assert.equal(state.version, metrics.filter((m) => (m.learner?.datums ?? 0) > 0).length, 'one optimizer step per step that had something to learn');
      assert.match(state.checkpoint ?? '', new RegExp(`/weights/seed-${seed}-v${state.version}$`));
    });
  }

  it('resumes a stopped run from its last checkpoint, weights and optimizer', async () => {
    const first = await run('resumed', 7, 2);
    const saved = loadState(join(root, 'runs', 'resumed'))!.learner;
    assert.equal(saved.kind, 'tinker');
    const before = saved.state as TinkerLearnerState;
    assert.equal(before.version, first.learner.save().version);
    const events: TrainEvent[] = [];
    const second = await run('resumed', 7, 4, events);
    assert.ok(events.some((e) => e.kind === 'resume' && e.step === 2));
    assert.equal(second.metrics[0]?.step, 3, 'the resumed run continues after step 2');
    assert.ok(logs.includes(`resumed: loaded ${before.checkpoint} (weights and optimizer)`), `the checkpoint was loaded: ${logs.join('; ')}`);
    const after = second.learner.save();
    assert.ok(after.version >= before.version, 'versions continue from the checkpoint');
    const lines = readFileSync(join(root, 'runs', 'resumed', 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n');
    assert.equal(lines.length, 4, 'no step lost or repeated');
  });
});
