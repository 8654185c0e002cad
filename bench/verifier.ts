// Benchmark and audit of the verifier on a set of tasks (made with `synth`):
//
//   npx tsx bench/verifier.ts --tasks DIR [--runs 3] [--out FILE]
//
// For every task: the reference fix must earn 1 and an empty change 0, and
// neither the static check nor the guard may see anything in the reference
// fix (a false alarm). The added cost per grading is the full verifier
// (honeypots, copies, generated checks, the guard) against the same grading
// without the guard and without the task's layout at all (no honeypots,
// nothing moved, no checks), interleaved in one run; the static check and the
// workspace scan are timed apart. It also prints how many tasks have
// honeypots, generated checks (by environment), the guard, held-back tests,
// moved files, and a single failing test.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildEnvironment, type BuiltEnv } from '../src/env/build.js';
import { starterEnvs } from '../src/env/load.js';
import { agentWorkspace } from '../src/grading/agent-view.js';
import { honeypotCount } from '../src/grading/layout.js';
import { BwrapRuntime } from '../src/runtime/bwrap.js';
import { bwrapAvailable } from '../src/runtime/host.js';
import { readTasks } from '../src/task/io.js';
import type { Task } from '../src/task/task.js';
import { table } from '../src/util/table.js';
import { forgingSigns } from '../src/verifier/forging.js';
import { verify } from '../src/verifier/verify.js';
import { scanTree } from '../src/workspace/scan.js';

const { values } = parseArgs({ options: { tasks: { type: 'string' }, runs: { type: 'string', default: '3' }, out: { type: 'string' } } });
if (!values.tasks) throw new Error('pass --tasks DIR (a folder of task directories, e.g. from frognano synth)');
if (!bwrapAvailable()) throw new Error('bench/verifier.ts needs bubblewrap (apt-get install bubblewrap)');
const RUNS = Number(values.runs);
const runtime = new BwrapRuntime();
const dataDir = mkdtempSync(join(tmpdir(), 'fn-bench-verifier-'));
const tasks = readTasks(values.tasks);
const envs = new Map(starterEnvs().map((e) => [e.spec.name, e]));
const builts = new Map<string, BuiltEnv>();

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  return s.length ? s[Math.floor(i)]! + (s[Math.ceil(i)]! - s[Math.floor(i)]!) * (i - Math.floor(i)) : NaN;
};
const pct = (n: number, d: number) => `${d ? ((100 * n) / d).toFixed(1) : '-'}% (${n}/${d})`;

async function builtFor(t: Task): Promise<BuiltEnv> {
  let b = builts.get(t.env.name);
  if (!b) {
    const env = envs.get(t.env.name);
    if (!env) throw new Error(`${t.id}: environment ${t.env.name} is not a starter environment`);
    b = await buildEnvironment(env, { dataDir, runtime });
    builts.set(t.env.name, b);
  }
  if (b.hash !== t.env.hash) throw new Error(`${t.id}: environment ${t.env.name} changed since the task was made`);
  return b;
}

const problems: string[] = [];
const full: number[] = [];
const plain: number[] = [];
const unguarded: number[] = [];
const added: number[] = [];
const guardAdded: number[] = [];
const ratio: number[] = [];
let guardAlarms = 0;
const staticUs: number[] = [];
const scanMs: number[] = [];
let fixPass = 0;
let emptyZero = 0;
let falseAlarms = 0;
for (const [i, t] of tasks.entries()) {
  const built = await builtFor(t);
  const opts = { built, runtime, dataDir };
  const s0 = performance.now();
  const signs = forgingSigns(t.fixPatch);
  staticUs.push((performance.now() - s0) * 1000);
  if (signs.length) {
    falseAlarms++;
    problems.push(`${t.id}: the static check sees ${signs.map((x) => x.kind).join(', ')} in the reference fix`);
  }
  const ws = await agentWorkspace(t, built, runtime, dataDir);
  const c0 = performance.now();
  scanTree(
    ws.root,
    built.layers.map((l) => l.rel),
  );
  scanMs.push(performance.now() - c0);
  ws.dispose();
  let ok = true;
  for (let r = 0; r < RUNS; r++) {
    const a = await verify(t, t.fixPatch, opts);
    const b = await verify({ ...t, grading: undefined }, t.fixPatch, opts);
    full.push(a.durationMs);
    plain.push(b.durationMs);
    added.push(a.durationMs - b.durationMs);
    ratio.push(a.durationMs / b.durationMs);
    if (t.grading?.guard) {
      const c = await verify({ ...t, grading: { ...t.grading, guard: false } }, t.fixPatch, opts);
      unguarded.push(c.durationMs);
      guardAdded.push(a.durationMs - c.durationMs);
    }
    if (a.verdict === 'tampering' && !a.cause?.startsWith('forging')) guardAlarms++;
    if (a.verdict !== 'pass') {
      ok = false;
      problems.push(`${t.id}: the reference fix got ${a.verdict} (${a.cause}: ${a.reason})`);
    }
  }
  if (ok) fixPass++;
  const empty = await verify(t, '', opts);
  if (empty.reward === 0 && empty.verdict === 'fail') emptyZero++;
  else problems.push(`${t.id}: an empty change got ${empty.verdict} (${empty.reason})`);
  process.stderr.write(`\r${i + 1}/${tasks.length} tasks graded`);
}
process.stderr.write('\n');

