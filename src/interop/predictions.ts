// SWE-bench predictions: {instance_id, model_name_or_path, model_patch}, as
// the harness reads them (swebench/harness/utils.py get_predictions_from_file:
// a .jsonl of objects or a .json list). The patch is what the verifier would
// accept of the agent's diff: test files and runner configuration left out,
// so it applies to the exported base commit, whose failing tests come with
// the test patch.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Task } from '../task/task.js';
import { jsonLines } from '../util/json-lines.js';
import { acceptChanges } from '../verifier/changes.js';

export interface Prediction {
  instance_id: string;
  model_name_or_path: string;
  model_patch: string;
}

/** One prediction per task from its attempt `attempt` (an empty patch where the attempt left no readable diff). */
export function predictionsOf(
  tasks: readonly Task[],
  changes: ReadonlyMap<string, readonly (string | undefined)[]>,
  model: string,
  attempt: number,
): Prediction[] {
  return tasks.map((t) => {
    const change = changes.get(t.id)?.[attempt];
    return { instance_id: t.id, model_name_or_path: model, model_patch: change ? acceptChanges(change, t.env.spec.testPaths, t.hiddenFiles).patch : '' };
  });
}

/** The file for attempt i: `file` itself for the first, `name.attempt-<i>.jsonl` for the others. */
export function predictionsFile(file: string, attempt: number): string {
  return attempt === 0 ? file : file.replace(/(\.jsonl?)$/, `.attempt-${attempt}$1`);
}

/** Writes predictions as .jsonl (one object a line) or .json (a list), by the file's suffix. */
export function writePredictionsFile(file: string, preds: readonly Prediction[]): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, file.endsWith('.json') ? `${JSON.stringify(preds, null, 1)}\n` : jsonLines(preds));
}
