// `frognano traj export`: stored trajectories in the formats other tools read:
// Harbor's ATIF, mini-swe-agent's trajectory file, OpenAI-messages JSONL.
// From a run's attempts in the store (training, probes, held-out evaluations)
// or from the files `eval --trajectories DIR` wrote; each carries its diff,
// which becomes mini's submission. By default the run "default", written
// under its run directory (runs/default/export/<format>).
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { toAtif, toMiniSweAgent, toOpenAIJsonl } from '../agent/export.js';
import { parseTrajectoryLines, TRAJECTORY_SCHEMA, type Trajectory } from '../agent/trajectory.js';
import { type AttemptKind, readArtifact, runAttempts } from '../store/attempts.js';
import { Store } from '../store/store.js';
import { readBounded } from '../util/bounded-read.js';
import { errorMessage, UserError } from '../util/errors.js';
import { isOneOf, isRecord } from '../util/guards.js';
import { dataDir } from '../util/paths.js';
import type { CliContext } from './context.js';
import { stringFlag } from './flags.js';

export const TRAJ_HELP = `Usage:
  frognano traj export --format atif|mini|openai [--run NAME [--kind K] | --from DIR] [--out DIR|FILE.jsonl]

  --format F     atif: one Harbor ATIF file per attempt; mini: one mini-swe-agent file per
                 attempt, its submission the attempt's diff; openai: one OpenAI-messages JSONL
                 file, a line per attempt
  --run NAME     a run's attempts from the store (train, or evidence cells by their run
                 name; default: the run "default")
  --kind K       only attempts of this kind: train, probe, more, eval (default all)
  --from DIR     the files eval --trajectories DIR wrote (DIR/<task>/attempt-<i>.jsonl, its
                 diff beside) instead of a run
  --out PATH     where to write, printed at the end: a folder (atif, mini) or a .jsonl file
                 (openai); default <data-dir>/runs/NAME/export/<format> (<format>-<kind> with
                 --kind; openai: a .jsonl file of that name) for a run, DIR-<format> (openai:
                 DIR-openai.jsonl) beside --from DIR

Files written, atif and mini (a folder per task):
  from a run:    OUT/<task>/<kind>-<attempt id>.json (atif) or .traj.json (mini)
  from --from:   OUT/<task>/attempt-<i>.json (atif) or .traj.json (mini)
openai writes the one file OUT (ending in .jsonl).
Attempts whose trajectory was pruned (frognano gc) are counted and skipped.`;

const FORMATS = ['atif', 'mini', 'openai'] as const;
const KINDS = ['train', 'probe', 'more', 'eval'] as const;
/** A trajectory file read back is never larger than this. */
const MAX_TRAJECTORY_BYTES = 64 * 1024 * 1024;

interface Found {
  /** A name for its file: the task and the attempt. */
  name: string;
  trajectory: Trajectory;
  diff?: string;
}

function isTrajectory(x: unknown): x is Trajectory {
  return isRecord(x) && x.schema === TRAJECTORY_SCHEMA && isRecord(x.meta) && Array.isArray(x.messages) && Array.isArray(x.turns);
}

function safe(name: string): string {
  return name.replace(/[^A-Za-z0-9._/-]/g, '_').replace(/\.\.+/g, '.');
}

function fromStore(dir: string, run: string, kind: AttemptKind | undefined, err: (l: string) => void): Found[] {
  const store = new Store(dir);
  try {
    const attempts = runAttempts(store, run, kind);
    if (attempts.length === 0)
      throw new UserError(
        `no attempts of run "${run}"${kind ? ` of kind ${kind}` : ''} in ${dir}`,
        'train one first (frognano train), or pass --run NAME (frognano gc lists the runs) or --from DIR',
      );
    const out: Found[] = [];
    let pruned = 0;
    for (const a of attempts) {
      if (a.artifact === null) {
        pruned++;
        continue;
      }
      try {
        const art = readArtifact(dir, a.artifact);
        if (!isRecord(art) || !isTrajectory(art.trajectory)) continue;
        out.push({ name: safe(`${a.taskId}/${a.kind}-${a.id}`), trajectory: art.trajectory, ...(typeof art.change === 'string' ? { diff: art.change } : {}) });
      } catch (e) {
        err(`skipped attempt ${a.id}: its file cannot be read (${errorMessage(e)})`);
      }
    }
    if (pruned) err(`${pruned} of ${attempts.length} attempts had their trajectories pruned and are skipped`);
    return out;
  } finally {
    store.close();
  }
}