const n = tasks.length;
const withTwins = tasks.filter((t) => honeypotCount(t.grading) > 0);
const twins = tasks.map((t) => honeypotCount(t.grading));
const unseen = tasks.filter((t) => (t.heldBack?.length ?? 0) > 0 || t.hiddenFiles.length > 0);
const several = tasks.filter((t) => t.FAIL_TO_PASS.length > 1);
const withChecks = (ts: Task[]) => ts.filter((t) => (t.grading?.checks?.length ?? 0) > 0).length;
const guarded = tasks.filter((t) => t.grading?.guard === true);
const byEnv = [...new Set(tasks.map((t) => t.env.name))].sort().map((env) => {
  const mine = tasks.filter((t) => t.env.name === env);
  const single = mine.filter((t) => t.FAIL_TO_PASS.length === 1);
  return [env, pct(withChecks(mine), mine.length), pct(withChecks(single), single.length), pct(mine.filter((t) => t.grading?.guard).length, mine.length)];
});
const reasons = new Map<string, number>();
for (const t of tasks)
  if (!t.grading?.checks?.length) reasons.set(t.grading?.noChecks ?? '(no layout)', (reasons.get(t.grading?.noChecks ?? '(no layout)') ?? 0) + 1);
const summary = {
  tasks: n,
  referenceFixEarns1: fixPass,
  emptyChangeEarns0: emptyZero,
  staticCheckFalseAlarms: falseAlarms,
  guardFalseAlarms: guardAlarms,
  withHoneypots: withTwins.length,
  withChecks: withChecks(tasks),
  singleFailingWithChecks: withChecks(tasks.filter((t) => t.FAIL_TO_PASS.length === 1)),
  checksMedian: quantile(
    tasks.map((t) => t.grading?.checks?.length ?? 0),
    0.5,
  ),
  noChecks: Object.fromEntries(reasons),
  guarded: guarded.length,
  twinsMedian: quantile(twins, 0.5),
  withMovedFiles: tasks.filter((t) => t.grading?.relocate).length,
  severalFailing: several.length,
  withUnseenFailing: unseen.length,
  singleFailing: n - several.length,
  gradingMs: { full: quantile(full, 0.5), withoutGuard: quantile(unguarded, 0.5), withoutLayout: quantile(plain, 0.5) },
  guardAddedMs: { median: quantile(guardAdded, 0.5), q1: quantile(guardAdded, 0.25), q3: quantile(guardAdded, 0.75) },
  addedMs: { median: quantile(added, 0.5), q1: quantile(added, 0.25), q3: quantile(added, 0.75) },
  ratio: { median: quantile(ratio, 0.5), q1: quantile(ratio, 0.25), q3: quantile(ratio, 0.75) },
  staticCheckUs: quantile(staticUs, 0.5),
  scanMs: quantile(scanMs, 0.5),
  problems,
};
console.log(
  table(
    ['measure', 'value'],
    [
      ['reference fix earns 1 (every run)', pct(fixPass, n)],
      ['empty change earns 0 (fail)', pct(emptyZero, n)],
      ['static check false alarms on reference fixes', `${falseAlarms} of ${n}`],
      ['guard alarms on reference fixes', `${guardAlarms} of ${n}`],
      ['tasks with honeypots', `${pct(withTwins.length, n)}, median ${summary.twinsMedian} twins`],
      ['tasks with generated checks', `${pct(summary.withChecks, n)}, median ${summary.checksMedian} checks`],
      ['tasks with a single failing test that have checks', pct(summary.singleFailingWithChecks, n - several.length)],
      ['tasks graded with the guard', pct(guarded.length, n)],
      ['tasks with pytest files moved per grading', pct(summary.withMovedFiles, n)],
      ['tasks with several failing tests', pct(several.length, n)],
      ['tasks with a failing test the agent never sees', pct(unseen.length, n)],
      ['tasks with a single failing test', pct(n - several.length, n)],
      [
        `grading, median of ${full.length}: full / without the guard / without layout`,
        `${summary.gradingMs.full.toFixed(0)} ms / ${summary.gradingMs.withoutGuard.toFixed(0)} ms / ${summary.gradingMs.withoutLayout.toFixed(0)} ms`,
      ],
      [
        'added by the guard per grading, median [IQR]',
        `${summary.guardAddedMs.median.toFixed(0)} ms [${summary.guardAddedMs.q1.toFixed(0)}, ${summary.guardAddedMs.q3.toFixed(0)}]`,
      ],
      ['added per grading, median [IQR]', `${summary.addedMs.median.toFixed(0)} ms [${summary.addedMs.q1.toFixed(0)}, ${summary.addedMs.q3.toFixed(0)}]`],
      ['full / without layout, median [IQR]', `${summary.ratio.median.toFixed(2)} [${summary.ratio.q1.toFixed(2)}, ${summary.ratio.q3.toFixed(2)}]`],
      ['static check per change, median', `${summary.staticCheckUs.toFixed(0)} µs`],
      ['workspace scan before the diff, median', `${summary.scanMs.toFixed(1)} ms`],
    ],
  ),
);
console.log(table(['environment', 'tasks with checks', 'single failing test with checks', 'guard on'], byEnv));
console.log(
  table(
    ['why a task has no check', 'tasks'],
    [...reasons].map(([r, k]) => [r, String(k)]),
  ),
);
for (const p of problems) console.log(`PROBLEM ${p}`);
if (values.out) writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`);
