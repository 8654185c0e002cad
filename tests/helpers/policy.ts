// Policies for agent and rollout tests: weights set so that one known repair
// (the toy tasks' `-` back to `+`) is all but certain, and a model wrapper
// that keeps every turn the embedded agent takes.
import { repairsIn } from '../../src/policy/candidates.js';
import { DENSE_FEATURES, featurize, type FeatureContext } from '../../src/policy/features.js';
import { LinearPolicy } from '../../src/policy/linear.js';
import type { EmbeddedAgent } from '../../src/policy/agent.js';
import type { EmbeddedTurn } from '../../src/policy/decisions.js';
import type { Model, ModelTurn } from '../../src/model/types.js';

const CTX: FeatureContext = {
  frames: [],
  failures: [],
  testWords: new Set(),
  instructionWords: new Set(),
  tried: new Set(),
  blind: true,
  testedStems: new Set(),
};

/**
 * A policy that favours the repair turning `broken` back into `right`: weight
 * on the feature slots only that repair has (its hashed edit kind), whatever
 * the failures say.
 */
export async function policyFavouring(file: string, broken: string, right: string, weight = 12): Promise<LinearPolicy> {
  const repairs = await repairsIn(file, broken);
  const target = repairs.find((r) => broken.slice(0, r.start) + r.text + broken.slice(r.end) === right);
  if (!target) throw new Error(`no candidate repair turns ${file} right`);
  const others = new Set(repairs.filter((r) => r !== target).flatMap((r) => featurize(r, broken, CTX).idx));
  const own = featurize(target, broken, CTX).idx.filter((i) => !others.has(i) && i >= DENSE_FEATURES.length);
  if (own.length === 0) throw new Error('the right repair has no feature of its own');
  const p = new LinearPolicy();
  for (const i of own) p.w[i] = weight;
  return p;
}

/** The agent as a model whose turns are kept, for checking what it did. */
export function keepingTurns(agent: EmbeddedAgent): Model<EmbeddedTurn> & { turns: ModelTurn<EmbeddedTurn>[] } {
  const turns: ModelTurn<EmbeddedTurn>[] = [];
  return {
    name: agent.name,
    supportsTools: agent.supportsTools,
    turns,
    turn: async (req) => {
      const t = await agent.turn(req);
      turns.push(t);
      return t;
    },
  };
}
