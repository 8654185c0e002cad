// Read: a text file with numbered lines, a window of it at a time.
import { defineTool, schema, ToolError } from './define.js';
import { readRegularFile } from './files.js';
import { resolvePath } from './paths.js';
import { truncateLine } from './truncate.js';

export const DEFAULT_READ_LINES = 2000;
const MAX_LINE_CHARS = 2000;

/** `   12\tcode`: the line number right-aligned in six columns, a tab, the line. */
export function numberLines(lines: string[], first: number): string {
  return lines.map((l, i) => `${String(first + i).padStart(6)}\t${truncateLine(l, MAX_LINE_CHARS)}`).join('\n');
}

export const readTool = defineTool({
  name: 'Read',
  description:
    'Read a text file. Returns its lines numbered from 1 (number, tab, line). ' +
    `Shows at most ${DEFAULT_READ_LINES} lines; use offset (first line, 1-based) and limit to read a window of a long file.`,
  parameters: schema(
    {
      file_path: { type: 'string', description: 'Path of the file, relative to the workspace or absolute under it' },
      offset: { type: 'integer', minimum: 1, description: 'First line to show (1-based); default 1' },
      limit: { type: 'integer', minimum: 1, description: `How many lines to show; default ${DEFAULT_READ_LINES}` },
    },
    ['file_path'],
  ),
  async run(args, ctx) {
    const path = resolvePath(ctx, args.str('file_path'), 'read');
    const offset = args.optInt('offset', 1) ?? 1;
    const limit = args.optInt('limit', 1) ?? DEFAULT_READ_LINES;
    const text = readRegularFile(path.host, path.shown);
    if (text === '') return { output: `${path.shown} is empty.`, display: `Read ${path.rel}` };
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop(); // a final newline ends the last line, it is not a line of its own
    if (offset > lines.length) {
      throw new ToolError(`offset ${offset} is past the end of ${path.shown}, which has ${lines.length} lines`);
    }
    const shown = lines.slice(offset - 1, offset - 1 + limit);
    const last = offset - 1 + shown.length;
    let out = numberLines(shown, offset);
    if (offset > 1 || last < lines.length) {
      out += `\n[showing lines ${offset}-${last} of ${lines.length}` + (last < lines.length ? `; use offset=${last + 1} to read more]` : ']');
    }
    return { output: out, display: `Read ${path.rel} (${offset}-${last} of ${lines.length})` };
  },
});
