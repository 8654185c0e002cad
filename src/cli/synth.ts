// `frognano synth`: synthesize and validate tasks, then print the yield table.
import { join } from 'node:path';
import { allEnvironments, findEnvironment } from '../env/registry.js';
import { gateEnvironments, usableEnvironments } from './env-gate.js';
import { ChatClient } from '../model/openai.js';
import { selectRuntime } from '../runtime/select.js';
import { Store } from '../store/store.js';
import type { HintLevel, Strategy, TestVisibility } from '../task/task.js';
import { LlmGenerator } from '../taskpilot/llm.js';
import { STRATEGIES, synthesize, type Counts, type Rejection, type SynthStats } from '../taskpilot/synth.js';
import { patchKey } from '../taskpilot/validate.js';
import { cpuSeconds } from '../util/cpu.js';
import { UserError } from '../util/errors.js';
import { isOneOf } from '../util/guards.js';
import { dataDir, handwrittenBugsDir } from '../util/paths.js';
import { readHandwritten } from '../taskpilot/handwritten.js';
import { Progress } from '../util/progress.js';
import { table } from '../util/table.js';
import type { CliContext } from './context.js';
import { intFlag, stringFlag, workersFlag } from './flags.js';

export const SYNTH_HELP = `Usage: frognano synth --env <name[,name]|all> [options]

Generate candidate bugs, validate each in sandboxed workspaces, and write the
valid ones as task directories.

  --env NAMES          environments, comma-separated, or all (required); only those env check
                       accepted (all: the accepted ones, the others named and left out)
  --force              use a rejected or unchecked environment anyway (said loudly)
  --n N                candidates per environment and strategy (default 20)
  --strategy LIST      procedural, combine, llm-modify, llm-rewrite, handwritten (default
                       procedural,combine); handwritten validates the bugs of --bugs, issue text as instruction
  --bugs PATH          hand-written bug files, <env>.json (default: the bundled evidence/handwritten)
  --operators LIST     restrict procedural operators (names or families)
  --workers W          validations in parallel (default: one per core, fewer if memory is short)
  --seed S             seed for every random choice (default 0)
  --hint LEVEL         instruction hint level: full, symptom, minimal (default symptom)
  --visibility V       failing tests visible or hidden in the agent's workspace (default visible)
  --out DIR            where task directories go (default <data-dir>/tasks)
  --reference-runs N   clean runs per environment; only always-passing tests label (default 3)
  --candidate-runs N   runs of each candidate; disagreeing tests are dropped (default 2)
  --model M --base-url URL [--api-key K]   an OpenAI-compatible model for llm-* strategies
  --issue-model M      have this model (at --base-url) write the issue text; leaks are still rejected`;

const REASONS = [
  'no-site',
  'unparseable',
  'no-change',
  'apply-failed',
  'duplicate',
  'timeout',
  'infra',
  'no-f2p',
  'no-p2p',
  'flaky',
  'fix-fails',
  'leak',
  'no-unseen-check',
] as const;

function pct(a: number, b: number): string {
  return b > 0 ? `${((100 * a) / b).toFixed(1)}%` : '-';
}

function rows(groups: Record<string, Counts>): (string | number)[][] {
  return Object.entries(groups)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, c]) => [name, c.candidates, c.applied, c.valid, pct(c.valid, c.candidates), ...REASONS.map((r) => c.outcomes[r] ?? 0)]);
}

function total(groups: Record<string, Counts>): Counts {
  const t: Counts = { candidates: 0, applied: 0, valid: 0, outcomes: {} };
  for (const c of Object.values(groups)) {
    t.candidates += c.candidates;
    t.applied += c.applied;
    t.valid += c.valid;
    // Only the reasons the table shows are summed.
    for (const r of REASONS) t.outcomes[r] = (t.outcomes[r] ?? 0) + (c.outcomes[r] ?? 0);
  }
  return t;
}

export function yieldTables(stats: SynthStats): string {
  const headers = ['', 'candidates', 'applied', 'valid', 'yield', ...REASONS];
  const all = total(stats.byStrategy);
  return [
    'by strategy',
    table(
      ['strategy', ...headers.slice(1)],
      [
        ...rows(stats.byStrategy),
        ['total', all.candidates, all.applied, all.valid, pct(all.valid, all.candidates), ...REASONS.map((r) => all.outcomes[r] ?? 0)],
      ],
    ),
    '',
    'by operator',
    table(['operator', ...headers.slice(1)], rows(stats.byOperator)),
    '',
    'by environment',
    table(['environment', ...headers.slice(1)], rows(stats.byEnv)),
  ].join('\n');
}

function list<T extends string>(value: unknown, allowed: readonly T[], flag: string, fallback: T[]): T[] {
  if (value === undefined) return fallback;
  const items = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.map((i) => {
    if (!isOneOf(allowed, i)) throw new UserError(`unknown ${flag} "${i}"`, `use ${allowed.join(', ')}`);
    return i;
  });
}

