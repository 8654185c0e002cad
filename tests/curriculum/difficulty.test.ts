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

  it("untrained, it predicts what the curriculum already knows: the knob setting's posterior mean", () => {
    const p = new DifficultyModel().predict(taskFeatures(task('a'), { familyMean: 0.3, figure: null }));
    assert.ok(Math.abs(p - 0.3) < 1e-9, String(p));
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
