// Glob: files whose path (relative to the search directory) matches a
// pattern. The walk never follows symlinks, so a planted link to / or a
// link loop cannot lead it outside the workspace or around in circles.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { globToRegExp } from '../../util/glob.js';
import { defineTool, schema, ToolError } from './define.js';
import { isDirectory } from './files.js';
import { resolvePath } from './paths.js';

export const MAX_GLOB_RESULTS = 200;
const MAX_VISITED = 100_000;
const SKIP = new Set(['.git', 'node_modules']);

/** Expands `{a,b}` alternatives (nested ones too) into separate patterns. */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
  let depth = 0;
  const parts: string[] = [];
  let from = open + 1;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      parts.push(pattern.slice(from, i));
      const head = pattern.slice(0, open);
      const tail = pattern.slice(i + 1);
      return parts.flatMap((p) => expandBraces(head + p + tail));
    } else if (c === ',' && depth === 1) {
      parts.push(pattern.slice(from, i));
      from = i + 1;
    }
  }
  return [pattern]; // unbalanced: taken literally
}

/** Files under `dir` (relative paths, '/' separated), skipping .git and node_modules. */
function walk(dir: string, visit: (rel: string) => void): boolean {
  const stack = [''];
  let visited = 0;
  while (stack.length) {
    const rel = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      continue; // unreadable directory
    }
    for (const e of entries) {
      if (++visited > MAX_VISITED) return false;
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP.has(e.name)) stack.push(path);
      } else visit(path); // files and symlinks (listed, never followed)
    }
  }
  return true;
}

export const globTool = defineTool({
  name: 'Glob',
  description:
    'Find files by name pattern, e.g. "**/*.py" or "src/**/*.{ts,js}". `*` and `?` stay within one directory, `**` spans directories. ' +
    `Returns matching paths relative to the workspace, sorted, at most ${MAX_GLOB_RESULTS}; .git and node_modules are skipped.`,
  parameters: schema(
    {
      pattern: { type: 'string', description: 'Glob pattern, relative to path' },
      path: { type: 'string', description: 'Directory to search in; default the workspace root' },
    },
    ['pattern'],
  ),
  async run(args, ctx) {
    const pattern = args.str('pattern').trim().replace(/^\.\//, '');
    if (!pattern) throw new ToolError('the pattern is empty');
    const base = resolvePath(ctx, args.optStr('path') ?? '.', 'read');
    if (!isDirectory(base.host)) throw new ToolError(`${base.shown} is not a directory`);
    const res = expandBraces(pattern).map(globToRegExp);
    const found: string[] = [];
    const complete = walk(base.host, (rel) => {
      if (res.some((re) => re.test(rel))) found.push(base.rel ? `${base.rel}/${rel}` : rel);
    });
    found.sort();
    let out = found.slice(0, MAX_GLOB_RESULTS).join('\n');
    if (found.length === 0) {
      out = `No files match ${pattern} under ${base.shown}.` + (pattern.includes('/') ? '' : ` To search subdirectories too, use **/${pattern}.`);
    }
    if (found.length > MAX_GLOB_RESULTS) out += `\n[${found.length - MAX_GLOB_RESULTS} more matches not shown; narrow the pattern]`;
    if (!complete) out += `\n[stopped after visiting ${MAX_VISITED} entries; search a smaller directory]`;
    return { output: out, display: `Glob ${pattern}: ${found.length}` };
  },
});
