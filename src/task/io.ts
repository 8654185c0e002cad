// Task directories: self-describing, one file per concern.
//   task.json         id, knobs, provenance, statistics
//   instruction.md    what the agent is told
//   bug.patch         introduces the bug into the environment's snapshot
//   fix.patch         the reference fix
//   tests.json        FAIL_TO_PASS, PASS_TO_PASS, hidden test files, held-back tests
//   grading.json      the graded run's layout: honeypots and moved files (absent on older tasks)
//   environment.json  the environment's spec and source hash it was made on
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { writeTextAtomic } from '../util/atomic-json.js';
import { join } from 'node:path';
import { validateSpec } from '../env/spec.js';
import { isRecord, isStringArray } from '../util/guards.js';
import { TASK_SCHEMA, type GradingLayout, type Strategy, type Task } from './task.js';

const GRADING_FILE = 'grading.json';

export function taskId(envName: string, strategy: Strategy, bugPatch: string): string {
  return `${envName}.${strategy}__${createHash('sha256').update(bugPatch).digest('hex').slice(0, 8)}`;
}

/** Writes a task directory whole or not at all: its files go to a hidden staging folder that is renamed into place. */
export function writeTask(root: string, task: Task): string {
  const dir = join(root, task.id);
  const staging = join(root, `.${task.id}.tmp-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const { bugPatch, fixPatch, instruction, FAIL_TO_PASS, PASS_TO_PASS, hiddenFiles, heldBack, grading, env, ...meta } = task;
    writeFileSync(join(staging, 'task.json'), JSON.stringify({ ...meta, env: { name: env.name, hash: env.hash } }, null, 2) + '\n');
    writeFileSync(join(staging, 'instruction.md'), instruction);
    writeFileSync(join(staging, 'bug.patch'), bugPatch);
    writeFileSync(join(staging, 'fix.patch'), fixPatch);
    writeFileSync(join(staging, 'tests.json'), JSON.stringify({ FAIL_TO_PASS, PASS_TO_PASS, hiddenFiles, ...(heldBack ? { heldBack } : {}) }, null, 2) + '\n');
    if (grading) writeGrading(staging, grading);
    writeFileSync(join(staging, 'environment.json'), JSON.stringify({ ...env.spec, 'x-frognano-source-hash': env.hash }, null, 2) + '\n');
    // An older copy is kept aside until the new one is in place: a crash between loses neither (both stay on disk).
    const old = `${staging}.old`;
    if (existsSync(dir)) renameSync(dir, old);
    renameSync(staging, dir);
    rmSync(old, { recursive: true, force: true });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  return dir;
}

export function readTask(dir: string): Task {
  const need = ['task.json', 'instruction.md', 'bug.patch', 'fix.patch', 'tests.json', 'environment.json'];
  const missing = need.filter((f) => !existsSync(join(dir, f)));
  if (missing.length) throw new Error(`${dir} is not a task directory: missing ${missing.join(', ')}`);
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  const meta = JSON.parse(read('task.json'));
  if (meta.schema !== TASK_SCHEMA) throw new Error(`${dir}/task.json: schema is ${JSON.stringify(meta.schema)}, expected ${TASK_SCHEMA}`);
  const tests = JSON.parse(read('tests.json'));
  const { 'x-frognano-source-hash': hash, ...rawSpec } = JSON.parse(read('environment.json'));
  return {
    ...meta,
    env: { name: meta.env.name, hash: hash ?? meta.env.hash, spec: validateSpec(rawSpec, join(dir, 'environment.json')) },
    instruction: read('instruction.md'),
    bugPatch: read('bug.patch'),
    fixPatch: read('fix.patch'),
    FAIL_TO_PASS: tests.FAIL_TO_PASS,
    PASS_TO_PASS: tests.PASS_TO_PASS,
    hiddenFiles: tests.hiddenFiles ?? [],
    ...(Array.isArray(tests.heldBack) ? { heldBack: tests.heldBack } : {}),
    ...(existsSync(join(dir, GRADING_FILE)) ? { grading: JSON.parse(read(GRADING_FILE)) } : {}),
  };
}

/** Stores a task's graded layout in its directory (also for older tasks that gain one). */
export function writeGrading(dir: string, grading: GradingLayout): void {
  writeTextAtomic(join(dir, GRADING_FILE), JSON.stringify(grading, null, 1) + '\n');
}

/** Every task directory under root. */
export function readTasks(root: string): Task[] {
  if (!existsSync(root)) return [];
  if (existsSync(join(root, 'task.json'))) return [readTask(root)];
  return readdirSync(root)
    .filter((d) => !d.startsWith('.') && existsSync(join(root, d, 'task.json')))
    .sort()
    .map((d) => readTask(join(root, d)));
}

/** A task sent as one JSON value (a queue's job input): the same checks as a task directory gets. */
export function taskFromJSON(text: string, where: string): Task {
  const raw = JSON.parse(text);
  const value: unknown = raw;
  if (!isRecord(value) || value.schema !== TASK_SCHEMA) throw new Error(`${where}: not a ${TASK_SCHEMA} task`);
  const env = value.env;
  if (!isRecord(env) || typeof env.name !== 'string' || typeof env.hash !== 'string') throw new Error(`${where}: the task names no environment`);
  for (const k of ['id', 'instruction', 'bugPatch', 'fixPatch'] as const)
    if (typeof value[k] !== 'string') throw new Error(`${where}: the task's ${k} is not text`);
  for (const k of ['FAIL_TO_PASS', 'PASS_TO_PASS', 'hiddenFiles'] as const)
    if (!isStringArray(value[k])) throw new Error(`${where}: the task's ${k} is not a list of names`);
  const spec = validateSpec(env.spec, `${where} (environment)`);
  return { ...raw, env: { name: env.name, hash: env.hash, spec } };
}
