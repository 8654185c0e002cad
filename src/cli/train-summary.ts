// What `frognano train` prints when it ends: as text, or (--json) as one object.
import { join } from 'node:path';
import type { TrainConfig } from '../train/config.js';
import type { RunState } from '../train/state.js';
import { rate } from '../util/stats.js';
import { heldOutLines, stopLine } from './train-report.js';

export function summaryLines(state: RunState, cfg: TrainConfig, at: { runName: string; runDir: string; invocationMs: number; json: boolean }): string[] {
  const first = state.heldOut[0];
  const final = state.heldOut.at(-1);
  const share = state.groups.total ? 1 - state.groups.degenerate / state.groups.total : 0;
  const summary = {
    run: at.runName,
    curriculum: cfg.curriculum,
    steps: state.step,
    rollouts: state.rolloutsUsed,
    stop: state.stop ?? null,
    heldOutBefore: first?.solveRate ?? null,
    heldOutAfter: final?.solveRate ?? null,
    heldOutSolvedBefore: first?.solved ?? null,
    heldOutSolvedAfter: final?.solved ?? null,
    heldOutAttempts: final?.attempts ?? null,
    heldOutReachBefore: first?.reach ?? null,
    heldOutReachAfter: final?.reach ?? null,
    nonDegenerateShare: share,
    heldReplayChecks: state.groups.heldChecks ?? 0,
    tampering: state.tampering ?? 0,
    minutes: state.elapsedMs / 60000,
    checkpoint: join(at.runDir, cfg.learner === 'tinker' ? 'lm-checkpoint.json' : 'policy.json'),
    metrics: join(at.runDir, 'metrics.jsonl'),
  };
  if (at.json) return [JSON.stringify(summary, null, 2)];
  const nonDegenerate = state.groups.total - state.groups.degenerate;
  const replays = summary.heldReplayChecks
    ? ` (and ${summary.heldReplayChecks} replay${summary.heldReplayChecks > 1 ? 's' : ''} of retired tasks whose check held)`
    : '';
  return [
    `trained ${state.step} step${state.step === 1 ? '' : 's'}, ${state.rolloutsUsed} rollouts in ${summary.minutes.toFixed(1)} min (${cfg.curriculum} curriculum)`,
    stopLine(state, cfg, at.invocationMs),
    ...heldOutLines(state, cfg),
    `non-degenerate groups: ${rate(nonDegenerate, state.groups.total)}${replays}`,
    `tampering verdicts: ${rate(summary.tampering, state.rolloutsUsed)} of rollouts (a change that forged or dodged the tests; scored 0)`,
    `checkpoint: ${summary.checkpoint}`,
    `metrics: ${summary.metrics}`,
  ];
}
