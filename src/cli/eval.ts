// `frognano eval`: run a model on stored or imported tasks, K attempts each,
// grade every attempt with the verifier, and report pass@1 and pass@k.
import { predictionsFile, predictionsOf, writePredictionsFile } from '../interop/predictions.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { BuiltEnv } from '../env/build.js';
import { buildEnvironment } from '../env/build.js';
import { findEnvironment } from '../env/registry.js';
import { renderReport } from '../eval/render.js';
import { buildReport } from '../eval/report.js';
import { runEval, type EvalRunOptions } from '../eval/run.js';
import { loadEvalTasks, type TaskSourceOptions } from '../eval/tasks.js';
import type { Task } from '../task/task.js';
import { loadState } from '../train/state.js';
import { selectRuntime } from '../runtime/select.js';
import { Store } from '../store/store.js';
import { taskEnvironment } from '../task/resolve.js';
import { reversePatch } from '../taskpilot/revalidate.js';
import { UserError } from '../util/errors.js';
import { dataDir } from '../util/paths.js';
import { Progress } from '../util/progress.js';
import type { CliContext } from './context.js';
import { intFlag, stringFlag, workersFlag } from './flags.js';
import { DEFAULT_AGENT_LIMITS } from '../agent/limits.js';
import { modelFactory, modelFlags, MODELS_HELP } from './models.js';
import { openQueue, queueFlag } from './worker.js';
import type { JobQueue } from '../queue/client.js';
import type { ActorSpec } from '../queue/jobs.js';
import { randomUUID } from 'node:crypto';

export const EVAL_HELP = `Usage: frognano eval (--tasks <dir|file.jsonl> | --run NAME) --model M [options]

Runs the model on each task K times (each attempt in a fresh sandboxed
workspace, graded by the verifier with the hidden tests) and reports pass@1
and pass@k (unbiased: 1 - C(n-c,k)/C(n,k)) overall, by environment and by
strategy. An attempt that fails for infrastructure reasons is retried once;
if it fails again it is reported apart and left out of the pass rates.

  --tasks SRC          a task directory, a folder of them, or SWE-bench / SWE-smith
                       JSONL (default <data-dir>/tasks)
  --run NAME           instead of --tasks: the held-out tasks training run NAME evaluates (the
                       ids in its state.json; its tasks/held-out folder also keeps the other
                       tasks validated beside them, which training never uses); the report and
                       trajectories then go to <data-dir>/runs/NAME/evals/ by default
  --format F           swebench or swesmith, for JSONL (default: told from each record)
  --env NAME           the environment of JSONL records made by other tools
  --k K                pass@k to report, and attempts per task (default 1)
  --n N                attempts per task when more than K (n >= k; lowers the variance)
  --workers W          attempts in parallel (default: one per core, fewer if memory is short)
  --seed S             seed of every attempt (derived per task and attempt; default 0)
  --out FILE           the JSON report (default <data-dir>/evals/<model>-seed<S>.json; with
                       --run, <data-dir>/runs/NAME/evals/<model>-seed<S>.json)
  --trajectories DIR   write each attempt's trajectory as DIR/<task>/attempt-<i>.jsonl, its diff
                       beside it (attempt-<i>.diff); frognano traj export converts them (with
                       --run, written by default to <data-dir>/runs/NAME/evals/<model>-seed<S>/)
  --predictions FILE   SWE-bench predictions (.jsonl or .json: instance_id, model_name_or_path,
                       model_patch), the first attempt of each task; with --n above 1, attempt i
                       also goes to FILE's name with .attempt-<i> before its suffix
  --checkpoint FILE    an embedded policy checkpoint (with --model embedded)
  --max-steps N        model turns per attempt at most (default ${DEFAULT_AGENT_LIMITS.maxSteps}, as in training and solve)
  --queue URL          attempts run by queue workers (frognano worker) on any machines:
                       redis://HOST:PORT (docs/queue.md); --workers then defaults to their job
                       slots. The embedded policy's weights travel with the jobs; a served
                       model's flags do (each worker must reach --base-url and reads its own
                       OPENAI_API_KEY); a GGUF --model-path or scripted:FILE.json must exist
                       at the same path on every worker

${MODELS_HELP}`;

/**
 * The held-out tasks a training run evaluates: the ids in its state, read from
 * its held-out folder. The folder holds every task validated for it (synthesis
 * makes more candidates than it needs), so it may hold more than training uses.
 */
