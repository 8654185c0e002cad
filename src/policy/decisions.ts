// What the embedded policy's learner reads from a trajectory: the repair
// choices it made, each with every candidate's features, and which of them
// the episode later undid. Turns carry them (EmbeddedTurn); nothing else does.
import type { Trajectory, Turn } from '../rl/contract.js';
import type { Decision } from './linear.js';
import type { Sparse } from './features.js';

/** One repair choice: the candidates' features, the one taken, at what temperature. */
export interface Choice {
  feats: Sparse[];
  chosen: number;
  temperature: number;
}

/** The embedded policy's learner data on a turn: a choice made, and earlier choices (by index) it now knows were undone. */
export interface EmbeddedTurn {
  choice?: Choice;
  undoes?: number[];
}

const cache = new WeakMap<Trajectory<EmbeddedTurn>, Decision[]>();

/** The trajectory's choices in order, `undone` set on those a later turn undid. */
export function decisionsOf(t: Trajectory<EmbeddedTurn>): Decision[] {
  let out = cache.get(t);
  if (out) return out;
  const ds: Decision[] = [];
  for (const turn of t.turns) {
    for (const k of turn.learner?.undoes ?? []) if (ds[k]) ds[k].undone = true;
    if (turn.learner?.choice) ds.push({ ...turn.learner.choice });
  }
  out = ds;
  cache.set(t, out);
  return out;
}

/** A trajectory made of these decisions, one turn each (tests and offline benchmarks). */
export function trajectoryOf(decisions: readonly Decision[], stopReason: Trajectory<EmbeddedTurn>['stopReason'] = 'submitted'): Trajectory<EmbeddedTurn> {
  const turns: Turn<EmbeddedTurn>[] = decisions.map(({ undone: _, ...choice }) => ({ tools: ['Edit'], learner: { choice } }));
  const undone = decisions.flatMap((d, i) => (d.undone ? [i] : []));
  if (undone.length) turns.push({ tools: [], learner: { undoes: undone } });
  return { turns, stopReason };
}
