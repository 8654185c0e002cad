// The tasks an evaluation runs: a task directory, a folder of them, or a
// SWE-bench / SWE-smith JSONL file (FrogNano's own exports import exactly;
// records from other tools need the environment they run in).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fromRecord, type ForeignContext } from '../task/formats.js';
import { readTasks } from '../task/io.js';
import type { Task } from '../task/task.js';
import { errorMessage, UserError } from '../util/errors.js';
import { isRecord } from '../util/guards.js';

export type JsonlFormat = 'swebench' | 'swesmith';

export interface TaskSourceOptions {
  /** Forces the JSONL format; otherwise it is told from each record. */
  format?: string;
  /** For records from other tools: their environment, reversing patches the way the format needs (called once per format). */
  foreign?: (format: JsonlFormat) => Promise<ForeignContext>;
}

/** SWE-bench keeps the test lists as JSON text; SWE-smith as arrays (and names an image). */
export function detectFormat(rec: Record<string, unknown>): JsonlFormat {
  return typeof rec.FAIL_TO_PASS === 'string' ? 'swebench' : 'swesmith';
}

async function fromJsonl(file: string, opts: TaskSourceOptions): Promise<Task[]> {
  if (opts.format !== undefined && opts.format !== 'swebench' && opts.format !== 'swesmith') {
    throw new UserError(`unknown task format "${opts.format}"`, 'use --format swebench or swesmith (or leave it out to tell from each record)');
  }
  const foreign = new Map<JsonlFormat, ForeignContext>();
  const tasks: Task[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      throw new UserError(`${file}:${i + 1} is not JSON: ${errorMessage(err)}`, 'one SWE-bench or SWE-smith record per line');
    }
    if (!isRecord(parsed) || !parsed.instance_id) throw new UserError(`${file}:${i + 1} is not a task record (no instance_id)`);
    const rec = parsed;
    const format = (opts.format as JsonlFormat | undefined) ?? detectFormat(rec);
    if (!rec.frognano && !foreign.has(format)) {
      if (!opts.foreign)
        throw new UserError(
          `${file}:${i + 1} (${String(rec.instance_id)}) comes from another tool and needs its environment`,
          'pass --env NAME, a registered environment holding that repository',
        );
      foreign.set(format, await opts.foreign(format));
    }
    try {
      tasks.push(await fromRecord(format, rec, foreign.get(format)));
    } catch (err) {
      throw new UserError(`${file}:${i + 1}: ${errorMessage(err)}`);
    }
  }
  return tasks;
}

export async function loadEvalTasks(source: string, opts: TaskSourceOptions = {}): Promise<Task[]> {
  if (!existsSync(source))
    throw new UserError(`${source} does not exist`, 'pass --tasks DIR (task directories) or --tasks FILE.jsonl (SWE-bench / SWE-smith records)');
  let tasks: Task[];
  if (statSync(source).isDirectory()) {
    try {
      tasks = readTasks(source);
    } catch (err) {
      throw new UserError(errorMessage(err), 'fix or remove that task directory');
    }
  } else {
    tasks = await fromJsonl(source, opts);
  }
  if (tasks.length === 0)
    throw new UserError(
      `no tasks in ${source}`,
      'pass a task directory, a folder of task directories (e.g. <data-dir>/tasks after `frognano synth`), or a .jsonl file',
    );
  const seen = new Set<string>();
  for (const t of tasks) {
    if (seen.has(t.id)) throw new UserError(`task ${t.id} appears twice in ${source}`, 'remove the duplicate');
    seen.add(t.id);
  }
  return tasks;
}
