// `frognano evidence`: the protocol that tests the central claim (docs/evidence/protocol.md), run in resumable
// chunks, and its report: the table with intervals, the verdicts and the plots, whichever way they fall.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { writeTextAtomic } from '../util/atomic-json.js';
import { acquireLock } from '../util/lock.js';
import { interceptSignals } from '../util/signals.js';
import { join, resolve } from 'node:path';
import { allEnvironments } from '../env/registry.js';
import { gateEnvironments } from './env-gate.js';
import { analyse } from '../evidence/analysis.js';
import { cellsOf, parseProtocol, PROTOCOLS, type Protocol } from '../evidence/protocol.js';
import { curvePlots, forgettingPlot, renderAnalysis } from '../evidence/report.js';
import { MAX_TRIES } from '../evidence/failures.js';
import { readResults, runChunk } from '../evidence/run.js';
import { selectRuntime } from '../runtime/select.js';
import { Store } from '../store/store.js';
import { readHandwritten } from '../taskpilot/handwritten.js';
import { errorMessage, UserError } from '../util/errors.js';
import { isOneOf } from '../util/guards.js';
import { dataDir, handwrittenBugsDir } from '../util/paths.js';
import type { CliContext } from './context.js';
import { commandLine, numberFlag, stringFlag } from './flags.js';
import { lmConfig, tinkerLearner } from './lm.js';

export const EVIDENCE_HELP = `Usage: frognano evidence run|report --protocol reduced|full [options]

The evidence protocol (docs/evidence/protocol.md): training runs that test
whether the frontier curriculum teaches more than a fixed task set, leaving
one environment out at a time, over several seeds, with the frontier's parts
removed one at a time. Every run is resumable; "run" works until --hours is
spent (the running training run stops after its step; a new one does not
start if like runs took longer to their first step than the time left) and
the next "run" picks up where it stopped. Finished runs leave runs/<cell>/result.json. A run
that fails is kept in runs/<cell>/failures.json and passed over; the next
"run" tries it again (3 tries at most), and the invocation exits 1.

  run                  run cells until the protocol is done or --hours is spent, then report
  report               print the table, the verdicts and the plots from the results so far
  --protocol P         reduced (under an hour on 2 cores), full (the whole protocol; its cost
                       is in docs/evidence/protocol.md), or a protocol JSON file (other seeds,
                       held-out environments, arms or budgets; fields as in that document)
  --out DIR            where runs, task banks and results go (default <data-dir>/evidence/<protocol>)
  --hours H            this invocation's time (default 2; the full protocol takes many)
  --force              use environments env check rejected or never checked (said loudly)
  --held-out LIST      run only these held-out environments' cells (comma-separated), to split
                       a protocol across machines: each keeps its group's task bank; copy every
                       machine's runs/ into one --out and "report" reads them all
  --bugs PATH          hand-written bug files (default: the bundled evidence/handwritten)
  --learner tinker     train a language model in every cell through the Tinker API instead of
                       the embedded policy, with train's language-model options, as there
                       (frognano train --help): --model --tokenizer --tinker-url
                       --tinker-api-key-env --lora-rank --loss --lr --max-tokens --context
                       --temperature --thinking --sampler --vllm-url --vllm-model
                       --max-staleness --init-weights`;

function protocolFlag(f: CliContext['flags']): Protocol {
  const name = stringFlag(f, 'protocol');
  if (!name) throw new UserError('evidence needs --protocol', 'pass --protocol reduced (under an hour) or --protocol full');
  if (isOneOf(['reduced', 'full'] as const, name)) return PROTOCOLS[name];
  if (!name.endsWith('.json') || !existsSync(name)) throw new UserError(`unknown protocol "${name}"`, 'use reduced, full, or a protocol JSON file');
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(name, 'utf8'));
  } catch (err) {
    throw new UserError(`${name} is not JSON: ${errorMessage(err)}`);
  }
  const p = parseProtocol(data);
  if ('error' in p) throw new UserError(`${name} is not a protocol: ${p.error}`, 'see docs/evidence/protocol.md for the fields');
  return p;
}

/** --held-out: a share of the protocol's groups, each named as the protocol names it. */
function heldOutFlag(f: CliContext['flags'], p: Protocol): string[] | undefined {
  const v = stringFlag(f, 'held-out');
  if (v === undefined) return undefined;
  const names = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const known = p.groups.map((g) => g.heldOut);
  const unknown = names.filter((n) => !known.includes(n));
  if (!names.length || unknown.length)
    throw new UserError(
      `--held-out: ${unknown.length ? `${unknown.join(', ')} is not held out in protocol ${p.name}` : 'no environment named'}`,
      `use some of ${known.join(', ')}`,
    );
  return names;
}

