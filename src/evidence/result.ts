// What a finished cell of the protocol leaves behind (runs/<cell>/result.json): enough to redo the analysis without
// rerunning anything.
import type { ForgettingPoint } from '../train/forgetting.js';
import type { HeldOutPoint, StopReason } from '../train/state.js';
import { isRecord } from '../util/guards.js';

/** A held-out point as the run state keeps it, without the per-task reach (large, and only the trainer needs it). */
export type CellPoint = Omit<HeldOutPoint, 'reachByTask'>;

export interface CellResult {
  schema: 'frognano.evidence-cell/v1';
  cell: string;
  heldOutEnv: string;
  arm: string;
  seed: number;
  /** Rollouts spent on training, probes included (held-out evaluations are not). */
  rollouts: number;
  stop: StopReason;
  /** The held-out solve rate (and the embedded policy's reach) at each evaluation, the untrained policy first. */
  heldOut: CellPoint[];
  final: { solved: number; attempts: number };
  /** The final policy on the hand-written bugs of the group's environments: passes of attempts, and passes per task. */
  handwritten: { solved: number; attempts: number; byTask: Record<string, number> };
  /** Rollouts spent on admission probes (part of `rollouts`). */
  probeRollouts?: number;
  /** The difficulty model's prediction for each probed task before its probe, with the probe's successes and rollouts. */
  calibration?: [number, number, number][];
  /** Training tasks solved earlier, tried again at each evaluation (absent when not tracked). */
  forgetting?: ForgettingPoint[];
  groups: number;
  degenerate: number;
  /** Wall-clock minutes of the run and its hand-written scoring, over all invocations. */
  minutes: number;
}

export function isCellResult(x: unknown): x is CellResult {
  if (!isRecord(x) || x.schema !== 'frognano.evidence-cell/v1') return false;
  const numbers = ['seed', 'rollouts', 'groups', 'degenerate', 'minutes'].every((k) => typeof x[k] === 'number');
  const strings = ['cell', 'heldOutEnv', 'arm', 'stop'].every((k) => typeof x[k] === 'string');
  const counts = (v: unknown) => isRecord(v) && typeof v.solved === 'number' && typeof v.attempts === 'number';
  const points = Array.isArray(x.heldOut) && x.heldOut.every((p) => isRecord(p) && typeof p.rollouts === 'number' && typeof p.solveRate === 'number');
  return numbers && strings && points && counts(x.final) && counts(x.handwritten);
}

/**
 * A result as the protocol schedules its evaluations: the untrained policy, every `evalEvery` steps and the end. A chunk
 * that stops a run part way evaluates it there too; such a point says where the chunk ended, not how the run learned, and
 * kept, it would make H2's first reach and the forgetting curve depend on how the run was split into chunks.
 */
export function onSchedule(r: CellResult, evalEvery: number): CellResult {
  const lastStep = r.heldOut.at(-1)?.step;
  const scheduled = (step: number) => step % evalEvery === 0 || step === lastStep;
  return {
    ...r,
    heldOut: r.heldOut.filter((p) => scheduled(p.step)),
    ...(r.forgetting ? { forgetting: r.forgetting.filter((f) => scheduled(f.step)) } : {}),
  };
}

/** A cell's final held-out solve rate (passes over scored attempts). */
export const finalRate = (r: CellResult): number => (r.final.attempts ? r.final.solved / r.final.attempts : 0);
export const handwrittenRate = (r: CellResult): number => (r.handwritten.attempts ? r.handwritten.solved / r.handwritten.attempts : 0);
