// End to end with the dev server: a sampler that loses its logprobs now and
// then (SkyRL's zero fill under load) costs rollouts, never the run and never
// the gradient. The faulty rollouts are retried once with a fresh actor; those
// the retry does not recover are counted as infrastructure failures, keep
// reward and advantage null, and reach no datum.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { groupDatums } from '../../src/lm/datums.js';
import type { Rollout, ScoredGroup, TokenTurn } from '../../src/rl/contract.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { checkSample } from '../../src/sampler/check.js';
import type { Sample, SampleRequest, Sampler } from '../../src/sampler/types.js';
import type { TinkerDevServer } from '../../src/tinker-dev/server.js';
import { ChatCodec } from '../../src/tokens/codec.js';
import { writeTinyModelFolder } from '../../src/tokens/tiny-folder.js';
import { TRAIN_DEFAULTS } from '../../src/train/config.js';
import type { StepMetrics } from '../../src/train/metrics.js';
import { train } from '../../src/train/trainer.js';
import { toyEnv, toyLearner, warmDevServer } from '../helpers/lm-toy.js';
import { tempDir } from '../helpers/workspace.js';

const root = tempDir('fn-lm-infra-');
const codec = ChatCodec.load(writeTinyModelFolder(join(root, 'tokenizer')));
const env = toyEnv();
const STEPS = 3;
const GROUP = 8;

/**
 * Which sample calls (1-based, counted over the whole run) come back zero
 * filled: every 5th, and the one right after every 10th. Rollouts run one at
 * a time (workers 1), so the call after a faulty one is the first call of its
 * retry: a fault at the 10th call is not recovered.
 */
const faulty = (n: number) => n % 5 === 0 || (n % 10 === 1 && n > 1);

/**
 * Scripted fault injection: passes every call through to a real
 * TinkerSampler, but on the chosen calls the real sample comes back with its
 * logprobs all zero, as SkyRL sends them when it lost them under load, and
 * goes through the gate every sampler's output passes (checkSample), which
 * refuses it as a SamplerFault. Counts the calls and the faults it raised.
 */
class ZeroFillingSampler implements Sampler {
  static calls = 0;
  static faults = 0;
  readonly weights: string;
  constructor(private readonly inner: Sampler) {
    this.weights = inner.weights;
  }
  async sample(req: SampleRequest): Promise<Sample> {
    const n = ++ZeroFillingSampler.calls;
    const got = await this.inner.sample(req);
    if (!faulty(n)) return got;
    try {
      return checkSample({ tokens: got.tokens, logprobs: got.tokens.map(() => 0), stopReason: got.stopReason });
    } catch (err) {
      ZeroFillingSampler.faults++;
      throw err;
    }
  }
}

let server: TinkerDevServer;
let warm: string;

