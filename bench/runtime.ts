// Benchmark: workspace provisioning time, and per starter environment the
// ratio of the sandboxed (bwrap) suite time to the bare suite time (the same
// command run directly on the host, in a plain copy). Bare and sandboxed runs
// alternate so machine noise hits both alike. Goal: overall ratio <= 1.10.
//
//   npx tsx bench/runtime.ts [--runs 7] [--provision 30] [env ...]
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildEnvironment, type BuiltEnv } from '../src/env/build.js';
import { starterEnvs } from '../src/env/load.js';
import { runTests } from '../src/grading/testrun.js';
import { BwrapRuntime, sandboxEnv } from '../src/runtime/bwrap.js';
import { bwrapAvailable, hostPython } from '../src/runtime/host.js';
import { table } from '../src/util/table.js';
import { Workspace } from '../src/workspace/workspace.js';

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, provision: { type: 'string', default: '30' } },
  allowPositionals: true,
});
const RUNS = Number(values.runs);
const PROVISION = Number(values.provision);

if (!bwrapAvailable()) {
  console.error('bench/runtime.ts needs bubblewrap (apt-get install bubblewrap)');
  process.exit(1);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const runtime = new BwrapRuntime();
const dataDir = mkdtempSync(join(tmpdir(), 'fn-bench-'));
const baseDir = join(dataDir, 'tmp');
const envs = starterEnvs().filter((e) => positionals.length === 0 || positionals.includes(e.spec.name));

/** The test command run straight on the host in a plain copy of the snapshot. */
function bareRun(built: BuiltEnv, dir: string): number {
  const report = join(dir, '..', 'report');
  const argv = built.env.spec.test.command.map((a) => a.replaceAll('{report}', report).replaceAll('{python}', hostPython()?.executable ?? 'python3'));
  const started = performance.now();
  const res = spawnSync(argv[0]!, argv.slice(1), {
    cwd: dir,
    // The same variables the sandbox sets, so only the isolation differs.
    env: sandboxEnv(built.env.spec.test.env, tmpdir()),
    stdio: 'ignore',
  });
  const ms = performance.now() - started;
  if (res.status !== 0) throw new Error(`${built.env.spec.name}: bare run exited ${res.status}`);
  return ms;
}

const rows: (string | number)[][] = [];
let bareTotal = 0;
let boxTotal = 0;
const provisionMs: number[] = [];
const results: Record<string, unknown>[] = [];

for (const env of envs) {
  process.stderr.write(`${env.spec.name}: building\n`);
  const built = await buildEnvironment(env, { dataDir, runtime });
  const bareDir = join(mkdtempSync(join(tmpdir(), 'fn-bare-')), 'repo');
  cpSync(built.snapshot, bareDir, { recursive: true });
  for (const l of built.layers) symlinkSync(l.host, join(bareDir, l.rel));
  const bare: number[] = [];
  const box: number[] = [];
  bareRun(built, bareDir); // warm the page cache for both
  for (let i = 0; i < RUNS; i++) {
    bare.push(bareRun(built, bareDir));
    const ws = await Workspace.create({ snapshot: built.snapshot, layers: built.layers, runtime, baseDir });
    try {
      const run = await runTests(env.spec, ws);
      if (run.outcome !== 'completed') throw new Error(`${env.spec.name}: sandboxed run failed: ${run.reason}`);
      box.push(run.durationMs);
    } finally {
      ws.dispose();
    }
  }
  rmSync(join(bareDir, '..'), { recursive: true, force: true });
  const b = median(bare);
  const s = median(box);
  bareTotal += b;
  boxTotal += s;
  rows.push([env.spec.name, env.spec.language, b.toFixed(0), s.toFixed(0), (s / b).toFixed(3)]);
  results.push({ env: env.spec.name, bareMs: bare, sandboxMs: box, ratio: s / b });
}

// Provisioning: copy from the snapshot, one fresh commit, hand to the sandbox uid.
const probe = envs[0]!;
const built = await buildEnvironment(probe, { dataDir, runtime });
for (let i = 0; i < PROVISION; i++) {
  const t0 = performance.now();
  const ws = await Workspace.create({ snapshot: built.snapshot, layers: built.layers, runtime, baseDir });
  provisionMs.push(performance.now() - t0);
  ws.dispose();
}

const cores = execFileSync('nproc', { encoding: 'utf8' }).trim();
console.log(`\nruntime benchmark: ${RUNS} alternating runs per environment, ${cores} cores, median times in ms\n`);
console.log(table(['environment', 'language', 'bare ms', 'bwrap ms', 'bwrap/bare'], rows));
console.log(`\noverall sandboxed / bare (sum of medians): ${(boxTotal / bareTotal).toFixed(3)}   (goal <= 1.10)`);
console.log(`workspace provisioning (${probe.spec.name}, ${PROVISION} runs): median ${median(provisionMs).toFixed(1)} ms`);

mkdirSync('bench/out', { recursive: true });
writeFileSync(
  'bench/out/runtime.json',
  JSON.stringify(
    { date: new Date().toISOString(), runs: RUNS, overallRatio: boxTotal / bareTotal, provisionMedianMs: median(provisionMs), provisionMs, results },
    null,
    2,
  ),
);
rmSync(dataDir, { recursive: true, force: true });
