import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decisionsOf, trajectoryOf, type EmbeddedTurn } from '../../src/policy/decisions.js';
import type { Trajectory } from '../../src/rl/contract.js';

const feats = [
  { idx: [0], val: [1] },
  { idx: [1], val: [1] },
];
const choice = (chosen: number) => ({ feats, chosen, temperature: 1 });

describe('the embedded learner reads its decisions from the trajectory', () => {
  it('one decision per choice, in order; undone exactly where a later turn says so', () => {
    const t: Trajectory<EmbeddedTurn> = {
      stopReason: 'submitted',
      turns: [
        { tools: ['Bash'] },
        { tools: ['Edit'], learner: { choice: choice(0) } },
        { tools: ['Bash'] },
        { tools: ['Edit'], learner: { undoes: [0] } },
        { tools: ['Edit'], learner: { choice: choice(1) } },
        { tools: [], learner: { undoes: [7] } }, // an index never chosen is ignored
      ],
    };
    const ds = decisionsOf(t);
    assert.deepEqual(
      ds.map((d) => [d.chosen, d.undone ?? false]),
      [
        [0, true],
        [1, false],
      ],
    );
    assert.equal(decisionsOf(t), ds, 'read once per trajectory');
    assert.equal(t.turns[1]!.learner!.choice!.chosen, 0);
    assert.ok(!('undone' in t.turns[1]!.learner!.choice!), 'the turns themselves are not changed');
  });

  it('trajectoryOf and decisionsOf round-trip', () => {
    const ds = [{ ...choice(1), undone: true }, choice(0), { ...choice(1), undone: true }];
    assert.deepEqual(decisionsOf(trajectoryOf(ds)), ds);
    assert.deepEqual(decisionsOf(trajectoryOf([])), []);
  });
});
