import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Task } from '../../src/task/task.js';
import { TRAIN_DEFAULTS } from '../../src/train/config.js';
import { REACH_FLOOR, Stocker, type StockDeps } from '../../src/train/stock.js';
import { DifficultyModel, GresoGate, modelSkips, taskFeatures, WARM_UP } from '../../src/curriculum/difficulty.js';
import { rolloutOf } from '../helpers/rollouts.js';
import { bareTask } from '../helpers/task.js';
import { bareStocker } from '../helpers/stock.js';
import type { TaskSupply } from '../../src/train/supply.js';

const task = bareTask;

type Deps = StockDeps<unknown>;

/** One task through the screen and the probe. */
const probe = async (s: Stocker<unknown>, t: Task, step: number) => (await s.probeAll([t], step))[0];

function stocker(screen: Deps['screen'], rewards: number[], budget = 100, supply = {} as TaskSupply, cfg = TRAIN_DEFAULTS) {
  let ran = 0;
  const runOne = async (t: Task) => rolloutOf(t.id, rewards[ran++ % rewards.length]!);
  return bareStocker({ cfg, supply, runOne, budget, ...(screen ? { screen } : {}) });
}

describe('Stocker probes with a reach screen', () => {
  it('rejects a task below the reach floor without a rollout, and the controller hears a failed probe', async () => {
    const { s, pool, controller, spent } = stocker(async () => REACH_FLOOR / 2, [1, 0]);
    const failuresHeard = () => JSON.stringify(controller.toJSON()).match(/"operations",\{"alpha":[\d.]+,"beta":([\d.]+)/)?.[1];
    assert.equal(await probe(s, task('low'), 1), 'too-hard');
    assert.equal(spent(), 0, 'no rollout spent');
    assert.equal(pool.get('low')?.state, 'rejected');
    assert.equal(s.yield.screened, 1);
    // The family's Beta(1, 1) prior took the probe's worth of failures.
    assert.equal(Number(failuresHeard()), 1 + TRAIN_DEFAULTS.probe);
  });

  it('probes as usual when the reach is above the floor or cannot be told', async () => {
    for (const reach of [0.5, null]) {
      const { s, pool, spent } = stocker(async () => reach, [1, 0]);
      assert.equal(await probe(s, task('mid'), 1), 'admit');
      assert.equal(spent(), 2, 'mixed results after two rollouts');
      assert.equal(pool.get('mid')?.state, 'active');
      assert.equal(s.yield.screened, 0);
    }
  });
});

describe('Stocker.stock near the end of the budget', () => {
  // A supply that makes two fresh tasks per call.
  let made = 0;
  const supply = {
    yield: { candidates: 0, valid: 0 },
    families: () => ['operations'],
    take: async () => [task(`t${made++}`), task(`t${made++}`)],
  } as unknown as TaskSupply;
  const { probe, batch, group } = TRAIN_DEFAULTS;

  for (const [left, probes] of [
    [2 * probe + batch * group - 1, false],
    [2 * probe + batch * group, true],
  ] as const) {
    it(`${probes ? 'probes' : 'does not probe'} with ${left} rollouts left (room for a try's probes and the next full batch: ${2 * probe + batch * group})`, async () => {
      const { s, pool, spent } = stocker(undefined, [1, 0], left, supply);
      pool.add({ taskId: 'trainable', env: 'e', familyKey: 'f', addedStep: 0, state: 'active' });
      await s.stock(1, () => 0.5);
      assert.equal(spent() > 0, probes, `${spent()} rollouts spent`);
      assert.ok(spent() <= left);
    });
  }

  it('with nothing to train on, probes down to the last rollout', async () => {
    const { s, spent } = stocker(undefined, [0], 3, supply);
    await s.stock(1, () => 0.5);
    assert.equal(spent(), 3);
  });
});

describe('Stocker probes cut short', () => {
  it('by the budget after a pass: too easy (what it saw); before any rollout: unjudged, left out of the pool and handed back', async () => {
    const { s, pool, spent } = stocker(undefined, [1], 1);
    const used = (s as unknown as { d: Deps }).d.used;
    used.add('a').add('b');
    assert.equal(await probe(s, task('a'), 1), 'too-easy');
    assert.equal(spent(), 1);
    // Added retired; its one pass leaves the mean (2/3) under the reactivation line, so the pool keeps it trainable.
    assert.ok(['retired', 'active'].includes(pool.get('a')!.state), pool.get('a')!.state);
    assert.equal(pool.get('a')!.observations, 1);
    assert.equal(await probe(s, task('b'), 1), null);
    assert.equal(pool.get('b'), undefined);
    assert.ok(!used.has('b') && used.has('a'));
  });

  it('by infrastructure failures after a pass: too hard, not replayed as solved', async () => {
    let n = 0;
    const { s, pool } = stocker(undefined, [0], 100);
    (s as unknown as { d: Deps }).d.runOne = async (t) => rolloutOf(t.id, n++ === 0 ? 1 : null);
    assert.equal(await probe(s, task('flaky'), 1), 'too-hard');
    assert.equal(pool.get('flaky')?.state, 'rejected');
    assert.equal(n, 2 * TRAIN_DEFAULTS.probe, 'out of tries');
  });
});

describe('Stocker probes side by side', () => {
  it('land in task order whichever finishes first, as one after another would', async () => {
    const outcomes = async (workers: number, delays: Record<string, number>) => {
      const tries = new Map<string, number>();
      const { s, pool, controller } = bareStocker({
        cfg: { ...TRAIN_DEFAULTS, workers },
        budget: 100,
        runOne: async (t) => {
          const i = tries.get(t.id) ?? 0;
          tries.set(t.id, i + 1);
          await new Promise((r) => setTimeout(r, delays[t.id]));
          return rolloutOf(t.id, i % 2); // fail, then pass: admitted after two rollouts
        },
      });
      const verdicts = await s.probeAll([task('slow'), task('fast')], 1);
      return {
        verdicts,
        order: pool.all().map((e) => e.taskId),
        groups: s.takeGroups().map((g) => g[0]!.taskId),
        controller: JSON.stringify(controller.toJSON()),
      };
    };
    const serial = await outcomes(1, { slow: 0, fast: 0 });
    const parallel = await outcomes(2, { slow: 30, fast: 1 });
    assert.deepEqual(serial.verdicts, ['admit', 'admit']);
    assert.deepEqual(parallel, serial);
    assert.deepEqual(parallel.order, ['slow', 'fast']);
  });
});

describe('Stocker with a frontier part switched off (--ablate)', () => {
  /** A supply that records the knobs it is asked for and makes two fresh tasks per call. */
  function recordingSupply() {
    const asked: string[] = [];
    let made = 0;
    const supply = {
      yield: { candidates: 0, valid: 0 },
      families: () => ['operations'],
      take: async (_env: string, knobs: { bugs: number; hint: string; visibility: string }) => {
        asked.push(`b${knobs.bugs}/${knobs.hint}/${knobs.visibility}`);
        return [task(`t${made++}`), task(`t${made++}`)];
      },
    } as unknown as TaskSupply;
    return { supply, asked };
  }

  it('probe: a valid task is admitted without a rollout, and its first training group steers the controller', async () => {
    const cfg = { ...TRAIN_DEFAULTS, ablate: ['probe' as const] };
    const { s, pool, controller, spent } = stocker(undefined, [1, 0], 100, {} as TaskSupply, cfg);
    assert.equal(await probe(s, task('a'), 1), 'admit');
    assert.equal(spent(), 0);
    assert.equal(pool.get('a')?.state, 'active');
    assert.equal(pool.get('a')?.observations, 0);
    assert.equal(s.takeGroups().length, 0, 'no probe group to train on');
    const before = controller.level('e');
    s.steer(task('a'), [rolloutOf('a', 1), rolloutOf('a', 1), rolloutOf('a', 1), rolloutOf('a', 1)]);
    assert.ok(controller.level('e') > before, 'all passed: the controller climbs');
  });

  it('controller: knobs are drawn from the whole ladder instead of near the controller level', async () => {
    const withController = recordingSupply();
    await stocker(undefined, [1, 0], 100, withController.supply).s.stock(1, () => 0.99);
    const without = recordingSupply();
    const cfg = { ...TRAIN_DEFAULTS, ablate: ['controller' as const] };
    await stocker(undefined, [1, 0], 100, without.supply, cfg).s.stock(1, () => 0.99);
    // The controller starts at the easiest rung; a draw of 0.99 from the ladder is its hardest.
    assert.ok(
      withController.asked.every((k) => k.startsWith('b1/')),
      withController.asked.join(' '),
    );
    assert.deepEqual([...new Set(without.asked)], ['b4/minimal/hidden']);
  });

  it("restock: 'fill' stocks the whole pool at once, a top-up stops at a few tries", async () => {
    // One worker: each task's probe sees a pass, then a failure.
    const cfg = { ...TRAIN_DEFAULTS, workers: 1 };
    const fill = stocker(undefined, [1, 0], 1000, recordingSupply().supply, cfg);
    await fill.s.stock(1, () => 0.5, 1, 'fill');
    assert.ok(fill.pool.counts().active >= TRAIN_DEFAULTS.poolTarget, `active ${fill.pool.counts().active}`);
    const topUp = stocker(undefined, [1, 0], 1000, recordingSupply().supply, cfg);
    await topUp.s.stock(1, () => 0.5);
    assert.ok(topUp.pool.counts().active < TRAIN_DEFAULTS.poolTarget, `active ${topUp.pool.counts().active}`);
  });
});

describe('Stocker with a difficulty gate (--gate)', () => {
  function withModel(gate: 'none' | 'model', predictsPass: boolean) {
    const cfg = { ...TRAIN_DEFAULTS, gate, workers: 1 };
    const st = stocker(undefined, [1, 0], 100, {} as TaskSupply, cfg);
    const model = new DifficultyModel();
    // Warmed up on tasks like these that always failed (or always passed).
    const x = taskFeatures(task('w'), { familyMean: 0.5, figure: null });
    for (let i = 0; i < 4 * WARM_UP; i++) model.observe(x, predictsPass ? 4 : 0, predictsPass ? 0 : 4);
    (st.s as unknown as { d: Deps }).d.difficulty = { model, greso: new GresoGate(), familyMean: () => 0.5, features: new Map() };
    return { ...st, model };
  }

  it('model: a task predicted far too hard is skipped without a rollout; the controller hears the prediction', async () => {
    // The id decides exploration: find one this seed does not explore.
    const id = Array.from({ length: 50 }, (_, i) => `t${i}`).find((t) => modelSkips(Object.assign(new DifficultyModel(), { seen: WARM_UP }), 0.01, 1, t))!;
    const { s, pool, spent, controller } = withModel('model', false);
    const before = controller.level('e');
    assert.equal(await probe(s, task(id), 1), 'too-hard');
    assert.equal(spent(), 0);
    assert.equal(s.yield.skipped, 1);
    assert.equal(s.yield.probeRollouts, 0);
    assert.equal(pool.get(id)?.state, 'rejected');
    assert.ok(controller.level('e') <= before);
  });

  it('none: the same task is probed, and its prediction is kept for calibration and learned from', async () => {
    const { s, model, spent } = withModel('none', false);
    const seen = model.seen;
    assert.equal(await probe(s, task('t1'), 1), 'admit');
    assert.equal(spent(), 2);
    assert.equal(s.yield.probeRollouts, 2);
    assert.equal(model.calibration.length, 1);
    assert.deepEqual(model.calibration[0]!.slice(1), [1, 2]);
    assert.ok(model.calibration[0]![0] < 0.1, 'predicted hard');
    assert.equal(model.seen, seen + 1);
  });
});
