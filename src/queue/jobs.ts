// The jobs a queue carries and what comes back. A job names its inputs by
// artifact key (tasks and policy versions travel once, not per job) and is
// identified by a hash of what decides its result, so a job pushed twice (a
// trainer that crashed and resumed) is one job, and its finished result is
// found instead of recomputed. Results travel gzipped: trajectories are text.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { canonicalJson } from '../util/canonical-json.js';
import { REFUSAL_CODES } from '../workspace/scan.js';

/** Who acts in a rollout job: a published policy version, or a model the worker makes from evaluation's flags. */
export const ActorSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('policy'), snapshot: z.string(), learner: z.string(), version: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('flags'), flags: z.record(z.string(), z.union([z.string(), z.boolean()])) }),
]);
export type ActorSpec = z.infer<typeof ActorSpecSchema>;

const base = {
  /** The trainer's or evaluation's run: jobs of different runs never share a result. */
  run: z.string().min(1),
};

export const RolloutJobSchema = z.object({
  ...base,
  kind: z.literal('rollout'),
  task: z.string(),
  actor: ActorSpecSchema,
  /** One attempt per seed (K attempts), each with the harness's infrastructure retry. */
  seeds: z.array(z.number().int()).min(1).max(64),
  version: z.number().int().nonnegative(),
  maxSteps: z.number().int().positive().optional(),
  /** The seed of a try after an infrastructure failure: derived from the attempt's (training) or the same (evaluation). */
  retrySeed: z.enum(['derived', 'same']),
});

export const GradeJobSchema = z.object({
  ...base,
  kind: z.literal('grade'),
  task: z.string(),
  /** The agent's diff, or why the host refused to read its workspace. */
  change: z.union([z.string(), z.object({ refused: z.object({ code: z.enum(REFUSAL_CODES), message: z.string() }) })]),
});

export const ValidateJobSchema = z.object({
  ...base,
  kind: z.literal('validate'),
  env: z.object({ name: z.string(), hash: z.string() }),
  change: z.object({ bugPatch: z.string(), fixPatch: z.string(), originals: z.record(z.string(), z.string()) }),
  referenceRuns: z.number().int().positive().max(10),
  candidateRuns: z.number().int().positive().max(10),
});

export const JobSchema = z.discriminatedUnion('kind', [RolloutJobSchema, GradeJobSchema, ValidateJobSchema]);
export type Job = z.infer<typeof JobSchema>;
export type JobKind = Job['kind'];
export type RolloutJob = z.infer<typeof RolloutJobSchema>;
export type GradeJob = z.infer<typeof GradeJobSchema>;
export type ValidateJob = z.infer<typeof ValidateJobSchema>;

/** A job's id: a hash of everything that decides its result (BullMQ ignores a second job with an id it holds). */
export function jobId(job: Job): string {
  return `${job.kind}-${createHash('sha256').update(canonicalJson(job)).digest('hex').slice(0, 32)}`;
}

/** What a worker returns: the result, gzipped JSON in base64, and how long the work itself took. */
export interface JobReturn {
  data: string;
  workMs: number;
  worker: string;
}

export function packResult(value: unknown, workMs: number, worker: string): JobReturn {
  return { data: gzipSync(JSON.stringify(value)).toString('base64'), workMs: Math.round(workMs), worker };
}

/** The result as the worker made it (JSON, typed by the job's kind at the caller). */
export function unpackResult(ret: unknown) {
  const r: unknown = typeof ret === 'string' ? JSON.parse(ret) : ret;
  if (typeof r !== 'object' || r === null || !('data' in r) || typeof r.data !== 'string') throw new Error('a job result without data');
  const workMs = 'workMs' in r && typeof r.workMs === 'number' ? r.workMs : 0;
  const worker = 'worker' in r && typeof r.worker === 'string' ? r.worker : '?';
  return { value: JSON.parse(gunzipSync(Buffer.from(r.data, 'base64')).toString('utf8')), workMs, worker };
}
