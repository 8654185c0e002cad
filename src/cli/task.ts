// `frognano task list | validate | export | import`.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildEnvironment } from '../env/build.js';
import { findEnvironment } from '../env/registry.js';
import { selectRuntime } from '../runtime/select.js';
import { Store } from '../store/store.js';
import { fromRecord, toSweBench, toSweSmith } from '../task/formats.js';
import { readHarborTask, writeHarborTask } from '../interop/harbor.js';
import { exportSweBenchDir } from '../interop/swebench.js';
import { exportSweSmithDir } from '../interop/swesmith.js';
import type { Task } from '../task/task.js';
import type { Runtime } from '../runtime/types.js';
import { readTasks, writeGrading, writeTask } from '../task/io.js';
import { taskEnvironment } from '../task/resolve.js';
import { reversePatch, revalidate } from '../taskpilot/revalidate.js';
import { errorMessage, UserError } from '../util/errors.js';
import { isRecord } from '../util/guards.js';
import { jsonLines } from '../util/json-lines.js';
import { dataDir } from '../util/paths.js';
import { table } from '../util/table.js';
import type { CliContext } from './context.js';
import { intFlag, stringFlag, workersFlag } from './flags.js';
import { AUDIT_DEFAULTS, auditTasks } from '../taskpilot/audit.js';
import { honeypotCount } from '../grading/layout.js';
import { loadState } from '../train/state.js';
import { percent, rate } from '../util/stats.js';

export const TASK_HELP = `Usage:
  frognano task list [--tasks DIR]
  frognano task validate <task-dir|tasks-dir>        re-validate tasks from their directories
  frognano task audit [<tasks-dir>] [--run NAME|DIR] [--sample 30] [--runs 5] [--seed 1] [--workers W]
      re-validate a random sample of accepted tasks (a run's admitted ones with --run) with more
      runs, check them for leaks, and bound the share of invalid or leaking tasks (95% Wilson)
  frognano task export --format swebench|swesmith|harbor [--tasks DIR] --out FILE|DIR
      swebench --out DIR: a task repository SWE-bench 5 runs (tasks/, sweb.yaml, instances.jsonl,
      a git repository per environment); --out FILE.jsonl: the records alone (what import reads);
      swesmith --out DIR: records named as SWE-smith names them, its repository profiles and a git
      repository per environment to push as the mirror; --out FILE.jsonl: the records alone
      harbor --out DIR: one Harbor task directory per task (docs/exports.md)
  frognano task import <file.jsonl> --format swebench|swesmith [--env NAME] [--out DIR]
  frognano task import <dir> --format harbor [--out DIR]   Harbor task directories FrogNano exported

--tasks defaults to <data-dir>/tasks. Records made by FrogNano import back
exactly; records from other tools need --env, the environment they run in.`;

/** Harbor task directories this tool exported (one, or a folder of them), back into task directories. */
function importHarbor(root: string, outDir: string): number {
  const dirs = existsSync(join(root, 'task.toml')) ? [root] : existsSync(root) ? readdirSync(root).map((d) => join(root, d)) : [];
  const tasks = dirs.filter((d) => existsSync(join(d, 'tests', 'config.json'))).map(readHarborTask);
  if (tasks.length === 0)
    throw new UserError(`no Harbor task directory exported by FrogNano at ${root}`, 'pass what frognano task export --format harbor wrote');
  for (const t of tasks) writeTask(outDir, t);
  return tasks.length;
}

