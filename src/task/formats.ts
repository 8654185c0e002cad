// Task interchange: SWE-bench JSONL and SWE-smith JSONL records (export and
// import); the repositories, images and Harbor directories around them are
// in src/interop/.
//
// SWE-bench's `patch` is the gold fix and FAIL_TO_PASS / PASS_TO_PASS are
// JSON-encoded strings; SWE-smith's `patch` introduces the bug and the lists
// are plain arrays. Our own fields ride along under "frognano", which other
// tools ignore, so an export imports back to the same task.
import { isRecord, isStringArray } from '../util/guards.js';
import type { EnvironmentSpec } from '../env/spec.js';
import { TASK_SCHEMA, type Task } from './task.js';

type Extra = Pick<Task, 'id' | 'bugPatch' | 'fixPatch' | 'hiddenFiles' | 'heldBack' | 'grading' | 'knobs' | 'provenance' | 'stats'> & { env: Task['env'] };

/** Our own fields as toSweBench wrote them, checked as far as a task is read from them. */
function isExtra(x: unknown): x is Extra {
  return (
    isRecord(x) &&
    (x.id === undefined || typeof x.id === 'string') &&
    typeof x.bugPatch === 'string' &&
    typeof x.fixPatch === 'string' &&
    isStringArray(x.hiddenFiles) &&
    isRecord(x.env) &&
    isRecord(x.knobs) &&
    isRecord(x.provenance) &&
    isRecord(x.stats)
  );
}

function extra(t: Task): Extra {
  return {
    // The task's own id: another tool's naming may rename the instance (SWE-smith's export does).
    id: t.id,
    bugPatch: t.bugPatch,
    fixPatch: t.fixPatch,
    hiddenFiles: t.hiddenFiles,
    ...(t.heldBack ? { heldBack: t.heldBack } : {}),
    ...(t.grading ? { grading: t.grading } : {}),
    knobs: t.knobs,
    provenance: t.provenance,
    stats: t.stats,
    env: t.env,
  };
}

export function toSweBench(t: Task): Record<string, unknown> {
  return {
    repo: `frognano/${t.env.name}`,
    instance_id: t.id,
    base_commit: t.env.hash,
    patch: t.fixPatch,
    test_patch: '',
    problem_statement: t.instruction,
    hints_text: '',
    created_at: t.stats.createdAt,
    version: '1',
    FAIL_TO_PASS: JSON.stringify(t.FAIL_TO_PASS),
    PASS_TO_PASS: JSON.stringify(t.PASS_TO_PASS),
    environment_setup_commit: t.env.hash,
    frognano: extra(t),
  };
}

export function toSweSmith(t: Task): Record<string, unknown> {
  return {
    instance_id: t.id,
    repo: `frognano/${t.env.name}`,
    patch: t.bugPatch,
    FAIL_TO_PASS: t.FAIL_TO_PASS,
    PASS_TO_PASS: t.PASS_TO_PASS,
    created_at: t.stats.createdAt,
    image_name: `frognano.${t.env.name}.${t.env.hash}`,
    base_commit: t.env.hash,
    problem_statement: t.instruction,
    frognano: extra(t),
  };
}

function list(v: unknown, field: string): string[] {
  const parsed = typeof v === 'string' ? JSON.parse(v) : v;
  if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string')) throw new Error(`${field} is not a list of test ids`);
  return parsed;
}

/**
 * A record without our own fields needs its environment and the patch in the
 * other direction, which the caller computes against the snapshot.
 */
export interface ForeignContext {
  env: { name: string; hash: string; spec: EnvironmentSpec };
  /** Reverses a patch against the environment's snapshot. */
  reverse: (patch: string) => Promise<string>;
}

export async function fromRecord(format: 'swebench' | 'swesmith', rec: Record<string, unknown>, foreign?: ForeignContext): Promise<Task> {
  const f2p = list(rec.FAIL_TO_PASS, 'FAIL_TO_PASS');
  const p2p = list(rec.PASS_TO_PASS, 'PASS_TO_PASS');
  const own = isExtra(rec.frognano) ? rec.frognano : undefined;
  const base = {
    schema: TASK_SCHEMA as typeof TASK_SCHEMA,
    id: String(rec.instance_id),
    instruction: String(rec.problem_statement ?? ''),
    FAIL_TO_PASS: f2p,
    PASS_TO_PASS: p2p,
  };
  if (own) return { ...base, ...own };
  if (!foreign) throw new Error(`${rec.instance_id}: a record from another tool needs --env, the environment it runs in`);
  const given = String(rec.patch ?? '');
  const [bugPatch, fixPatch] = format === 'swesmith' ? [given, await foreign.reverse(given)] : [await foreign.reverse(given), given];
  return {
    ...base,
    env: foreign.env,
    bugPatch,
    fixPatch,
    hiddenFiles: [],
    knobs: { bugs: 1, hint: 'full', visibility: 'visible', families: [] },
    provenance: { strategy: 'imported', edits: [], seeds: [], original: rec },
    stats: { createdAt: String(rec.created_at ?? new Date().toISOString()) },
  };
}
