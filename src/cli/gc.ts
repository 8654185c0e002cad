// `frognano gc`: what the store keeps of runs and their attempts, and pruning:
// whole runs (by name, or all but the most recent), or the oldest trajectory
// files down to a disk budget (their outcomes stay).
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RunQueries } from '../serve/runs.js';
import { artifactBytes, DEFAULT_ATTEMPT_BUDGET_MB, forgetRun, pruneToBudget } from '../store/attempts.js';
import { Store } from '../store/store.js';
import { UserError } from '../util/errors.js';
import { acquireLock, describeHolder, type HeldLock, liveHolder, LockHeldError } from '../util/lock.js';
import { dataDir } from '../util/paths.js';
import { table } from '../util/table.js';
import type { CliContext } from './context.js';
import { commandLine, intFlag, numberFlag, stringFlag } from './flags.js';

export const GC_HELP = `Usage: frognano gc [--run LIST] [--keep-runs N] [--keep-mb M] [--dry-run] [--yes]

Lists what the store keeps per run (attempts, trajectory files, bytes per
rollout), then prunes:
  --run LIST       remove these runs whole: their attempts, trajectories, metrics and
                   their directory under runs/ (state, checkpoint, task bank)
  --keep-runs N    prune every run but the N most recently updated: their attempts,
                   trajectories and task banks go; their checkpoint, state, metrics and
                   reports stay (name a run with --run to remove it whole)
  --keep-mb M      delete the oldest trajectory files until at most M MiB remain
                   (default ${DEFAULT_ATTEMPT_BUDGET_MB}, the budget train keeps by default); their
                   outcomes and verdicts stay
  --dry-run        say what would be removed, remove nothing
  --yes            remove runs without asking (needed where there is no terminal to ask on)
Removing or pruning a run shows what goes and asks first. A run in use (its
lock held by a live train or evidence run) is never removed.`;

const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
/** What a pruned run's folder loses (its task bank); the checkpoint, state, metrics and the user's own reports and exports stay. */
const PRUNED = ['tasks'];

type Action = 'remove' | 'prune';

export async function gcCommand(ctx: CliContext): Promise<number> {
  const f = ctx.flags;
  const dir = dataDir(stringFlag(f, 'data-dir'));
  const store = new Store(dir);
  try {
    const runs = new RunQueries(store, dir).list();
    const dry = Boolean(f['dry-run']);
    const named = (stringFlag(f, 'run') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = named.filter((n) => !runs.some((r) => r.name === n));
    if (unknown.length) throw new UserError(`no run named ${unknown.join(', ')}`, `runs here: ${runs.map((r) => r.name).join(', ') || 'none'}`);
    const runsDir = resolve(dir, 'runs');
    for (const name of named) {
      // A run's name becomes a path: only a folder directly under runs/ is ever removed.
      if (dirname(resolve(runsDir, name)) !== runsDir) throw new UserError(`run name ${JSON.stringify(name)} is not a folder name under runs/`);
      const holder = liveHolder(join(runsDir, name));
      if (holder) throw new LockHeldError(`run "${name}"`, holder);
    }
    const keep = f['keep-runs'] === undefined ? undefined : intFlag(f['keep-runs'], '--keep-runs', 0);
    const plan = new Map<string, Action>(named.map((n) => [n, 'remove']));
    if (keep !== undefined)
      for (const r of runs.slice(keep)) if (!plan.has(r.name) && (r.attempts > 0 || existsSync(join(runsDir, r.name, 'tasks')))) plan.set(r.name, 'prune');
    for (const r of runs) {
      if (!plan.has(r.name) || named.includes(r.name)) continue;
      const holder = liveHolder(join(runsDir, r.name));
      if (holder || r.status === 'running') {
        ctx.err(`run ${r.name} is in use${holder ? ` by ${describeHolder(holder)}` : ' (training now)'}: kept`);
        plan.delete(r.name);
      }
    }
    const bytes = new Map(runs.map((r) => [r.name, artifactBytes(store, r.name)]));
    const verb = (a: Action) => `${dry ? 'would ' : ''}${a === 'remove' ? 'remove' : 'prune (checkpoint kept)'}`;
    const rows = runs.map((r) => {
      const b = bytes.get(r.name) ?? 0;
      const files = store.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM attempts WHERE run = ? AND artifact IS NOT NULL').get(r.name)?.n ?? 0;
      const a = plan.get(r.name);
      return [r.name, r.status, String(r.attempts), String(files), mib(b), files ? `${(b / files / 1024).toFixed(1)} KiB` : '-', a ? verb(a) : ''];
    });
    ctx.out(table(['run', 'status', 'attempts', 'trajectory files', 'bytes', 'per rollout', 'action'], rows));
    if (plan.size && !dry && !f.yes) {
      const what = [...plan].map(([n, a]) => `${n} (${a === 'remove' ? 'whole' : 'all but its checkpoint'})`).join(', ');
      if (!ctx.ask)
        throw new UserError(`gc would remove runs: ${what}`, 'pass --yes to remove them (there is no terminal to ask on), or --dry-run to see what would go');
      const answer = (await ctx.ask(`remove ${plan.size === 1 ? 'this run' : `these ${plan.size} runs`}: ${what}? [y/N] `)).trim().toLowerCase();
      if (answer !== 'y' && answer !== 'yes') {
        ctx.err('nothing removed');
        return 1;
      }
    }
    let freed = 0;
    for (const [name, action] of plan) {
      if (dry) {
        freed += bytes.get(name) ?? 0;
        continue;
      }
      const runDir = join(runsDir, name);
      // Held while removing: a train started since the check above (or while we asked) is not cut from under.
      let lock: HeldLock | undefined;
      try {
        if (existsSync(runDir)) lock = acquireLock(runDir, `run "${name}"`, commandLine(ctx), ctx.err);
      } catch (err) {
        if (!(err instanceof LockHeldError) || named.includes(name)) throw err;
        ctx.err(`${err.message}: kept`);
        plan.delete(name);
        continue;
      }
      freed += bytes.get(name) ?? 0;
      forgetRun(store, dir, name);
      if (action === 'remove') rmSync(runDir, { recursive: true, force: true });
      else for (const e of PRUNED) rmSync(join(runDir, e), { recursive: true, force: true });
      lock?.release();
    }
    const budget = numberFlag(f['keep-mb'], '--keep-mb', DEFAULT_ATTEMPT_BUDGET_MB) * 1024 * 1024;
    const used = artifactBytes(store) - (dry ? freed : 0);
    if (used > budget) {
      if (dry) {
        ctx.out(`would delete the oldest trajectory files: ${mib(used - budget)} over the ${mib(budget)} budget`);
        freed += used - budget;
      } else freed += pruneToBudget(store, dir, budget, used);
    }
    const done = [...plan].map(([n, a]) => `${n} ${a === 'remove' ? 'removed' : 'pruned'}`);
    if (!dry && done.length) ctx.out(`runs: ${done.join(', ')}`);
    ctx.out(`${dry ? 'would free' : 'freed'} ${mib(freed)}; trajectory files ${dry ? 'now' : 'left'} ${mib(artifactBytes(store))} (budget ${mib(budget)})`);
    return 0;
  } finally {
    store.close();
  }
}