export async function evidenceCommand(ctx: CliContext): Promise<number> {
  const f = ctx.flags;
  const sub = ctx.positionals[0];
  if (sub !== 'run' && sub !== 'report') throw new UserError(`evidence needs run or report${sub ? `, not "${sub}"` : ''}`);
  const p = protocolFlag(f);
  let failedCells = 0;
  const dir = dataDir(stringFlag(f, 'data-dir'));
  const outDir = resolve(stringFlag(f, 'out') ?? join(dir, 'evidence', p.name));
  mkdirSync(outDir, { recursive: true });
  if (sub === 'run') {
    const lock = acquireLock(outDir, `evidence output ${outDir}`, commandLine(ctx), ctx.err);
    // Each cell's run keeps every step it saved: stopping at once loses at most the step in flight.
    const stopSignals = interceptSignals((signal) => {
      ctx.err(`${signal}: stopping now; finished runs and every saved step are kept in ${outDir}; to continue: ${commandLine(ctx)}`);
      return false;
    });
    try {
      failedCells = await runEvidence(ctx, p, dir, outDir);
    } finally {
      stopSignals();
      lock.release();
    }
  }
  const results = readResults(p, outDir, ctx.err);
  const analysis = analyse(p, results);
  const text = renderAnalysis(p, analysis, cellsOf(p).length);
  writeTextAtomic(join(outDir, 'results.json'), JSON.stringify({ protocol: p, analysis, results }, null, 2));
  writeTextAtomic(join(outDir, 'report.txt'), `${text}\n`);
  const plots = curvePlots(p, results);
  const forgetting = forgettingPlot(analysis.forgetting);
  if (forgetting) plots['forgetting.svg'] = forgetting;
  for (const [name, svg] of Object.entries(plots)) writeTextAtomic(join(outDir, name), svg);
  ctx.out(f.json ? JSON.stringify({ analysis, results: results.length }) : text);
  ctx.err(`wrote ${join(outDir, 'report.txt')}, results.json${Object.keys(plots).length ? ` and ${Object.keys(plots).join(', ')}` : ''}`);
  // The report covers what finished; a failed cell still makes the invocation fail, so a scheduler notices.
  return failedCells ? 1 : 0;
}

/** One chunk of the protocol's runs; the number of cells that failed. */
async function runEvidence(ctx: CliContext, p: Protocol, dir: string, outDir: string): Promise<number> {
  const f = ctx.flags;
  const store = new Store(dir);
  const envs = new Map(allEnvironments(store).map((e) => [e.spec.name, e]));
  try {
    for (const g of p.groups) for (const name of [g.heldOut, ...g.train]) if (!envs.has(name)) throw new UserError(`unknown environment "${name}"`);
    const used = [...new Set(p.groups.flatMap((g) => [g.heldOut, ...g.train]))].map((n) => envs.get(n)!);
    gateEnvironments(store, used, { command: 'evidence', force: Boolean(f.force), warn: ctx.err });
  } finally {
    store.close();
  }
  const hours = numberFlag(f.hours, '--hours', 2);
  if (!(hours > 0)) throw new UserError('--hours must be above 0');
  const heldOut = heldOutFlag(f, p);
  const total = cellsOf(p).filter((c) => !heldOut || heldOut.includes(c.group.heldOut)).length;
  const share = heldOut ? ` (held out: ${heldOut.join(', ')}; ${cellsOf(p).length} in the protocol)` : '';
  ctx.err(`evidence ${p.name}: ${total} runs${share}; results in ${outDir}; stopping after ${hours} h (rerun to continue)`);
  const learnerName = stringFlag(f, 'learner') ?? 'embedded';
  if (learnerName !== 'embedded' && learnerName !== 'tinker') throw new UserError(`unknown --learner "${learnerName}"`, 'use embedded or tinker');
  const lm = learnerName === 'tinker' ? lmConfig(f) : undefined;
  const outcome = await runChunk(p, {
    ...(lm
      ? {
          learner: {
            config: { learner: 'tinker', lm },
            make: (cfg, cell) => tinkerLearner(lm, f, { name: `evidence-${p.name}-${cell.id}`, seed: cfg.seed, log: ctx.err }),
          },
        }
      : {}),
    envs,
    runtime: selectRuntime({ name: stringFlag(f, 'runtime') ?? 'auto', warn: ctx.err }),
    outDir,
    handwritten: readHandwritten(stringFlag(f, 'bugs') ?? handwrittenBugsDir),
    hours,
    ...(heldOut ? { heldOut } : {}),
    log: ctx.err,
    onTrainEvent: (cell, e) => {
      if (e.kind === 'eval') ctx.err(`  ${cell.id}: held-out ${(100 * e.solveRate).toFixed(1)}% (${e.solved}/${e.attempts}) at ${e.rollouts} rollouts`);
      if (e.kind === 'step')
        ctx.err(`  ${cell.id}: step ${e.metrics.step}, ${e.metrics.rollouts}/${p.budget} rollouts, reward ${e.metrics.meanReward.toFixed(2)}`);
    },
  });
  ctx.err(
    outcome.left
      ? `stopped after ${outcome.minutes.toFixed(1)} min with ${outcome.left} of ${outcome.total} runs left: rerun the same command to continue`
      : `all ${outcome.total} runs done (this invocation ${outcome.minutes.toFixed(1)} min)`,
  );
  if (outcome.halted) ctx.err(`stopped early: ${outcome.halted}; last error: ${outcome.failed.at(-1)?.message}`);
  if (outcome.failed.length) ctx.err(`failed in this invocation: ${outcome.failed.map((x) => x.cell).join(', ')}`);
  if (outcome.givenUp.length) ctx.err(`given up on (failed ${MAX_TRIES} times; their runs/<cell>/failures.json say why): ${outcome.givenUp.join(', ')}`);
  return outcome.failed.length + outcome.givenUp.length;
}
