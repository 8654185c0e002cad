// `frognano env list | add | check`.
import { addEnvironment, allEnvironments, findEnvironment } from '../env/registry.js';
import { RUNNERS } from '../env/runners/types.js';
import { LANGUAGES, REPORT_FORMATS } from '../env/spec.js';
import { checkEnvironment, checkRecord, type CheckResult } from '../grading/env-check.js';
import { selectRuntime } from '../runtime/select.js';
import { Store } from '../store/store.js';
import { UserError } from '../util/errors.js';
import { isOneOf } from '../util/guards.js';
import { dataDir } from '../util/paths.js';
import { Progress } from '../util/progress.js';
import { table } from '../util/table.js';
import type { CliContext } from './context.js';
import { catalogueAdd, listCatalogue } from './env-catalogue.js';
import { listFlag, stringFlag } from './flags.js';
import { SCAN_HELP, scanCommand } from './env-scan.js';

export const ENV_HELP = `Usage:
  frognano env list [--json]
  frognano env add <path|git-url> [--name N] [--force] [--language L] [--runner R] [--test-command CMD]
                   [--report FMT] [--env KEY=VALUE ...] [--test-paths GLOB,...] [--ref REF] [--json]
  frognano env add --from-catalogue NAME [--name N] [--force] [--json]
  frognano env check [name ...|--all] [--runtime bwrap|local|docker] [--image IMG] [--json]
  frognano env catalogue [--language L] [--runner R] [--min-yield SHARE] [--json|--markdown]
${SCAN_HELP}

env list    the starter environments and those you added, with their last check
env add     register your repository; a spec is inferred unless it has environment.json:
            the runner (${RUNNERS.join(', ')}) from the test script,
            config files and dependencies, a src/ layout, the dependencies to install.
            --test-command is a shell line; one naming a known runner gets its report added,
            any other needs --report. --env sets a variable for setup and tests (repeatable).
            A name already registered is refused: --force replaces that environment,
            --name registers this one under another name (a starter's name is never replaced)
            --from-catalogue clones a catalogue entry at its pinned commit (needs network)
env catalogue   the pinned public repositories, with their last verification; filtered by
            language, runner, or least procedural yield (valid/candidates, 0 to 1)
env check   build the dependency layer, run the reference suite twice in the sandbox,
            and accept the environment only with >= 80% passing tests and no flaky test`;

export async function envCommand(ctx: CliContext): Promise<number> {
  const [sub, ...rest] = ctx.positionals;
  const store = new Store(dataDir(stringFlag(ctx.flags, 'data-dir')));
  try {
    switch (sub) {
      case 'list':
        return list(ctx, store);
      case 'add':
        return await add(ctx, store, rest);
      case 'check':
        return await check(ctx, store, rest);
      case 'catalogue':
        return listCatalogue(ctx);
      case 'scan':
        return await scanCommand(ctx, store, rest);
      default:
        throw new UserError(sub ? `unknown env command "${sub}"` : 'missing env command', 'use list, add, check, scan or catalogue (see frognano env --help)');
    }
  } finally {
    store.close();
  }
}

function list(ctx: CliContext, store: Store): number {
  const envs = allEnvironments(store);
  const checks = store.latestChecks();
  if (ctx.flags.json) {
    ctx.out(
      JSON.stringify(
        envs.map((e) => ({ ...e.spec, builtin: e.builtin, lastCheck: checks.get(e.spec.name) ?? null })),
        null,
        2,
      ),
    );
    return 0;
  }
  const rows = envs.map((e) => {
    const c = checks.get(e.spec.name);
    return [e.spec.name, e.spec.language, e.builtin ? 'starter' : 'added', c ? (c.accepted ? 'accepted' : 'rejected') : 'unchecked', e.spec.description];
  });
  ctx.out(table(['name', 'language', 'kind', 'last check', 'description'], rows));
  return 0;
}

