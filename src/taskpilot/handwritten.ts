// Hand-written bugs: a held-out set written by people in the style of real bug reports (an issue text, edits to the
// library's source, no operator behind them), never trained on. Each becomes a candidate that the validator proves
// like any other; the issue text is the task's instruction. Files: evidence/handwritten/<env>.json (docs/evidence/).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../util/errors.js';
import type { Candidate } from './candidate.js';
import type { SourceFile } from './sources.js';

const Edit = z.object({ file: z.string().min(1), find: z.string().min(1), replace: z.string() }).strict();
const Bug = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    title: z.string().min(1),
    issue: z.string().min(1),
    edits: z.array(Edit).min(1),
  })
  .strict();
const BugFile = z.object({ env: z.string().min(1), bugs: z.array(Bug) }).strict();

export type HandwrittenBug = z.infer<typeof Bug> & { env: string };

/** Every bug in a folder of <env>.json files (or one such file), checked: a malformed file is an error naming it. */
export function readHandwritten(path: string): HandwrittenBug[] {
  if (!existsSync(path)) throw new UserError(`no hand-written bugs at ${path}`, 'pass a folder of <env>.json files (evidence/handwritten)');
  const files = path.endsWith('.json')
    ? [path]
    : readdirSync(path)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(path, f));
  const out: HandwrittenBug[] = [];
  for (const file of files) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new UserError(`${file} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    const parsed = BugFile.safeParse(data);
    if (!parsed.success) throw new UserError(`${file} is not a hand-written bug file: ${z.prettifyError(parsed.error)}`);
    for (const b of parsed.data.bugs) out.push({ ...b, env: parsed.data.env });
  }
  const seen = new Set<string>();
  for (const b of out) {
    if (seen.has(b.id)) throw new UserError(`hand-written bug id ${b.id} appears twice`);
    seen.add(b.id);
  }
  return out;
}

/** The issue as the agent reads it: the title, then the body. */
export function issueText(bug: HandwrittenBug): string {
  return `# ${bug.title}\n\n${bug.issue.trim()}\n`;
}

/** The bug as a candidate on the environment's source: each edit's text must occur exactly once in its file. */
export function handwrittenCandidate(bug: HandwrittenBug, sources: readonly SourceFile[]): Candidate | { error: string } {
  const files: Candidate['files'] = {};
  for (const e of bug.edits) {
    const before = files[e.file]?.after ?? sources.find((s) => s.rel === e.file)?.text;
    if (before === undefined) return { error: `${bug.id}: ${e.file} is not a source file of ${bug.env}` };
    const at = before.indexOf(e.find);
    if (at < 0 || before.indexOf(e.find, at + 1) >= 0)
      return { error: `${bug.id}: the text to find occurs ${at < 0 ? 'nowhere' : 'more than once'} in ${e.file}` };
    files[e.file] = { before: files[e.file]?.before ?? before, after: before.slice(0, at) + e.replace + before.slice(at + e.find.length) };
  }
  return {
    env: bug.env,
    strategy: 'handwritten',
    operators: ['handwritten'],
    edits: bug.edits.map((e) => {
      const text = files[e.file]!.before;
      const at = text.indexOf(e.find);
      return { operator: bug.id, family: 'handwritten', file: e.file, line: at < 0 ? 0 : text.slice(0, at).split('\n').length, column: 0 };
    }),
    seeds: [],
    files,
    issue: issueText(bug),
  };
}