async function runHeldOut(dir: string, run: string): Promise<{ tasks: Task[]; source: string; said: string }> {
  const runDir = join(dir, 'runs', run);
  const state = loadState(runDir);
  if (!state)
    throw new UserError(
      `no training run "${run}" in ${dir} (no ${join(runDir, 'state.json')})`,
      'train it first (frognano train --run NAME), or pass --tasks DIR',
    );
  if (state.evalIds.length === 0)
    throw new UserError(`run "${run}" has no held-out tasks (trained with --eval-tasks 0, or stopped before it made them)`, 'pass --tasks DIR');
  const folder = join(runDir, 'tasks', 'held-out');
  const all = new Map((await loadEvalTasks(folder)).map((t) => [t.id, t]));
  const missing = state.evalIds.filter((id) => !all.has(id));
  if (missing.length)
    throw new UserError(`${missing.length} of run "${run}"'s held-out tasks are missing from ${folder}: ${missing.slice(0, 3).join(', ')}`, 'pass --tasks DIR');
  const n = state.evalIds.length;
  const rest = all.size - n;
  return {
    tasks: state.evalIds.map((id) => all.get(id)!),
    source: `run "${run}"'s held-out tasks (${folder})`,
    said: `eval: the ${n} held-out tasks run "${run}" evaluates in training${rest ? ` (${folder} holds ${all.size}: ${rest} more were validated beside them and are not used)` : ''}`,
  };
}

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || 'model';
}

