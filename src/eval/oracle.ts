// The scripted oracle: NOT a learned model. It applies a task's reference fix
// through the agent's own Write tool (and Bash `rm` for a file the fix
// deletes), then submits. It exists to test the harness, the verifier and the
// eval wiring end to end: on a valid task it must score 1. Its name,
// "scripted:oracle", is in every trajectory and report it produces.
import { ScriptedModel, type ScriptedReply } from '../model/scripted.js';
import { shellQuote } from '../util/shell.js';
import type { FixedFile } from '../task/reference.js';

/** One turn of Write calls (and rm for deletions), then a submit. */
export function oracleModel(files: FixedFile[]): ScriptedModel {
  const writes = files.filter((f) => f.content !== null).map((f) => ({ name: 'Write', arguments: { file_path: f.path, content: f.content! } }));
  const deletes = files.filter((f) => f.content === null).map((f) => ({ name: 'Bash', arguments: { command: `rm -f -- ${shellQuote(f.path)}` } }));
  const script: ScriptedReply[] = [
    { content: 'Scripted oracle: writing the reference fix (this is not a learned model).', toolCalls: [...writes, ...deletes] },
    { content: 'Scripted oracle: reference fix applied; submitting.' },
  ];
  return new ScriptedModel(script, { name: 'oracle' });
}
