// Write: a whole file, creating it and its parent directories when missing.
import { defineTool, schema, ToolError } from './define.js';
import { isDirectory, writeFileSafely } from './files.js';
import { resolvePath } from './paths.js';

export const writeTool = defineTool({
  name: 'Write',
  description: 'Write a file with the given content, replacing it if it exists. Parent directories are created. Prefer Edit for changing part of a file.',
  parameters: schema(
    {
      file_path: { type: 'string', description: 'Path of the file, relative to the workspace or absolute under it' },
      content: { type: 'string', description: 'The complete new content of the file' },
    },
    ['file_path', 'content'],
  ),
  async run(args, ctx) {
    const path = resolvePath(ctx, args.str('file_path'), 'write');
    const content = args.str('content');
    if (isDirectory(path.host)) throw new ToolError(`${path.shown} is a directory`);
    const created = writeFileSafely(ctx, path.host, content);
    const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    const verb = created ? 'Created' : 'Overwrote';
    return { output: `${verb} ${path.shown} (${lines} lines, ${Buffer.byteLength(content)} bytes).`, display: `${verb} ${path.rel}` };
  },
});