describe('train --learner tinker with a sampler that zero-fills logprobs now and then', () => {
  before(async () => {
    ({ server, warm } = await warmDevServer(codec, join(root, 'checkpoints')));
  });
  after(() => server?.close());

  it('completes every step, counts the unrecovered rollouts as infrastructure failures and trains only on rewarded ones', async (t) => {
    const learner = toyLearner(server.url, codec, warm, { run: 'faulty', seed: 3, wrap: (s) => new ZeroFillingSampler(s) });
    const metrics: StepMetrics[] = [];
    const seen: ScoredGroup<TokenTurn>[][] = [];
    const state = await train(
      {
        ...TRAIN_DEFAULTS,
        learner: 'tinker',
        // A fixed task set: every rollout of a step is in the groups the update sees (no admission probes, no held-out evaluation).
        // One task, which seed 4 draws with one bug: quick to synthesize.
        curriculum: 'uniform',
        initialTasks: 1,
        envs: [env.spec.name],
        heldOut: [],
        evalTasks: 0,
        seed: 4,
        steps: STEPS,
        budget: 1000,
        batch: 1,
        group: GROUP,
        timeLimitMin: 0,
        workers: 1,
      },
      {
        envs: new Map([[env.spec.name, env]]),
        runtime: selectRuntime({ warn: () => {} }),
        dataDir: join(root, 'data'),
        runDir: join(root, 'runs', 'faulty'),
        bankDir: join(root, 'bank'),
        runName: 'faulty',
        learner,
        onGroups: (_, groups) => void seen.push(groups),
        onEvent: (e) => void (e.kind === 'step' && metrics.push(e.metrics)),
      },
    );
    learner.close();

    // The run went on: every step completed and trained.
    assert.equal(state.stop, 'steps');
    assert.equal(metrics.length, STEPS);
    assert.equal(seen.length, STEPS);
    const rollouts = seen.flat().flatMap((g) => g.rollouts);
    assert.equal(rollouts.length, STEPS * GROUP, 'the update saw every rollout of the step');
    assert.ok(ZeroFillingSampler.calls >= 2 * rollouts.length - 1, `the episodes sampled (${ZeroFillingSampler.calls} calls)`);

    // The step's count is the rollouts the retry did not recover.
    for (const [i, m] of metrics.entries()) {
      const lost = seen[i]!.flatMap((g) => g.rollouts).filter((r) => r.reward === null).length;
      assert.equal(m.infraFailures, lost, `step ${m.step}`);
      // The step says why, for the progress line and metrics.jsonl.
      if (lost)
        assert.ok(
          m.infraReasons?.some((r) => r.includes("sampler fault 'zero-logprobs'")),
          JSON.stringify(m.infraReasons),
        );
      else assert.equal(m.infraReasons, undefined);
    }
    const lost = rollouts.filter((r) => r.reward === null);
    assert.ok(lost.length > 0, 'a fault at the 10th call is followed by one in its retry');
    // Every fault went to exactly one attempt: one in a rollout the retry recovered, two in one it did not.
    const retried = (r: Rollout<TokenTurn>) => (r as Rollout<TokenTurn> & { retried?: boolean }).retried === true;
    const recovered = rollouts.filter((r) => r.reward !== null && retried(r));
    assert.ok(recovered.length > 0, 'a fault at every 5th call is recovered by the retry');
    assert.equal(ZeroFillingSampler.faults, recovered.length + 2 * lost.length);
    t.diagnostic(`${ZeroFillingSampler.calls} sample calls, ${ZeroFillingSampler.faults} faults: ${recovered.length} rollouts recovered, ${lost.length} lost`);

    // An unrecovered rollout: never scored, named for the sampler's fault.
    for (const g of seen.flat()) {
      g.rollouts.forEach((r, k) => {
        if (r.reward !== null) return;
        assert.equal(g.advantages[k], null);
        assert.equal(r.trajectory.stopReason, 'infra-error');
        assert.equal(r.verdict, undefined);
        assert.match(r.reason ?? '', /^model: .*sampler fault 'zero-logprobs'/);
      });
    }

    // What the updates trained on: the rewarded rollouts' datums, none with a zero-filled turn.
    for (const [i, groups] of seen.entries()) {
      const datums = groupDatums(groups);
      const rewarded = groups.map((g) => ({
        ...g,
        rollouts: g.rollouts.filter((r) => r.reward !== null),
        advantages: g.advantages.filter((_, k) => g.rollouts[k]!.reward !== null),
      }));
      assert.deepEqual(datums, groupDatums(rewarded), `step ${i + 1}: no datum from an unrecovered rollout`);
      assert.equal(metrics[i]!.learner?.datums, datums.length);
      for (const d of datums) {
        const w = d.loss_fn_inputs.weights!.data;
        const lp = d.loss_fn_inputs.logprobs!.data;
        // Each run of weighted positions is one turn's sampled tokens: a zero-filled one would be all 0.
        for (let a = 0; a < w.length; a++) {
          if (!w[a] || w[a - 1]) continue;
          let b = a;
          while (w[b + 1]) b++;
          const turn = lp.slice(a, b + 1);
          assert.ok(turn.length < 2 || turn.some((x) => x !== 0), `a trained turn of ${turn.length} tokens has all-zero logprobs`);
        }
      }
    }
    assert.ok(
      metrics.some((m) => (m.learner?.datums ?? 0) > 0),
      'something was trained on',
    );
  });
});
