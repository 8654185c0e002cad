// Edit: replace an exact string in a file. Matching is exact on purpose: a
// model in training should learn precise edits, not lean on fuzzy repair.
import { existsSync } from 'node:fs';
import { defineTool, schema, ToolError } from './define.js';
import { readRegularFile, writeFileSafely } from './files.js';
import { resolvePath } from './paths.js';
import { numberLines } from './read.js';

const CONTEXT_LINES = 3;

/** How many non-overlapping times `needle` occurs in `hay`. */
export function countOccurrences(hay: string, needle: string): number {
  return needle === '' ? 0 : hay.split(needle).length - 1;
}

/** The edited region with a few lines around it, numbered like Read. */
function snippet(text: string, start: number, length: number): string {
  const lines = text.split('\n');
  const first = text.slice(0, start).split('\n').length - 1;
  const last = text.slice(0, start + length).split('\n').length - 1;
  const from = Math.max(0, first - CONTEXT_LINES);
  const to = Math.min(lines.length, last + CONTEXT_LINES + 1);
  return numberLines(lines.slice(from, to), from + 1);
}

export const editTool = defineTool({
  name: 'Edit',
  description:
    'Replace old_string with new_string in a file. old_string must match the file exactly (whitespace and indentation included) ' +
    'and must be unique unless replace_all is true; include enough surrounding lines to make it unique. ' +
    'An empty old_string creates a new file holding new_string.',
  parameters: schema(
    {
      file_path: { type: 'string', description: 'Path of the file, relative to the workspace or absolute under it' },
      old_string: { type: 'string', description: 'The exact text to replace' },
      new_string: { type: 'string', description: 'The text to put in its place' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence (default false)' },
    },
    ['file_path', 'old_string', 'new_string'],
  ),
  async run(args, ctx) {
    const path = resolvePath(ctx, args.str('file_path'), 'write');
    const oldString = args.str('old_string');
    const newString = args.str('new_string');
    const all = args.optBool('replace_all') ?? false;
    if (oldString === newString) throw new ToolError('old_string and new_string are the same; nothing would change');
    if (oldString === '') {
      if (existsSync(path.host)) throw new ToolError(`old_string is empty but ${path.shown} already exists; give the text to replace, or use Write`);
      writeFileSafely(ctx, path.host, newString);
      return { output: `Created ${path.shown}.`, display: `Created ${path.rel}` };
    }
    const text = readRegularFile(path.host, path.shown);
    const count = countOccurrences(text, oldString);
    if (count === 0) {
      throw new ToolError(`old_string was not found in ${path.shown}; it must match exactly, including whitespace and indentation (Read the file to copy it)`);
    }
    if (count > 1 && !all) {
      throw new ToolError(`old_string matches ${count} times in ${path.shown}; add surrounding lines to make it unique, or set replace_all to true`);
    }
    const start = text.indexOf(oldString);
    // split/join and slicing, never String.replace: `$&` in new_string must stay literal.
    const next = all ? text.split(oldString).join(newString) : text.slice(0, start) + newString + text.slice(start + oldString.length);
    writeFileSafely(ctx, path.host, next);
    const n = all ? count : 1;
    return {
      output: `Edited ${path.shown}: replaced ${n} occurrence${n === 1 ? '' : 's'}.\n${snippet(next, start, newString.length)}`,
      display: `Edited ${path.rel} (${n})`,
    };
  },
});