export async function taskCommand(ctx: CliContext): Promise<number> {
  const [sub, ...rest] = ctx.positionals;
  const flag = (name: string) => stringFlag(ctx.flags, name);
  const dir = dataDir(flag('data-dir'));
  const tasksDir = flag('tasks') ?? join(dir, 'tasks');
  const store = new Store(dir);
  const runtime = () => selectRuntime({ name: flag('runtime') ?? 'auto', warn: ctx.err });
  try {
    switch (sub) {
      case 'list': {
        const tasks = readTasks(tasksDir);
        ctx.out(
          table(
            ['task', 'strategy', 'bugs', 'F2P', 'P2P', 'hint', 'tests'],
            tasks.map((t) => [t.id, t.provenance.strategy, t.knobs.bugs, t.FAIL_TO_PASS.length, t.PASS_TO_PASS.length, t.knobs.hint, t.knobs.visibility]),
          ),
        );
        ctx.out(`${tasks.length} tasks in ${tasksDir}`);
        return 0;
      }
      case 'validate': {
        const target = rest[0] ?? tasksDir;
        const tasks = readTasks(target);
        if (tasks.length === 0) throw new UserError(`no task directory at ${target}`, 'pass a task directory (holding task.json) or a folder of them');
        const rt = runtime();
        let failed = 0;
        for (const t of tasks) {
          const built = await taskEnvironment(t, store, dir, rt);
          const r = await revalidate(t, built, rt, dir);
          if (!r.ok) failed++;
          // A task made before honeypots (or imported) gains the checked layout its validation made.
          let added = '';
          if (r.ok && r.verdict.valid && !t.grading) {
            writeGrading(existsSync(join(target, 'task.json')) ? target : join(target, t.id), r.verdict.grading);
            added = `; honeypots added (${honeypotCount(r.verdict.grading)})`;
          }
          const detail = r.verdict.valid
            ? `F2P ${t.FAIL_TO_PASS.length - r.lostF2P.length}/${t.FAIL_TO_PASS.length} reproduce, P2P ${t.PASS_TO_PASS.length - r.lostP2P.length}/${t.PASS_TO_PASS.length}, reference fix passes${added}`
            : `${r.verdict.reason}: ${r.verdict.detail}`;
          ctx.out(`${r.ok ? 'VALID  ' : 'INVALID'} ${t.id}  ${detail}`);
        }
        return failed === 0 ? 0 : 1;
      }
      case 'audit': {
        const run = flag('run');
        // A run's name, or its directory (an evidence cell's, whose tasks are in the protocol's bank).
        const runDir = run && existsSync(join(run, 'state.json')) ? run : run && join(dir, 'runs', run);
        let tasks = readTasks(rest[0] ?? (runDir ? join(runDir, 'tasks') : tasksDir));
        if (runDir) {
          const state = loadState(runDir);
          if (!state) throw new UserError(`no run "${run}" in ${dir}`, 'pass the --run a train command used (or its directory), or a tasks directory');
          // Accepted: admitted by the probe (active) or trained on until solved (retired).
          const accepted = new Set(state.pool.entries.filter((e) => e.state === 'active' || e.state === 'retired').map((e) => e.taskId));
          tasks = tasks.filter((t) => accepted.has(t.id));
        }
        if (tasks.length === 0) throw new UserError('no accepted task to audit', 'pass a tasks directory or a run that admitted tasks');
        const rt = runtime();
        const builts = new Map<string, ReturnType<typeof taskEnvironment>>();
        const opts = {
          sample: intFlag(flag('sample'), '--sample', AUDIT_DEFAULTS.sample, 1),
          runs: intFlag(flag('runs'), '--runs', AUDIT_DEFAULTS.runs, 1),
          seed: intFlag(flag('seed'), '--seed', AUDIT_DEFAULTS.seed),
          workers: workersFlag(ctx.flags.workers, ctx.err),
        };
        ctx.err(`auditing ${Math.min(opts.sample, tasks.length)} of ${tasks.length} accepted tasks, ${opts.runs} clean and ${opts.runs} broken runs each`);
        const report = await auditTasks(
          tasks,
          (t) => {
            const key = `${t.env.name}@${t.env.hash}`;
            if (!builts.has(key)) builts.set(key, taskEnvironment(t, store, dir, rt));
            return builts.get(key)!;
          },
          rt,
          dir,
          opts,
          (e, done, total) => ctx.err(`[${done}/${total}] ${e.outcome.toUpperCase().padEnd(7)} ${e.taskId}  ${e.detail}`),
        );
        const n = report.entries.length;
        const share = (k: number, i: [number, number]) => `${rate(k, n)}, 95% interval ${percent(i[0])} to ${percent(i[1])}`;
        ctx.out(
          ctx.flags.json
            ? JSON.stringify(report)
            : [
                `audited ${n} of ${report.pool} accepted tasks (seed ${opts.seed}, ${opts.runs}+${opts.runs} runs each)`,
                `invalid: ${share(report.invalid, report.invalidShare)}`,
                `leaking: ${share(report.leaking, report.leakingShare)}`,
                `invalid or leaking: ${share(report.invalid + report.leaking, report.badShare)}`,
              ].join('\n'),
        );
        return report.invalid + report.leaking === 0 ? 0 : 1;
      }
      case 'export': {
        const format = flag('format');
        const out = flag('out');
        if (!out)
          throw new UserError(
            'export needs --out',
            'a directory (harbor; swebench and swesmith: what their harnesses run), or a .jsonl file (swebench, swesmith: the records alone)',
          );
        const tasks = readTasks(tasksDir);
        let rt: Runtime | undefined; // chosen when a format needs the environments
        const envOf = async (t: Task) => {
          rt ??= runtime();
          return { built: await taskEnvironment(t, store, dir, rt), runtime: rt, dataDir: dir };
        };
        const progress = (i: number, t: Task) => ctx.err(`[${i + 1}/${tasks.length}] ${t.id}`);
        if (format === 'swebench' && !out.endsWith('.jsonl')) {
          await exportSweBenchDir(out, tasks, envOf, progress);
          ctx.out(
            `exported ${tasks.length} tasks to ${out}: a SWE-bench task repository (tasks/, sweb.yaml), instances.jsonl, and a git repository per environment (repos/)`,
          );
          ctx.out(`run them: swebench eval ${join(out, 'instances.jsonl')} --task-repo ${out} -p preds.jsonl (docs/exports.md)`);
          return 0;
        }
        if (format === 'swesmith' && !out.endsWith('.jsonl')) {
          await exportSweSmithDir(out, tasks, envOf, progress);
          ctx.out(
            `exported ${tasks.length} tasks to ${out}: instances.jsonl named as SWE-smith names them, frognano_profiles.py, and a repository per environment to push as its mirror (repos/; docs/exports.md)`,
          );
          return 0;
        }
        if (format === 'swebench' || format === 'swesmith') {
          mkdirSync(dirname(out), { recursive: true });
          const conv = format === 'swebench' ? toSweBench : toSweSmith;
          writeFileSync(out, jsonLines(tasks.map(conv)));
        } else if (format === 'harbor') {
          for (const [i, t] of tasks.entries()) {
            progress(i, t);
            await writeHarborTask(out, t, await envOf(t));
          }
        } else throw new UserError(`unknown export format "${format ?? ''}"`, 'use --format swebench, swesmith or harbor');
        ctx.out(`exported ${tasks.length} tasks to ${out}`);
        return 0;
      }
      case 'import': {
        const file = rest[0];
        const format = flag('format');
        if (!file) throw new UserError('import needs a JSONL file', 'frognano task import tasks.jsonl --format swebench');
        if (format === 'harbor') {
          const n = importHarbor(file, flag('out') ?? tasksDir);
          ctx.out(`imported ${n} tasks into ${flag('out') ?? tasksDir}`);
          return 0;
        }
        if (format !== 'swebench' && format !== 'swesmith')
          throw new UserError(`unknown import format "${format ?? ''}"`, 'use --format swebench, swesmith or harbor');
        const outDir = flag('out') ?? tasksDir;
        const envName = flag('env');
        let foreign;
        if (envName) {
          const env = findEnvironment(store, envName);
          const built = await buildEnvironment(env, { dataDir: dir, runtime: runtime() });
          foreign = {
            env: { name: env.spec.name, hash: built.hash, spec: env.spec },
            reverse: (p: string) => reversePatch(built.snapshot, p, format === 'swebench' ? 'fix' : 'bug'),
          };
        }
        const lines = readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.trim());
        let n = 0;
        for (const [i, line] of lines.entries()) {
          let rec: unknown;
          try {
            rec = JSON.parse(line);
          } catch (err) {
            throw new UserError(`${file}:${i + 1} is not JSON: ${errorMessage(err)}`);
          }
          if (!isRecord(rec)) throw new UserError(`${file}:${i + 1} is not a JSON object`, 'one SWE-bench or SWE-smith record per line');
          writeTask(outDir, await fromRecord(format, rec, foreign));
          n++;
        }
        ctx.out(`imported ${n} tasks into ${outDir}`);
        return 0;
      }
      default:
        throw new UserError(
          sub ? `unknown task command "${sub}"` : 'missing task command',
          'use list, validate, audit, export or import (frognano task --help)',
        );
    }
  } finally {
    store.close();
  }
}
