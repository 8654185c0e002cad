// Where a rollout's time goes (issue 23's profile), for a JavaScript and a
// Python starter environment: candidate validation (synthesis), then per task
// and rollout the agent workspace's provisioning (from the pool), a graded
// workspace's (the task, a change and the verifier's layout), an empty
// command in a fresh sandbox and in the episode's kept sandbox, the runner's
// interpreter start, the suite with no sandbox, in a fresh sandbox and in the
// kept one, the embedded policy's episode (its model time and the rest: tool
// commands, test runs, the diff), the verifier's grading, the store write and
// the disposal. Phases are timed one by one with the same public functions
// the loop calls (the agent's test runs reused by content as in training);
// medians over the rollouts, then sandboxed over bare suite time with its
// spread, and what the workspace pool's refills cost in the background.
//
//   npx tsx bench/profile.ts [--tasks 3] [--rollouts 3] [--candidates 10] [env ...]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildEnvironment } from '../src/env/build.js';
import { starterEnvs } from '../src/env/load.js';
import { agentWorkspace } from '../src/grading/agent-view.js';
import { testArgv } from '../src/grading/testrun.js';
import { EmbeddedLearner } from '../src/policy/learner.js';
import { work } from '../src/rl/rollout.js';
import { ResultReuse } from '../src/grading/reuse.js';
import { BwrapRuntime, sandboxEnv } from '../src/runtime/bwrap.js';
import { envWorkspace } from '../src/env/workspace.js';
import { runProcess } from '../src/util/process.js';
import { workspacePool } from '../src/workspace/workspace.js';
import { bwrapAvailable, hostPython } from '../src/runtime/host.js';
import { AttemptLog } from '../src/store/attempts.js';
import { Store } from '../src/store/store.js';
import { synthesize } from '../src/taskpilot/synth.js';
import { TRAIN_DEFAULTS } from '../src/train/config.js';
import { table } from '../src/util/table.js';
import { verify } from '../src/verifier/verify.js';

const { values, positionals } = parseArgs({
  options: { tasks: { type: 'string', default: '3' }, rollouts: { type: 'string', default: '3' }, candidates: { type: 'string', default: '10' } },
  allowPositionals: true,
});
if (!bwrapAvailable()) throw new Error('bench/profile.ts needs bubblewrap (apt-get install bubblewrap)');
const TASKS = Number(values.tasks);
const ROLLOUTS = Number(values.rollouts);
const CANDIDATES = Number(values.candidates);
const names = positionals.length ? positionals : ['durations', 'rate-limiter'];

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
async function timed<T>(into: number[], f: () => Promise<T> | T): Promise<T> {
  const t = performance.now();
  const out = await f();
  into.push(performance.now() - t);
  return out;
}

const runtime = new BwrapRuntime();
const dataDir = mkdtempSync(join(tmpdir(), 'fn-profile-'));
const store = new Store(dataDir);
const log = new AttemptLog(store, dataDir);
const learner = new EmbeddedLearner(TRAIN_DEFAULTS);
const reuse = new ResultReuse();
const PHASES = [
  'candidate validation (per candidate)',
  'provision agent workspace',
  'provision graded workspace (task + change + layout)',
  'sandbox start: `true` in bwrap',
  "`true` in the episode's kept sandbox",
  'runner start: interpreter in bwrap',
  'test suite bare (no sandbox)',
  'test suite in bwrap (a sandbox per command)',
  "test suite in the episode's kept sandbox",
  'episode (provision + agent + diff + dispose)',
  '  of which policy (model turns)',
  '  of which the rest (tools, test runs, diff, workspace)',
  'grading (verifier, fresh workspace)',
  'store write (row + gzipped trajectory)',
  'dispose workspace',
] as const;
type Phase = (typeof PHASES)[number];
const columns: { env: string; ms: Map<Phase, number[]>; counts: string; ratios: { fresh: number[]; kept: number[] } }[] = [];

