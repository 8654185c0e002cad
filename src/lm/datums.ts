// Tinker datums from token trajectories. One datum per rollout: the episode's
// whole token sequence (the last turn's prompt plus its sampled tokens), input
// position i predicting token i+1, weight 1 on sampled tokens only, the
// sampler's logprobs and the rollout's advantage on them. The sampled tokens
// are checked to sit unchanged at their offsets: the sequence was built by
// appending, never re-tokenized.
import type { Rollout, ScoredGroup, TokenTurn } from '../rl/contract.js';
import type { Datum } from '../tinker/types.js';

/** The episode's tokens with per-token weight, sampling logprob and whether the token was sampled; undefined when it has no token turns. */
export function episodeTokens(rollout: Rollout<TokenTurn>): { tokens: number[]; weights: number[]; logprobs: number[] } | undefined {
  const turns = rollout.trajectory.turns.map((t) => t.learner).filter((t): t is TokenTurn => t !== undefined);
  const last = turns.at(-1);
  if (!last) return undefined;
  const tokens = [...last.promptTokens, ...last.sampledTokens];
  const weights = tokens.map(() => 0);
  const logprobs = tokens.map(() => 0);
  for (const t of turns) {
    const at = t.promptTokens.length;
    if (at + t.sampledTokens.length > tokens.length || t.sampledTokens.some((id, i) => tokens[at + i] !== id)) {
      throw new Error(
        `rollout of ${rollout.taskId}: a turn's sampled tokens are not where its prompt ends in the final sequence (the transcript was not built by appending)`,
      );
    }
    t.sampledTokens.forEach((_, i) => {
      weights[at + i] = t.lossMask[i] ?? 0;
      logprobs[at + i] = t.logprobs[i] ?? 0;
    });
  }
  return { tokens, weights, logprobs };
}

/** One rollout's datum for an advantage `a`: inputs tokens[0..n-2], targets tokens[1..n-1]. */
export function rolloutDatum(rollout: Rollout<TokenTurn>, advantage: number): Datum | undefined {
  const ep = episodeTokens(rollout);
  if (!ep || ep.tokens.length < 2) return undefined;
  const shift = <T>(xs: T[]) => xs.slice(1);
  const weights = shift(ep.weights);
  if (!weights.some((w) => w > 0)) return undefined;
  return {
    model_input: { chunks: [{ type: 'encoded_text', tokens: ep.tokens.slice(0, -1) }] },
    loss_fn_inputs: {
      target_tokens: { data: shift(ep.tokens), dtype: 'int64' },
      weights: { data: weights, dtype: 'float32' },
      logprobs: { data: shift(ep.logprobs), dtype: 'float32' },
      advantages: { data: weights.map((w) => w * advantage), dtype: 'float32' },
    },
  };
}

/** Datums of the groups' scored rollouts whose advantage is non-zero (a zero advantage carries no gradient under these losses). */
export function groupDatums(groups: readonly ScoredGroup<TokenTurn>[]): Datum[] {
  const out: Datum[] = [];
  for (const g of groups) {
    g.rollouts.forEach((r, i) => {
      const a = g.advantages[i];
      if (a === null || a === undefined || a === 0 || r.reward === null) return;
      const d = rolloutDatum(r, a);
      if (d) out.push(d);
    });
  }
  return out;
}

/** A step's token figures: sampled tokens, mean response length per rollout, the share of rollouts cut by the token or context limit. */
export function tokenFigures(groups: readonly ScoredGroup<TokenTurn>[]): Record<string, number> {
  const rollouts = groups.flatMap((g) => g.rollouts);
  let sampled = 0;
  let total = 0;
  for (const r of rollouts) {
    // The last token turn holds the whole episode (groupDatums checks how it was built).
    const last = r.trajectory.turns.findLast((t) => t.learner !== undefined)?.learner;
    sampled += r.trajectory.turns.reduce((n, t) => n + (t.learner?.sampledTokens.length ?? 0), 0);
    total += last ? last.promptTokens.length + last.sampledTokens.length : 0;
  }
  const truncated = rollouts.filter((r) => r.trajectory.stopReason === 'turn-token-limit' || r.trajectory.stopReason === 'context-limit').length;
  return {
    tokens: total,
    sampledTokens: sampled,
    meanResponseTokens: rollouts.length ? sampled / rollouts.length : 0,
    truncationShare: rollouts.length ? truncated / rollouts.length : 0,
    rollouts: rollouts.length,
    truncated,
  };
}
