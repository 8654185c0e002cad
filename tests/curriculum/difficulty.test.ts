import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DifficultyModel, EXPLORE, GresoGate, modelSkips, taskFeatures, WARM_UP } from '../../src/curriculum/difficulty.js';
import { calibration } from '../../src/evidence/analysis.js';
import type { Task } from '../../src/task/task.js';
import { rng } from '../../src/util/rng.js';

const task = (env: string, bugs = 1, lines = 1): Task =>
  ({
    id: `${env}-${bugs}-${lines}`,
    env: { name: env },
    bugPatch: `--- a/x\n+++ b/x\n${'-a\n+b\n'.repeat(lines)}`,
    FAIL_TO_PASS: ['t'],
    knobs: { bugs, hint: 'full', visibility: 'visible', families: ['operations'] },
    provenance: { edits: [{ operator: 'swap', family: 'operations', file: 'x', line: 1, column: 0 }] },
  }) as unknown as Task;

describe('the difficulty model', () => {
  it('learns online which tasks pass, from what is known before any rollout, and is calibrated on held-back draws', () => {
    const m = new DifficultyModel();
    const random = rng(3);
    // Easy: one-bug tasks of env "a" pass 80% of the time; hard: four-bug tasks of "b" pass 10%.
    const truth = (t: Task) => (t.env.name === 'a' && t.knobs.bugs === 1 ? 0.8 : t.env.name === 'b' && t.knobs.bugs === 4 ? 0.1 : 0.4);
    const kinds = [task('a', 1), task('b', 4), task('a', 4), task('b', 1)];
    const known = { familyMean: 0.5, figure: null };
    for (let i = 0; i < 300; i++) {
      const t = kinds[i % kinds.length]!;
      const s = Array.from({ length: 4 }, () => (random() < truth(t) ? 1 : 0)).reduce<number>((a, b) => a + b, 0);
      m.observe(taskFeatures(t, known), s, 4 - s);
    }
    for (const t of kinds) {
      const p = m.predict(taskFeatures(t, known));
      assert.ok(Math.abs(p - truth(t)) < 0.12, `${t.id}: predicted ${p.toFixed(2)}, truth ${truth(t)}`);
    }
    const again = DifficultyModel.fromJSON(JSON.parse(JSON.stringify(m.toJSON())));
    assert.equal(again.predict(taskFeatures(kinds[0]!, known)), m.predict(taskFeatures(kinds[0]!, known)));
  });

  it("untrained, it predicts the learner's own pre-rollout figure where there is one, else even odds (or the knob setting's posterior, asked)", () => {
    const x = (figure: number | null) => taskFeatures(task('a'), { familyMean: 0.3, figure });
    assert.ok(Math.abs(new DifficultyModel().predict(x(0.8)) - 0.8) < 1e-9);
    assert.ok(Math.abs(new DifficultyModel().predict(x(null)) - 0.5) < 1e-9);
    assert.ok(Math.abs(new DifficultyModel({ prior: 'family' }).predict(x(0.8)) - 0.3) < 1e-9);
    assert.equal(new DifficultyModel({ prior: 'none' }).predict(x(0.8)), 0.5);
  });

  it('learns from probes only: training groups are logged, with the prediction made before a probe', () => {
    const m = new DifficultyModel();
    const x = taskFeatures(task('a'), { familyMean: 0.5, figure: 0.5 });
    m.observe(x, 4, 0, { kind: 'group', task: 'g' });
    assert.equal(m.seen, 0);
    assert.equal(m.predict(x), 0.5, 'a trained-on task says nothing of fresh ones');
    m.observe(x, 0, 4, { kind: 'probe', task: 'p', predicted: 0.5123 });
    assert.equal(m.seen, 1);
    assert.ok(m.predict(x) < 0.5);
    const log = m.drain();
    assert.deepEqual(
      log.map((o) => [o.kind, o.task, o.successes, o.failures, o.predicted]),
      [
        ['group', 'g', 4, 0, 0.5],
        ['probe', 'p', 0, 4, 0.512],
      ],
    );
    assert.equal(log[1]!.x['figure-logit'], 0);
    assert.deepEqual(m.drain(), [], 'drained once');
    // A state saved before corrections existed: its absolute weights are dropped, its calibration kept.
    const old = DifficultyModel.fromJSON({ weights: [['family-logit', 3]], seen: 5, calibration: [[0.4, 1, 2]] });
    assert.equal(old.predict(x), 0.5);
    assert.deepEqual(old.calibration, [[0.4, 1, 2]]);
  });

  it('skips only once warmed up, only far from the frontier, and still explores about one in ten', () => {
    const m = new DifficultyModel();
    assert.equal(modelSkips(m, 0.01, 1, 't'), false, 'cold');
    m.seen = WARM_UP;
    assert.equal(modelSkips(m, 0.5, 1, 't'), false, 'at the frontier');
    const skipped = Array.from({ length: 1000 }, (_, i) => modelSkips(m, 0.01, 1, `t${i}`)).filter(Boolean).length;
    assert.ok(Math.abs(1000 - skipped - 1000 * EXPLORE) < 40, `${1000 - skipped} of 1000 explored`);
    assert.ok(modelSkips(m, 0.99, 1, 't2') || modelSkips(m, 0.99, 1, 't3'), 'too easy is skipped too');
  });

  it('GRESO-style: a knob setting skipped more the longer its probes stay uninformative, never always', () => {
    const g = new GresoGate();
    const share = (key: string) => Array.from({ length: 1000 }, (_, i) => g.skips(key, 1, `t${i}`)).filter(Boolean).length / 1000;
    assert.equal(share('k'), 0);
    g.record('k', 0, 4);
    assert.ok(Math.abs(share('k') - 0.5) < 0.05);
    for (let i = 0; i < 10; i++) g.record('k', 4, 0);
    assert.ok(Math.abs(share('k') - 0.9) < 0.03, 'capped');
    g.record('k', 2, 2);
    assert.equal(share('k'), 0, 'a mixed probe ends the streak');
    assert.deepEqual(GresoGate.fromJSON(g.toJSON()).toJSON(), g.toJSON());
  });

  it('calibration: predicted against observed per bin, and a Brier score beside the constant baseline', () => {
    const c = calibration([
      [0.1, 0, 4],
      [0.15, 1, 4],
      [0.9, 4, 4],
      [0.85, 3, 4],
    ]);
    assert.deepEqual(
      c.bins.map((b) => [b.tasks, b.rollouts, b.observed]),
      [
        [2, 8, 1 / 8],
        [2, 8, 7 / 8],
      ],
    );
    assert.ok(c.brier! < c.baseline!, `${c.brier} against ${c.baseline}`);
  });
});
