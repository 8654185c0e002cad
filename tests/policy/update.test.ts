import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FEATURE_DIM } from '../../src/policy/features.js';
import { LinearPolicy, type Decision } from '../../src/policy/linear.js';
import { decisionScales, updatePolicy, type CreditMethod } from '../../src/policy/update.js';
import { estimator, scoreGroup, type AdvantageMethod } from '../../src/rl/advantages.js';
import type { Rollout } from '../../src/rl/contract.js';
import type { EmbeddedTurn } from '../../src/policy/decisions.js';
import { rolloutOf as made } from '../helpers/rollouts.js';

// Three candidates with one private feature each: a wrong repair, the fix, another wrong one.
const WRONG = FEATURE_DIM - 1,
  FIX = FEATURE_DIM - 2,
  OTHER = FEATURE_DIM - 3;
const feats = [WRONG, FIX, OTHER].map((i) => ({ idx: [i], val: [1] }));
const pick = (i: number, undone = false): Decision => ({ feats, chosen: i, temperature: 1, ...(undone ? { undone } : {}) });
const rolloutOf = (reward: number | null, decisions: Decision[]) => made('t', reward, decisions);
type Groups = Rollout<EmbeddedTurn>[][];
/** The update as the trainer calls it: each group scored by the method's estimator first. */
const update = (policy: LinearPolicy, groups: Groups, method: AdvantageMethod, lr: number, credit?: CreditMethod, epochs?: number, learnable?: number) =>
  updatePolicy(
    policy,
    groups.map((g) => scoreGroup(g, estimator(method))),
    estimator(method),
    lr,
    credit,
    epochs,
    learnable,
  );
const scalesOf = (g: Rollout<EmbeddedTurn>[], method: AdvantageMethod, credit: CreditMethod) =>
  decisionScales(scoreGroup(g, estimator(method)), estimator(method), credit);

// A passing rollout that tried the wrong repair, undid it, then found the fix;
// a failing one that tried the wrong repair and another, both undone.
const group = () => [rolloutOf(1, [pick(0, true), pick(1)]), rolloutOf(0, [pick(0, true), pick(2, true)])];

describe('updatePolicy', () => {
  it('episode credit: the wrong repair is pushed up by the passing rollout as much as down by the failing one', () => {
    const policy = new LinearPolicy('zero');
    assert.ok(update(policy, [group()], 'rloo', 0.1, 'episode') > 0);
    assert.equal(policy.w[WRONG], 0);
    assert.ok(policy.w[FIX]! > 0 && policy.w[OTHER]! < 0);
  });

  it('attempt credit: an undone repair of a passing rollout counts as failed, so the wrong repair goes down', () => {
    const policy = new LinearPolicy('zero');
    update(policy, [group()], 'rloo', 0.1, 'attempt');
    assert.ok(policy.w[WRONG]! < 0, String(policy.w[WRONG]));
    assert.ok(policy.w[FIX]! > 0);
    const p = policy.probabilities(feats);
    assert.ok(p[1]! > p[0]! && p[1]! > p[2]!);
  });

  it("repair credit: every repair is its own trial, advantages over the group's repairs (RLOO: the fix 1, each wrong one -1/3)", () => {
    const scales = scalesOf(group(), 'rloo', 'repair');
    assert.deepEqual(
      scales.map((s) => s.map((x) => Math.round(x! * 1000) / 1000)),
      [
        [-0.333, 1],
        [-0.333, -0.333],
      ],
    );
    // attempt credit gives each wrong choice the whole failure
    assert.deepEqual(scalesOf(group(), 'rloo', 'attempt'), [
      [-1, 1],
      [-1, -1],
    ]);
    // an infrastructure failure's repairs are no trials
    const withInfra = [...group(), rolloutOf(null, [pick(1), pick(0, true)])];
    assert.deepEqual(scalesOf(withInfra, 'rloo', 'repair')[2], [null, null]);
    assert.deepEqual(
      scalesOf(withInfra, 'rloo', 'repair')[0]!.map((x) => Math.round(x! * 1000) / 1000),
      [-0.333, 1],
    );
  });

  it('repair credit: the fix goes up, the wrong repairs down', () => {
    const policy = new LinearPolicy('zero');
    assert.ok(update(policy, [group()], 'rloo', 0.1, 'repair') > 0);
    assert.ok(policy.w[FIX]! > 0 && policy.w[WRONG]! < 0 && policy.w[OTHER]! < 0, String([policy.w[FIX], policy.w[WRONG], policy.w[OTHER]]));
    assert.ok(policy.w[WRONG]! < policy.w[OTHER]!, 'tried twice, pushed down twice');
  });

  it('degenerate groups and infrastructure failures give no update', () => {
    const policy = new LinearPolicy('zero');
    const allFail = [rolloutOf(0, [pick(0, true)]), rolloutOf(0, [pick(2, true)]), rolloutOf(null, [pick(1)])];
    assert.equal(update(policy, [allFail], 'rloo', 0.1, 'attempt'), 0);
    assert.deepEqual([policy.w[WRONG], policy.w[FIX], policy.w[OTHER]], [0, 0, 0]);
  });

  it('epochs: more optimizer steps on the same rollouts move the fix further', () => {
    const one = new LinearPolicy('zero'),
      four = new LinearPolicy('zero');
    update(one, [group()], 'rloo', 0.05, 'attempt', 1);
    update(four, [group()], 'rloo', 0.05, 'attempt', 4);
    const pFix = (p: LinearPolicy) => p.probabilities(feats)[1]!;
    assert.ok(pFix(four) > pFix(one) && pFix(one) > 1 / 3, `${pFix(four)} ${pFix(one)}`);
    assert.equal(four.step, 4);
  });

  it('epochs: once every choice moved past the clip, no further step is taken', () => {
    const one = new LinearPolicy('zero'),
      three = new LinearPolicy('zero');
    // A step this long moves every choice's probability far past 1 ± PPO_CLIP.
    update(one, [group()], 'rloo', 5, 'attempt', 1);
    update(three, [group()], 'rloo', 5, 'attempt', 3);
    assert.deepEqual([...three.w], [...one.w]);
    assert.equal(three.step, 1);
  });

  it('learnable: weights past the first `learnable` slots never move', () => {
    const policy = new LinearPolicy('zero');
    // WRONG is the last slot: learning stops short of it.
    assert.ok(update(policy, [group()], 'rloo', 0.1, 'attempt', 2, FEATURE_DIM - 1) > 0);
    assert.equal(policy.w[WRONG], 0);
    assert.ok(policy.w[FIX]! > 0 && policy.w[OTHER]! < 0, 'the slots before it still learn');
  });
});
