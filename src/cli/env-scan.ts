// `frognano env scan LIST`: onboard many repositories unattended (onboard/scan.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { selectRuntime } from '../runtime/select.js';
import { readScanList, type ScanItem } from '../onboard/scan-list.js';
import { readResults, scanRepositories, RESULTS_FILE } from '../onboard/scan.js';
import { catalogueEntry, summarize, summaryText } from '../onboard/scan-report.js';
import type { Store } from '../store/store.js';
import { writeTextAtomic } from '../util/atomic-json.js';
import { UserError } from '../util/errors.js';
import { acquireLock } from '../util/lock.js';
import { dataDir } from '../util/paths.js';
import { Progress } from '../util/progress.js';
import type { CliContext } from './context.js';
import { commandLine, intFlag, stringFlag } from './flags.js';

export const SCAN_HELP = `  frognano env scan LIST [--out DIR] [--workers N] [--probe N] [--seed S] [--json]

env scan    onboard every repository of LIST (one a line: URL-or-path [commit] [name]) with zero
            flags: clone at the commit, add, check, synthesize procedural candidates in rounds of 4
            until 3 are valid or --probe are tried (default 12; rounds alternate visible and hidden
            failing tests), grade each valid task with its
            reference fix (must earn 1) and an empty change (must not).
            Kept or rejected with one named class; --workers repositories at once (default 2);
            results in DIR/results.jsonl (default <data-dir>/scans/<list name>), so a rerun resumes;
            kept ones stay registered and get catalogue entries in DIR/catalogue.json`;

export async function scanCommand(ctx: CliContext, store: Store, rest: string[]): Promise<number> {
  const listPath = rest[0];
  if (!listPath) throw new UserError('env scan needs a list', 'pass a file with one repository a line: URL-or-path [commit] [name]');
  const items = readScanList(listPath);
  const dir = dataDir(stringFlag(ctx.flags, 'data-dir'));
  const outDir = stringFlag(ctx.flags, 'out') ?? join(dir, 'scans', basename(listPath).replace(/\.[^.]*$/, ''));
  const workers = intFlag(ctx.flags.workers, '--workers', 2, 1);
  const probe = intFlag(ctx.flags.probe, '--probe', 12, 1);
  const seed = intFlag(ctx.flags.seed, '--seed', 0, 0);
  mkdirSync(outDir, { recursive: true });
  const lock = acquireLock(outDir, `scan output ${outDir}`, commandLine(ctx), ctx.err);
  try {
    const earlier = readResults(outDir);
    const before = earlier.length;
    ctx.err(
      `env scan: ${items.length} repositories${before ? ` (${before} already done, resuming)` : ''}; ${workers} at a time; results in ${join(outDir, RESULTS_FILE)}`,
    );
    const runtime = selectRuntime({ name: stringFlag(ctx.flags, 'runtime') ?? 'auto', warn: ctx.err });
    const progress = new Progress(Boolean(ctx.flags.json));
    const running = new Map<string, string>();
    let line = '';
    // Counted from the start of the scan, resumed runs included.
    let kept = earlier.filter((r) => r.class === 'kept').length;
    const show = (done: number) => {
      const now = [...running.entries()].map(([n, s]) => `${n}: ${s}`).join(' | ');
      line = `[${done}/${items.length}] kept ${kept}${now ? ` | ${now}` : ''}`;
      progress.update(line);
    };
    let doneCount = before;
    const results = await scanRepositories(items, {
      store,
      dataDir: dir,
      runtime,
      outDir,
      workers,
      probe,
      seed,
      onStart: (i: ScanItem) => (running.set(i.name, 'starting'), show(doneCount)),
      onProgress: (i, s) => (running.set(i.name, s), show(doneCount)),
      onResult: (r, done) => {
        running.delete(r.name);
        doneCount = done;
        if (r.class === 'kept') kept++;
        progress.done();
        ctx.err(`[${done}/${items.length}] ${r.name}: ${r.class} (${r.seconds.toFixed(0)} s) ${r.detail.split('\n')[0]!.slice(0, 140)}`);
        show(done);
      },
    });
    progress.done();
    const keptResults = results.filter((r) => r.class === 'kept');
    writeTextAtomic(
      join(outDir, 'catalogue.json'),
      `${JSON.stringify({ schema: 'frognano.catalogue/v1', entries: keptResults.map((r) => catalogueEntry(r, `${r.language} repository onboarded by env scan (${r.runner})`)) }, null, 2)}\n`,
    );
    const text = summaryText(results);
    writeFileSync(join(outDir, 'summary.txt'), `${text}\n`);
    ctx.out(ctx.flags.json ? JSON.stringify({ summary: summarize(results), results }, null, 2) : text);
    ctx.err(`wrote ${join(outDir, 'summary.txt')} and catalogue.json (${keptResults.length} entries)`);
    return 0;
  } finally {
    lock.release();
  }
}
