// `frognano gc`: what the store keeps of runs and their attempts, and pruning:
// whole runs (by name, or all but the most recent), or the oldest trajectory
// files down to a disk budget (their outcomes stay).
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RunQueries } from '../serve/runs.js';
import { artifactBytes, DEFAULT_ATTEMPT_BUDGET_MB, forgetRun, pruneToBudget } from '../store/attempts.js';
import { Store } from '../store/store.js';
import { UserError } from '../util/errors.js';
import { dataDir } from '../util/paths.js';
import { table } from '../util/table.js';
import type { CliContext } from './context.js';
import { intFlag, numberFlag, stringFlag } from './flags.js';

export const GC_HELP = `Usage: frognano gc [--run LIST] [--keep-runs N] [--keep-mb M] [--dry-run]

Lists what the store keeps per run (attempts, trajectory files, bytes per
rollout), then prunes:
  --run LIST       remove these runs: their attempts, trajectories, metrics and
                   their directory under runs/ (state, checkpoint, task bank)
  --keep-runs N    remove every run but the N most recently updated
  --keep-mb M      delete the oldest trajectory files until at most M MiB remain
                   (default ${DEFAULT_ATTEMPT_BUDGET_MB}, the budget train keeps by default); their
                   outcomes and verdicts stay
  --dry-run        say what would be removed, remove nothing
A running run is never removed.`;

const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;

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
    const keep = f['keep-runs'] === undefined ? undefined : intFlag(f['keep-runs'], '--keep-runs', 0);
    const doomed = new Set(named);
    if (keep !== undefined) for (const r of runs.slice(keep)) doomed.add(r.name);
    for (const r of runs) {
      if (doomed.has(r.name) && r.status === 'running') {
        ctx.err(`run ${r.name} is training now: kept`);
        doomed.delete(r.name);
      }
    }
    const rows = runs.map((r) => {
      const bytes = artifactBytes(store, r.name);
      const files = store.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM attempts WHERE run = ? AND artifact IS NOT NULL').get(r.name)?.n ?? 0;
      return [
        r.name,
        r.status,
        String(r.attempts),
        String(files),
        mib(bytes),
        files ? `${(bytes / files / 1024).toFixed(1)} KiB` : '-',
        doomed.has(r.name) ? (dry ? 'would remove' : 'removed') : '',
      ];
    });
    let freed = 0;
    const runsDir = resolve(dir, 'runs');
    for (const name of doomed) {
      // A run's name becomes a path: only a folder directly under runs/ is ever removed.
      if (dirname(resolve(runsDir, name)) !== runsDir) throw new UserError(`run name ${JSON.stringify(name)} is not a folder name under runs/`);
      if (dry) freed += artifactBytes(store, name);
      else freed += forgetRun(store, dir, name);
      if (dry) continue;
      rmSync(join(dir, 'runs', name), { recursive: true, force: true });
    }
    const budget = numberFlag(f['keep-mb'], '--keep-mb', DEFAULT_ATTEMPT_BUDGET_MB) * 1024 * 1024;
    const used = artifactBytes(store) - (dry ? freed : 0);
    if (used > budget) {
      if (dry) {
        ctx.out(`would delete the oldest trajectory files: ${mib(used - budget)} over the ${mib(budget)} budget`);
        freed += used - budget;
      } else freed += pruneToBudget(store, dir, budget, used);
    }
    ctx.out(table(['run', 'status', 'attempts', 'trajectory files', 'bytes', 'per rollout', 'action'], rows));
    ctx.out(`${dry ? 'would free' : 'freed'} ${mib(freed)}; trajectory files ${dry ? 'now' : 'left'} ${mib(artifactBytes(store))} (budget ${mib(budget)})`);
    return 0;
  } finally {
    store.close();
  }
}