export async function synthCommand(ctx: CliContext): Promise<number> {
  const f = ctx.flags;
  if (!f.env) throw new UserError('synth needs --env', 'pass --env all, or environment names separated by commas');
  const dir = dataDir(stringFlag(f, 'data-dir'));
  const store = new Store(dir);
  try {
    const named =
      f.env === 'all'
        ? f.force
          ? allEnvironments(store)
          : usableEnvironments(store, allEnvironments(store), ctx.err)
        : String(f.env)
            .split(',')
            .map((n) => findEnvironment(store, n.trim()));
    gateEnvironments(store, named, { command: 'synth', force: Boolean(f.force), warn: ctx.err });
    const envs = named;
    const strategies = list<Strategy>(f.strategy, STRATEGIES, 'strategy', ['procedural', 'combine']);
    const hint = list<HintLevel>(f.hint, ['full', 'symptom', 'minimal'], 'hint level', ['symptom'])[0]!;
    const visibility = list<TestVisibility>(f.visibility, ['visible', 'hidden'], 'visibility', ['visible'])[0]!;
    let llm: LlmGenerator | undefined;
    const [model, baseUrl, issueModel] = [stringFlag(f, 'model'), stringFlag(f, 'base-url'), stringFlag(f, 'issue-model')];
    const apiKey = stringFlag(f, 'api-key') ?? process.env.FROGNANO_API_KEY;
    if (strategies.some((s) => s.startsWith('llm-'))) {
      if (!model || !baseUrl)
        throw new UserError('llm-modify and llm-rewrite need a model', 'pass --model NAME --base-url http://host:port/v1 [--api-key KEY]');
      llm = new LlmGenerator(new ChatClient({ baseUrl, model, ...(apiKey ? { apiKey } : {}) }));
    }
    let issueWriter: ChatClient | undefined;
    if (issueModel) {
      if (!baseUrl) throw new UserError('--issue-model needs --base-url', 'pass --base-url http://host:port/v1');
      issueWriter = new ChatClient({ baseUrl, model: issueModel, ...(apiKey ? { apiKey } : {}) });
    }
    const runtime = selectRuntime({ name: stringFlag(f, 'runtime') ?? 'auto', warn: ctx.err });
    const outDir = stringFlag(f, 'out') ?? join(dir, 'tasks');
    const progress = new Progress(Boolean(f.json));
    const cpu0 = cpuSeconds();
    const t0 = performance.now();
    const stats = await synthesize({
      envs,
      n: intFlag(f.n, '--n', 20, 1),
      strategies,
      workers: workersFlag(f.workers, ctx.err),
      seed: intFlag(f.seed, '--seed', 0),
      hint,
      visibility,
      outDir,
      dataDir: dir,
      runtime,
      ...(f.operators ? { operators: String(f.operators).split(',') } : {}),
      ...(llm ? { llm } : {}),
      ...(issueWriter ? { issueWriter } : {}),
      ...(strategies.includes('handwritten') ? { handwritten: readHandwritten(stringFlag(f, 'bugs') ?? handwrittenBugsDir) } : {}),
      referenceRuns: intFlag(f['reference-runs'], '--reference-runs', 3, 1),
      candidateRuns: intFlag(f['candidate-runs'], '--candidate-runs', 2, 1),
      knownBugKeys: (env) => store.taskBugKeys(env),
      onTask: (t) =>
        store.addTask({
          id: t.id,
          env: t.env.name,
          strategy: t.provenance.strategy,
          dir: join(outDir, t.id),
          bugKey: patchKey(t.bugPatch),
          f2p: t.FAIL_TO_PASS.length,
          p2p: t.PASS_TO_PASS.length,
          knobs: t.knobs,
        }),
      onProgress: (s) => {
        const width = 30;
        const filled = s.planned > 0 ? Math.round((width * s.done) / s.planned) : 0;
        const secs = (performance.now() - t0) / 1000;
        const rate = s.done / Math.max(secs, 1e-3);
        const eta = rate > 0 && s.planned > s.done ? ` eta ${Math.ceil((s.planned - s.done) / rate)} s` : '';
        progress.update(
          `synth [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${s.done}/${s.planned} valid ${s.tasks.length} | ${rate.toFixed(2)} cand/s${eta}`,
        );
      },
    });
    progress.done();
    const cpuMin = (cpuSeconds() - cpu0) / 60;
    const wallMin = (performance.now() - t0) / 60000;
    const valid = stats.tasks.length;
    if (f.json) {
      ctx.out(JSON.stringify({ ...stats, tasks: stats.tasks.map((t) => t.id), cpuMinutes: cpuMin, wallMinutes: wallMin, outDir }, null, 2));
    } else {
      ctx.out(yieldTables(stats));
      const why = rejectionSummary(stats.rejections);
      if (why) ctx.out(`\nwhy candidates were rejected (count, then up to 3 examples; all of them: --json):\n${why}`);
      ctx.out(`\n${valid} valid tasks written to ${outDir}`);
      ctx.out(
        `throughput: ${(valid / Math.max(wallMin, 1e-9)).toFixed(1)} valid tasks per wall-clock minute (${valid} in ${wallMin.toFixed(2)} min); ` +
          `${cpuMin.toFixed(2)} CPU-min with the sandboxes' own, ${(valid / Math.max(cpuMin, 1e-9)).toFixed(1)} valid tasks per CPU-minute (${runtime.name} runtime)`,
      );
    }
    for (const e of stats.errors.slice(0, 10)) ctx.err(`error: ${e}`);
    return stats.errors.length > 0 && valid === 0 ? 1 : 0;
  } finally {
    store.close();
  }
}

/** Rejections grouped by outcome: the count, then a few distinct details with the environment and operator. */
export function rejectionSummary(rejections: readonly Rejection[]): string {
  const groups = new Map<string, Rejection[]>();
  for (const r of rejections) groups.set(r.outcome, [...(groups.get(r.outcome) ?? []), r]);
  const lines: string[] = [];
  for (const [outcome, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`  ${outcome} (${list.length})`);
    const seen = new Set<string>();
    for (const r of list) {
      if (seen.size >= 3 || seen.has(r.detail)) continue;
      seen.add(r.detail);
      lines.push(`    - ${r.env} ${r.operators.join('+')}: ${r.detail}`);
    }
  }
  return lines.join('\n');
}
