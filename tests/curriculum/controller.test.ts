import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DifficultyController } from '../../src/curriculum/controller.js';
import { LADDER, OPERATOR_FAMILIES, knobKey, rungKey, rungOf } from '../../src/curriculum/knobs.js';
import { rng } from '../../src/util/rng.js';

const hintRank = { full: 0, symptom: 1, minimal: 2 } as const;

describe('difficulty ladder', () => {
  it('runs from 1 bug, full hint, visible to 4 bugs, minimal, hidden', () => {
    assert.ok(LADDER.length >= 8 && LADDER.length <= 12);
    assert.deepEqual(LADDER[0], { bugs: 1, hint: 'full', visibility: 'visible' });
    assert.deepEqual(LADDER.at(-1), { bugs: 4, hint: 'minimal', visibility: 'hidden' });
    for (let i = 1; i < LADDER.length; i++) {
      const [a, b] = [LADDER[i - 1]!, LADDER[i]!];
      // Each rung adds a bug, or keeps the bugs and makes hint or visibility harder.
      assert.ok(
        b.bugs > a.bugs || (b.bugs === a.bugs && hintRank[b.hint] + Number(b.visibility === 'hidden') > hintRank[a.hint] + Number(a.visibility === 'hidden')),
        `rung ${i}`,
      );
    }
    assert.equal(new Set(LADDER.map(rungKey)).size, LADDER.length);
  });

  it('names knob settings stably', () => {
    assert.equal(knobKey({ bugs: 2, hint: 'symptom', visibility: 'hidden', family: 'control' }), 'control/b2/symptom/hidden');
    assert.equal(rungOf(LADDER[3]!), 3);
    assert.equal(rungOf({ bugs: 9, hint: 'full', visibility: 'visible' }), -1);
  });
});

describe('DifficultyController', () => {
  it('moves up when the pass rate is above target and down when below', () => {
    const c = new DifficultyController({ initialLevel: 4 });
    assert.equal(c.update('k', { successes: 4, failures: 0 }), 4 + 1.5 * 0.5);
    assert.equal(c.update('k', { successes: 0, failures: 4 }), 4);
    assert.equal(c.update('k', { successes: 1, failures: 3 }), 4 - 1.5 * 0.25);
    assert.equal(c.update('k', { successes: 0, failures: 0 }), c.level('k'), 'no evidence, no move');
    assert.equal(c.level('other'), 4, 'keys are independent');
  });

  it('stays within the ladder', () => {
    const c = new DifficultyController();
    for (let i = 0; i < 50; i++) c.update('k', { successes: 0, failures: 4 });
    assert.equal(c.level('k'), 0);
    for (let i = 0; i < 50; i++) c.update('k', { successes: 4, failures: 0 });
    assert.equal(c.level('k'), LADDER.length - 1);
    const random = rng(1);
    const rungs = Array.from({ length: 200 }, () => rungOf(c.propose('k', random)));
    assert.ok(
      rungs.every((r) => r >= 0),
      'every proposal is on the ladder',
    );
    assert.ok(rungs.includes(LADDER.length - 2), 'jitter still reaches below the top');
  });

  it('keeps a spread of difficulties around the level', () => {
    const c = new DifficultyController({ initialLevel: 5 });
    const random = rng(2);
    const rungs = Array.from({ length: 2000 }, () => rungOf(c.propose('k', random)));
    const avg = rungs.reduce((a, b) => a + b, 0) / rungs.length;
    assert.ok(Math.abs(avg - 5) < 0.1, `mean rung ${avg}`);
    assert.ok(new Set(rungs).size >= 4, 'several rungs proposed');
    const atLevel = rungs.filter((r) => r === 5).length / rungs.length;
    assert.ok(atLevel > 0.4 && atLevel < 0.7, `share at the level ${atLevel}`);
    const tight = new DifficultyController({ initialLevel: 5, spread: 0 });
    assert.ok(Array.from({ length: 50 }, () => rungOf(tight.propose('k', random))).every((r) => r === 5));
  });

  it('converges toward the rung where the pass rate crosses the target', () => {
    // A simulated policy: pass rate falls by 0.15 per rung, 0.5 at rung 6.
    const c = new DifficultyController();
    const random = rng(3);
    for (let i = 0; i < 400; i++) {
      const knobs = c.propose('k', random);
      const p = Math.min(1, Math.max(0, 0.5 - 0.15 * (rungOf(knobs) - 6)));
      let s = 0;
      for (let j = 0; j < 4; j++) if (random() < p) s++;
      c.update('k', { successes: s, failures: 4 - s, family: knobs.family });
    }
    assert.ok(Math.abs(c.level('k') - 6) < 1.5, `level ${c.level('k')}`);
  });

  it('samples families by learnability, with a floor', () => {
    const c = new DifficultyController();
    for (let i = 0; i < 10; i++) {
      c.update('k', { successes: 2, failures: 2, family: 'control' });
      c.update('k', { successes: 4, failures: 0, family: 'removal' });
    }
    const w = c.familyWeights('k');
    assert.ok(Math.abs([...w.values()].reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.ok(w.get('control')! > 2 * w.get('removal')!);
    assert.ok(w.get('removal')! > 0);
    const random = rng(4);
    const seen: Record<string, number> = {};
    for (let i = 0; i < 4000; i++) {
      const f = c.propose('k', random).family;
      seen[f] = (seen[f] ?? 0) + 1;
    }
    for (const f of OPERATOR_FAMILIES) assert.ok(Math.abs(seen[f]! / 4000 - w.get(f)!) < 0.03, `${f}: ${seen[f]}`);
    const state = c.state();
    assert.equal(state.levels.k, c.level('k'));
    assert.equal(state.families.k!.control!.weight, w.get('control'));
  });

  it("proposes only among the families it is given (those the environment's language has operators for)", () => {
    const c = new DifficultyController();
    const w = c.familyWeights('k', ['operations', 'control']);
    assert.deepEqual([...w.keys()], ['operations', 'control']);
    assert.ok(Math.abs(w.get('operations')! + w.get('control')! - 1) < 1e-12);
    const random = rng(5);
    const fams = new Set(Array.from({ length: 300 }, () => c.propose('k', random, ['operations', 'control']).family));
    assert.deepEqual([...fams].sort(), ['control', 'operations']);
    assert.throws(() => c.propose('k', random, []), /no operator family to propose for k/);
  });

  it('round-trips through JSON to identical proposals', () => {
    const c = new DifficultyController({ target: 0.3 });
    c.update('a', { successes: 3, failures: 1, family: 'class' });
    c.update('b', { successes: 0, failures: 4, family: 'operations' });
    const d = DifficultyController.fromJSON(JSON.parse(JSON.stringify(c.toJSON())));
    assert.deepEqual(d.state(), c.state());
    const [ra, rb] = [rng(9), rng(9)];
    for (let i = 0; i < 20; i++) assert.deepEqual(d.propose('a', rb), c.propose('a', ra));
  });
});