function fromFiles(root: string): Found[] {
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UserError(`${root} is not a directory`, 'pass the directory eval --trajectories wrote');
  const out: Found[] = [];
  const walk = (d: string, depth: number) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory() && depth < 4) walk(p, depth + 1);
      else if (st.isFile() && name.endsWith('.jsonl')) {
        const diff = p.replace(/\.jsonl$/, '.diff');
        out.push({
          name: safe(relative(root, p).replace(/\.jsonl$/, '')),
          trajectory: parseTrajectoryLines(readBounded(p, MAX_TRAJECTORY_BYTES).toString('utf8')),
          ...(existsSync(diff) ? { diff: readBounded(diff, MAX_TRAJECTORY_BYTES).toString('utf8') } : {}),
        });
      }
    }
  };
  walk(root, 0);
  if (out.length === 0) throw new UserError(`no trajectory files (*.jsonl) under ${root}`, 'run eval with --trajectories DIR first');
  return out;
}

export async function trajCommand(ctx: CliContext): Promise<number> {
  const [sub] = ctx.positionals;
  if (sub !== 'export') throw new UserError(sub ? `unknown traj command "${sub}"` : 'missing traj command', 'use frognano traj export');
  const f = ctx.flags;
  const format = stringFlag(f, 'format');
  if (!format || !isOneOf(FORMATS, format)) throw new UserError(`--format must be one of ${FORMATS.join(', ')}`, 'e.g. --format atif');
  const from = stringFlag(f, 'from');
  const given = stringFlag(f, 'run');
  if (given && from) throw new UserError('pass one of --run and --from, not both', 'a run in the store, or the directory eval --trajectories wrote');
  const kind = stringFlag(f, 'kind');
  if (kind !== undefined && !isOneOf(KINDS, kind)) throw new UserError(`--kind must be one of ${KINDS.join(', ')}`);
  if (kind !== undefined && from) throw new UserError("--kind selects a run's attempts; the files of --from have no kind", 'drop --kind, or pass --run');
  // The files of --from need no data directory; a run's attempts are in its store.
  const run = from ? undefined : { name: given ?? 'default', dir: dataDir(stringFlag(f, 'data-dir')) };
  const suffix = format === 'openai' ? '.jsonl' : '';
  const out =
    stringFlag(f, 'out') ??
    (run ? join(run.dir, 'runs', safe(run.name), 'export', `${format}${kind ? `-${kind}` : ''}${suffix}`) : `${resolve(from!)}-${format}${suffix}`);
  if (format === 'openai' && !out.endsWith('.jsonl'))
    throw new UserError(`--out ${out}: OpenAI-messages JSONL goes to a .jsonl file`, 'e.g. --out trajectories.jsonl');
  const found = run ? fromStore(run.dir, run.name, kind, ctx.err) : fromFiles(resolve(from!));
  if (format === 'openai') {
    mkdirSync(dirname(resolve(out)), { recursive: true });
    writeFileSync(out, toOpenAIJsonl(found.map((x) => x.trajectory)));
  } else {
    for (const x of found) {
      const file = join(out, `${x.name}${format === 'mini' ? '.traj.json' : '.json'}`);
      mkdirSync(dirname(file), { recursive: true });
      const doc = format === 'mini' ? toMiniSweAgent(x.trajectory, { submission: x.diff ?? '' }) : toAtif(x.trajectory);
      writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    }
  }
  ctx.out(`exported ${found.length} trajectories as ${format} to ${resolve(out)}`);
  return 0;
}