async function add(ctx: CliContext, store: Store, rest: string[]): Promise<number> {
  const flag = (name: string) => stringFlag(ctx.flags, name);
  const fromCatalogue = flag('from-catalogue');
  if (fromCatalogue && rest[0]) throw new UserError('env add takes a repository or --from-catalogue NAME, not both');
  const listed = fromCatalogue ? catalogueAdd(fromCatalogue) : null;
  const target = listed?.target ?? rest[0];
  if (!target) throw new UserError('env add needs a repository', 'pass a directory or a git URL (frognano env add ./my-repo), or --from-catalogue NAME');
  const [name, testCommand, testPaths, ref] = [flag('name'), flag('test-command'), flag('test-paths'), flag('ref')];
  // An empty value counts as not given.
  const language = flag('language') || undefined;
  const report = flag('report') || undefined;
  const runner = flag('runner') || undefined;
  if (runner !== undefined && !isOneOf(RUNNERS, runner)) throw new UserError(`unknown runner "${runner}"`, `use ${RUNNERS.join(', ')}`);
  const env = envAssignments(listFlag(ctx.flags, 'env'));
  if (language !== undefined && !isOneOf(LANGUAGES, language)) throw new UserError(`unknown language "${language}"`, `use ${LANGUAGES.join(', ')}`);
  if (report !== undefined && !isOneOf(REPORT_FORMATS, report)) throw new UserError(`unknown report format "${report}"`, `use ${REPORT_FORMATS.join(', ')}`);
  const { spec, replaced, inferred } = await addEnvironment(store, target, {
    ...listed?.options,
    force: Boolean(ctx.flags.force),
    ...(runner ? { runner } : {}),
    ...(Object.keys(env).length ? { env } : {}),
    ...(name ? { name } : {}),
    ...(language ? { language } : {}),
    ...(testCommand ? { testCommand } : {}),
    ...(report ? { report } : {}),
    ...(testPaths ? { testPaths: testPaths.split(',') } : {}),
    ...(ref ? { ref } : {}),
  });
  const why = inferred ? `runner: ${inferred.runner} (${inferred.evidence})${inferred.notes.map((n) => `; ${n}`).join('')}\n` : '';
  const done = `${why}${replaced ? `replaced "${spec.name}" (was added by \`${replaced.origin}\`)` : `registered "${spec.name}"`}. Next: frognano env check ${spec.name}`;
  ctx.out(JSON.stringify(spec, null, 2));
  // With --json, stdout is the spec alone; the note goes to stderr.
  if (ctx.flags.json) ctx.err(done);
  else ctx.out(`\n${done}`);
  return 0;
}

/** `--env KEY=VALUE` values as a map; a value may hold "=" itself. */
export function envAssignments(values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(v);
    if (!m) throw new UserError(`--env "${v}" is not KEY=VALUE`, 'write e.g. --env DJANGO_SETTINGS_MODULE=tests.settings (repeat --env for each variable)');
    out[m[1]!] = m[2]!;
  }
  return out;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}

function report(ctx: CliContext, results: CheckResult[]): void {
  const rows = results.map((r) => [
    r.name,
    r.accepted ? 'ACCEPTED' : 'REJECTED',
    r.total,
    r.passed,
    r.failed,
    r.skipped,
    r.flaky,
    r.runMs.map(seconds).join(' / '),
  ]);
  ctx.out(table(['environment', 'verdict', 'tests', 'pass', 'fail', 'skip', 'flaky', 'run 1 / run 2 (s)'], rows));
  for (const r of results.filter((x) => !x.accepted)) {
    ctx.out(`\n${r.name} was rejected:`);
    for (const reason of r.reasons) ctx.out(`  - ${reason}`);
  }
  const timed = results.filter((x) => x.tests.some((t) => t.meanMs !== undefined));
  if (timed.length > 0) ctx.out('\nslowest tests (mean of the runs):');
  for (const r of timed) {
    const slow = r.tests
      .filter((t) => t.meanMs !== undefined)
      .sort((a, b) => b.meanMs! - a.meanMs!)
      .slice(0, 2);
    ctx.out(`  ${r.name}: ${slow.map((t) => `${t.id} ${t.meanMs!.toFixed(1)} ms`).join('; ')}`);
  }
  ctx.out('per-test statuses of every run: --json, or the env_check_tests table in the store');
}

async function check(ctx: CliContext, store: Store, names: string[]): Promise<number> {
  const all = allEnvironments(store);
  const targets = ctx.flags.all ? all : names.map((n) => findEnvironment(store, n));
  if (targets.length === 0) throw new UserError('env check needs environment names or --all', 'e.g. frognano env check --all');
  const image = stringFlag(ctx.flags, 'image');
  const runtime = selectRuntime({
    name: stringFlag(ctx.flags, 'runtime') ?? 'auto',
    ...(image ? { image } : {}),
    warn: ctx.err,
  });
  const progress = new Progress(Boolean(ctx.flags.json));
  const results: CheckResult[] = [];
  for (const [i, env] of targets.entries()) {
    const prefix = `[${i + 1}/${targets.length}]`;
    progress.update(`${prefix} ${env.spec.name}: starting`);
    const result = await checkEnvironment(env, {
      dataDir: dataDir(stringFlag(ctx.flags, 'data-dir')),
      runtime,
      onProgress: (m) => progress.update(`${prefix} ${m}`),
    });
    store.recordCheck(checkRecord(result));
    results.push(result);
  }
  progress.done();
  if (ctx.flags.json) ctx.out(JSON.stringify(results, null, 2));
  else {
    ctx.out(`runtime: ${runtime.name}${runtime.isolated ? '' : ' (NOT isolated)'}`);
    report(ctx, results);
  }
  return results.every((r) => r.accepted) ? 0 : 1;
}
