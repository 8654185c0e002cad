// Keeping an attempt for the dashboard: its row (outcome, verdict, timing)
// and its artifact (the harness trajectory, the change, the verifier's report)
// in the store. A prompt's token ids are kept as a count: they repeat the
// whole context every turn and would dominate the bytes per rollout.
import type { Trajectory as HarnessTrajectory } from '../agent/trajectory.js';
import type { Rollout } from '../rl/contract.js';
import type { AttemptDetail } from '../rl/rollout.js';
import type { AttemptKind, AttemptLog } from '../store/attempts.js';
import type { Task } from '../task/task.js';

export const ATTEMPT_SCHEMA = 'frognano.attempt/v1';

export interface KeptAttempt {
  run: string;
  task: Task;
  heldOut: boolean;
  use: { kind: AttemptKind; step: number };
  res: Rollout;
  detail: AttemptDetail;
  dir: string;
}

/** Records the attempt and its task (once per run) in the log; a failure to keep it never fails the rollout. */
export function keepAttempt(log: AttemptLog, a: KeptAttempt): void {
  const { task, res, detail } = a;
  const trajectory = detail.trajectory ? slimTrajectory(detail.trajectory) : undefined;
  const tokens = trajectory?.turns.reduce((n, t) => n + (t.tokens?.ids.length ?? t.usage?.completionTokens ?? 0), 0) ?? null;
  try {
    log.addTask(a.run, {
      taskId: task.id,
      env: task.env.name,
      strategy: task.provenance.strategy,
      operators: [...new Set(task.provenance.edits.map((e) => e.operator))],
      bugs: task.knobs.bugs,
      hint: task.knobs.hint,
      heldOut: a.heldOut,
      dir: a.dir,
    });
    log.record(
      {
        run: a.run,
        step: a.use.step,
        kind: a.use.kind,
        taskId: task.id,
        policyVersion: res.policyVersion,
        reward: res.reward,
        verdict: res.verdict ?? null,
        cause: detail.report?.cause ?? null,
        stopReason: res.trajectory.stopReason,
        turns: res.steps,
        tokens: tokens || null,
        ms: res.ms,
        verifyMs: res.verifyMs,
        cached: res.cached,
        reason: res.reason ?? null,
      },
      {
        schema: ATTEMPT_SCHEMA,
        taskId: task.id,
        ...(trajectory ? { trajectory } : {}),
        ...(detail.change !== undefined ? { change: detail.change } : {}),
        ...(detail.report ? { report: detail.report } : {}),
      },
    );
  } catch (err) {
    // The dashboard's record is not worth a training run: say so once per failure and go on.
    console.error(`frognano: could not keep attempt of ${task.id}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The trajectory with each turn's prompt token ids replaced by their count. */
function slimTrajectory(t: HarnessTrajectory): HarnessTrajectory {
  return {
    ...t,
    turns: t.turns.map((turn) => {
      if (!turn.tokens?.promptIds) return turn;
      const { promptIds, ...tokens } = turn.tokens;
      return { ...turn, tokens, usage: { ...turn.usage, promptTokens: turn.usage?.promptTokens ?? promptIds.length } };
    }),
  };
}