for (const name of names) {
  const env = starterEnvs().find((e) => e.spec.name === name);
  if (!env) throw new Error(`no starter environment ${name}`);
  const ms = new Map<Phase, number[]>(PHASES.map((p) => [p, []]));
  const ratios = { fresh: [] as number[], kept: [] as number[] };
  const at = (p: Phase) => ms.get(p)!;
  const built = await buildEnvironment(env, { dataDir, runtime });
  console.error(`${name}: synthesizing ${CANDIDATES} candidates...`);
  const t0 = performance.now();
  const stats = await synthesize({
    envs: [env],
    n: CANDIDATES,
    strategies: ['procedural'],
    operators: ['operations'],
    workers: 1,
    seed: 1,
    hint: 'full',
    visibility: 'visible',
    outDir: join(dataDir, 'tasks', name),
    dataDir,
    runtime,
    referenceRuns: 2,
    candidateRuns: 2,
  });
  const candidates = Object.values(stats.byStrategy).reduce((a, c) => a + (c.candidates ?? 0), 0);
  at('candidate validation (per candidate)').push((performance.now() - t0) / Math.max(1, candidates));
  const tasks = stats.tasks.slice(0, TASKS);
  const interpreter = env.spec.language === 'python' ? [hostPython()?.executable ?? 'python3', '-c', '0'] : ['node', '-e', '0'];
  let rollouts = 0;
  const bashRuns: number[] = [];
  for (const task of tasks) {
    for (let r = 0; r < ROLLOUTS; r++) {
      console.error(`${name}: ${task.id} rollout ${r + 1}/${ROLLOUTS}`);
      // The sandbox's own costs, in a workspace like the agent's.
      const ws = await timed(at('provision agent workspace'), () => agentWorkspace(task, built, runtime, dataDir));
      await timed(at('sandbox start: `true` in bwrap'), () => ws.exec({ argv: ['true'], timeoutMs: 30_000 }));
      await timed(at('runner start: interpreter in bwrap'), () => ws.exec({ argv: interpreter, timeoutMs: 30_000 }));
      const suite = { argv: testArgv(env.spec, ws, true), env: env.spec.test.env, timeoutMs: env.spec.timeoutSec * 1000 };
      await ws.exec(suite); // a first run of the fresh copy, not counted: the three compared below all run warm
      // The same suite with no sandbox at all: the runner in the workspace, with the sandbox's environment.
      const bare = suite.argv.map((a) => a.replaceAll(runtime.outPath(), ws.mounts.outDir));
      const bareMs = await timed(at('test suite bare (no sandbox)'), () =>
        runProcess({ argv: bare, cwd: ws.root, env: sandboxEnv(suite.env, '/tmp'), timeoutMs: suite.timeoutMs, maxOutputBytes: 1 << 24 }),
      ).then(() => at('test suite bare (no sandbox)').at(-1)!);
      await timed(at('test suite in bwrap (a sandbox per command)'), () => ws.exec(suite));
      ratios.fresh.push(at('test suite in bwrap (a sandbox per command)').at(-1)! / bareMs);
      ws.keepSandbox();
      await ws.exec({ argv: ['true'], timeoutMs: 30_000 }); // the kept sandbox starts
      await timed(at("`true` in the episode's kept sandbox"), () => ws.exec({ argv: ['true'], timeoutMs: 30_000 }));
      await timed(at("test suite in the episode's kept sandbox"), () => ws.exec(suite));
      ratios.kept.push(at("test suite in the episode's kept sandbox").at(-1)! / bareMs);
      await ws.release();
      await timed(at('dispose workspace'), () => ws.dispose());
      const graded = await timed(at('provision graded workspace (task + change + layout)'), () =>
        envWorkspace(built, runtime, dataDir, { patch: task.bugPatch, prepare: (tree) => tree.apply(task.fixPatch) }),
      );
      graded.dispose();
      // One rollout as training runs it.
      const actor = await learner.policy().actor({ seed: 100 * r + rollouts });
      // As training runs it: the agent's test runs remembered by workspace state across the run's rollouts.
      const ctx = { built, runtime, dataDir, reuse };
      const episode = await timed(at('episode (provision + agent + diff + dispose)'), () => work(task, actor, ctx));
      at('  of which policy (model turns)').push(episode.trajectory.turns.reduce((a, t) => a + t.ms, 0));
      const policy = episode.trajectory.turns.reduce((a, t) => a + t.ms, 0);
      at('  of which the rest (tools, test runs, diff, workspace)').push(at('episode (provision + agent + diff + dispose)').at(-1)! - policy);
      // The embedded policy runs commands only to run the tests.
      bashRuns.push(
        episode.trajectory.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : [])).filter((c) => JSON.stringify(c).includes('"Bash"'))
          .length,
      );
      const report = await timed(at('grading (verifier, fresh workspace)'), () => verify(task, episode.change, ctx));
      await timed(at('store write (row + gzipped trajectory)'), () =>
        log.record(
          {
            run: 'profile',
            step: 1,
            kind: 'train',
            taskId: task.id,
            policyVersion: 0,
            reward: report.reward,
            verdict: report.verdict,
            cause: report.cause ?? null,
            stopReason: episode.stopReason,
            turns: episode.steps,
            tokens: null,
            ms: 0,
            verifyMs: 0,
            cached: false,
            reason: null,
          },
          { trajectory: episode.trajectory, change: episode.change, report },
        ),
      );
      rollouts++;
    }
  }
  columns.push({
    env: `${name} (${env.spec.language})`,
    ms,
    ratios,
    counts: `${candidates} candidates, ${stats.tasks.length} valid; ${rollouts} rollouts on ${tasks.length} tasks; test runs per episode: median ${median(bashRuns)}`,
  });
}

const rows = PHASES.map((p) => [p, ...columns.map((c) => (Number.isNaN(median(c.ms.get(p)!)) ? '-' : `${median(c.ms.get(p)!).toFixed(0)} ms`))]);
console.log(table(['phase (median)', ...columns.map((c) => c.env)], rows));
for (const c of columns) console.log(`${c.env}: ${c.counts}`);
const spread = (xs: number[]) => `${median(xs).toFixed(2)} (range ${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}, ${xs.length} runs)`;
for (const c of columns)
  console.log(`${c.env}: suite sandboxed over bare: a sandbox per command ${spread(c.ratios.fresh)}; kept sandbox ${spread(c.ratios.kept)}`);
const all = (k: 'fresh' | 'kept') => columns.flatMap((c) => c.ratios[k]);
console.log(`overall sandboxed over bare: a sandbox per command ${spread(all('fresh'))}; kept sandbox ${spread(all('kept'))}`);
const pool = workspacePool.stats;
console.log(
  `workspace pool: ${pool.hits} of ${pool.hits + pool.misses} copies taken ready; refills ${pool.refills}, ${(pool.refillMs / Math.max(1, pool.refills)).toFixed(1)} ms each in the background`,
);
store.close();
rmSync(dataDir, { recursive: true, force: true });