export async function evalCommand(ctx: CliContext): Promise<number> {
  const f = ctx.flags;
  if (ctx.positionals.length) throw new UserError(`eval takes no positional arguments (got "${ctx.positionals.join(' ')}")`, 'pass the tasks with --tasks');
  if (!f.model && !f['model-path'])
    throw new UserError('eval needs a model', 'pass --model embedded, --model scripted:oracle, --model NAME --base-url URL, or --model-path FILE.gguf');
  const k = intFlag(f.k, '--k', 1, 1);
  const attempts = intFlag(f.n, '--n', k, 1);
  if (attempts < k) throw new UserError(`--n ${attempts} is less than --k ${k}`, 'pass@k needs at least k attempts per task');
  let workersLine = '';
  let workers = workersFlag(f.workers, (line) => (workersLine = line)); // said once the inputs are read
  const seed = intFlag(f.seed, '--seed', 0, 0);
  const dir = dataDir(stringFlag(f, 'data-dir'));
  const run = stringFlag(f, 'run');
  if (run && f.tasks !== undefined) throw new UserError('pass one of --tasks and --run, not both', 'a run evaluates its own held-out tasks');
  const source = resolve(stringFlag(f, 'tasks') ?? join(dir, 'tasks'));
  const evalsDir = run ? join(dir, 'runs', run, 'evals') : join(dir, 'evals');
  const models = await modelFactory(f);
  const store = new Store(dir);
  const progress = new Progress(Boolean(f.json));
  let queue: JobQueue | undefined;
  try {
    const image = stringFlag(f, 'image');
    const runtime = selectRuntime({ name: stringFlag(f, 'runtime') ?? 'auto', ...(image ? { image } : {}), warn: ctx.err });
    const format = stringFlag(f, 'format');
    const foreignEnv = stringFlag(f, 'env');
    let trajectories = stringFlag(f, 'trajectories');
    const predictions = stringFlag(f, 'predictions');
    if (predictions && !/\.jsonl?$/.test(predictions))
      throw new UserError(`--predictions ${predictions}: SWE-bench reads .json or .jsonl`, 'name the file preds.jsonl');
    const options: TaskSourceOptions = {
      ...(format ? { format } : {}),
      ...(foreignEnv
        ? {
            // SWE-bench records carry the fix (the bug is its reverse), SWE-smith records the bug.
            foreign: async (kind) => {
              const env = findEnvironment(store, foreignEnv);
              const built = await buildEnvironment(env, { dataDir: dir, runtime });
              return {
                env: { name: env.spec.name, hash: built.hash, spec: env.spec },
                reverse: (p: string) => reversePatch(built.snapshot, p, kind === 'swebench' ? 'fix' : 'bug'),
              };
            },
          }
        : {}),
    };
    const fromRun = run ? await runHeldOut(dir, run) : undefined;
    const tasks = fromRun?.tasks ?? (await loadEvalTasks(source, options));
    const envs = new Map<string, Promise<BuiltEnv>>();
    const built = new Map<string, BuiltEnv>();
    for (const t of tasks) {
      const key = `${t.env.name}\0${t.env.hash}`;
      if (!envs.has(key)) {
        progress.update(`eval: preparing environment ${t.env.name}`);
        envs.set(key, taskEnvironment(t, store, dir, runtime));
      }
      built.set(t.id, await envs.get(key)!);
    }
    const addr = queueFlag(f);
    let remote: EvalRunOptions['remote'];
    if (addr) {
      if (trajectories) throw new UserError('--trajectories is not written for queued attempts yet', 'drop --trajectories, or run without --queue');
      if (predictions) throw new UserError('--predictions is not written for queued attempts yet', 'drop --predictions, or run without --queue');
      const opened = await openQueue(addr, `eval-${randomUUID().slice(0, 8)}`, ctx.err);
      queue = opened.queue;
      if (f.workers === undefined) {
        workers = Math.max(1, opened.slots);
        workersLine = `workers: ${workers} attempts in parallel (the queue's job slots; --workers to change)`;
      }
      const q = queue;
      const actor: ActorSpec = models.snapshot ? await q.policy(models.snapshot) : { kind: 'flags', flags: modelFlags(f) };
      const maxSteps = intFlag(f['max-steps'], '--max-steps', DEFAULT_AGENT_LIMITS.maxSteps, 1);
      remote = async (task, seed) => (await q.rollout(task, actor, seed, { version: 0, retrySeed: 'same', maxSteps })).rollout;
    }
    // The trajectories of a run's evaluation are kept beside its report unless told otherwise.
    const stem = `${slug(models.name)}-seed${seed}`;
    if (run && !trajectories && !remote) trajectories = join(evalsDir, stem);
    ctx.err(fromRun?.said ?? `eval: ${tasks.length} task(s) from ${source}`);
    ctx.err(workersLine);
    const startedAt = new Date().toISOString();
    const t0 = performance.now();
    const results = await runEval({
      tasks,
      built,
      models,
      attempts,
      seed,
      workers,
      runtime,
      dataDir: dir,
      ...(trajectories ? { trajectoriesDir: resolve(trajectories) } : {}),
      ...(predictions ? { keepChanges: true } : {}),
      ...(remote ? { remote } : {}),
      maxSteps: intFlag(f['max-steps'], '--max-steps', DEFAULT_AGENT_LIMITS.maxSteps, 1),
      onProgress: (p) => {
        const width = 30;
        const filled = Math.round((width * p.done) / Math.max(1, p.total));
        const secs = (performance.now() - t0) / 1000;
        const eta = p.done > 0 && p.done < p.total ? ` eta ${Math.ceil(((p.total - p.done) * secs) / p.done)} s` : '';
        progress.update(
          `eval [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.done}/${p.total} attempts | solved ${p.solvedTasks}/${tasks.length} tasks, ${p.passes}/${p.scored} attempts | infra ${p.infra}${eta}`,
        );
      },
    });
    progress.done();
    const report = buildReport(results, {
      model: models.name,
      scripted: models.scripted,
      tasksSource: fromRun?.source ?? source,
      k,
      attemptsPerTask: attempts,
      seed,
      workers,
      runtime: runtime.name,
      startedAt,
      totalMs: Math.round(performance.now() - t0),
    });
    const out = resolve(stringFlag(f, 'out') ?? join(evalsDir, `${stem}.json`));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    if (predictions) {
      const changes = new Map(results.map((r) => [r.id, r.attempts.map((a) => a.change)]));
      for (let i = 0; i < attempts; i++) {
        const file = predictionsFile(resolve(predictions), i);
        writePredictionsFile(file, predictionsOf(tasks, changes, models.name, i));
        ctx.err(`predictions of attempt ${i} written to ${file}`);
      }
    }
    if (f.json) ctx.out(JSON.stringify(report, null, 2));
    else ctx.out(`${renderReport(report)}\nreport written to ${out}${trajectories ? `\ntrajectories written to ${resolve(trajectories)}` : ''}`);
    return report.overall.scoredAttempts === 0 ? 1 : 0;
  } finally {
    progress.done();
    store.close();
    await queue?.close();
    await models.close();
  }
}
