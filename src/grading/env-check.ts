// `env check`: build the dependency layer, run the reference suite twice in
// fresh sandboxed workspaces, and accept the environment only if the runs are
// trustworthy, at least 80% of tests pass, and no test is flaky.
import { buildEnvironment, type BuiltEnv } from '../env/build.js';
import type { LoadedEnv } from '../env/load.js';
import { envWorkspace } from '../env/workspace.js';
import type { Runtime } from '../runtime/types.js';
import { errorMessage } from '../util/errors.js';
import type { CheckRecord } from '../store/store.js';
import { runTests, type TestRun } from './testrun.js';
import { explainFailure, explanationLines, type Explanation } from './diagnose.js';

export const MIN_PASS_SHARE = 0.8;

export interface TestStability {
  id: string;
  statuses: string[];
  flaky: boolean;
  meanMs?: number;
}

export interface CheckResult {
  name: string;
  accepted: boolean;
  reasons: string[];
  runtime: string;
  tests: TestStability[];
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  runMs: number[];
  setupMs: number;
  provisionMs: number[];
  /** The first error that explains a broken suite, and its fix where known (diagnose.ts). */
  explanation?: Explanation;
}

export interface CheckOptions {
  dataDir: string;
  runtime: Runtime;
  runs?: number;
  onProgress?: (message: string) => void;
}

/** A check as the store keeps it (the summary without the per-test list, which goes to its own table). */
export function checkRecord(result: CheckResult): CheckRecord {
  return {
    env: result.name,
    runtime: result.runtime,
    accepted: result.accepted,
    summary: { ...result, tests: undefined },
    tests: result.tests.map((t) => ({ id: t.id, statuses: t.statuses, ...(t.meanMs !== undefined ? { durationMs: t.meanMs } : {}) })),
  };
}

/** Statuses of every test across runs; a test absent from a run counts as "missing". */
export function stability(runs: TestRun[]): TestStability[] {
  const ids = new Set<string>();
  for (const r of runs) for (const id of r.tests.keys()) ids.add(id);
  return [...ids].sort().map((id) => {
    const results = runs.map((r) => r.tests.get(id));
    const statuses = results.map((t) => t?.status ?? 'missing');
    const durations = results.map((t) => t?.durationMs).filter((d): d is number => d !== undefined);
    return {
      id,
      statuses,
      flaky: new Set(statuses).size > 1,
      ...(durations.length ? { meanMs: durations.reduce((a, b) => a + b, 0) / durations.length } : {}),
    };
  });
}

export async function checkEnvironment(env: LoadedEnv, opts: CheckOptions): Promise<CheckResult> {
  const name = env.spec.name;
  const reasons: string[] = [];
  const base = { name, runtime: opts.runtime.name, tests: [], total: 0, passed: 0, failed: 0, skipped: 0, flaky: 0, runMs: [], setupMs: 0, provisionMs: [] };
  let built: BuiltEnv;
  try {
    built = await buildEnvironment(env, { dataDir: opts.dataDir, runtime: opts.runtime, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
  } catch (err) {
    return { ...base, accepted: false, reasons: [`the dependency layer could not be built: ${errorMessage(err)}`] };
  }
  const runs: TestRun[] = [];
  const provisionMs: number[] = [];
  for (let i = 0; i < (opts.runs ?? 2); i++) {
    opts.onProgress?.(`${name}: reference run ${i + 1} of ${opts.runs ?? 2}`);
    const t0 = performance.now();
    const ws = await envWorkspace(built, opts.runtime, opts.dataDir);
    provisionMs.push(performance.now() - t0);
    try {
      runs.push(await runTests(env.spec, ws));
    } finally {
      ws.dispose();
    }
  }

  for (const [i, r] of runs.entries()) {
    if (r.outcome !== 'completed') reasons.push(`run ${i + 1}: ${r.reason}\n${indent(r.outputTail)}`);
    else if (!r.exitAgrees) reasons.push(`run ${i + 1}: ${r.reason}`);
  }
  const tests = stability(runs);
  const last = runs[runs.length - 1]!;
  const count = (s: string) => [...last.tests.values()].filter((t) => t.status === s).length;
  const passed = count('passed');
  const failed = count('failed') + count('error');
  const skipped = count('skipped');
  const total = last.tests.size;
  const flaky = tests.filter((t) => t.flaky);
  const failingMessages = [...last.tests.values()].filter((t) => t.status === 'failed' || t.status === 'error').map((t) => t.message ?? '');
  const explanation =
    runs.some((r) => r.outcome !== 'completed') || (total > 0 && passed / total < MIN_PASS_SHARE)
      ? explainFailure(runs.flatMap((r) => [r.errors ?? '', r.outputTail]).concat(failingMessages), built.snapshot)
      : null;
  if (runs.every((r) => r.outcome === 'completed')) {
    const share = total > 0 ? passed / total : 0;
    if (share < MIN_PASS_SHARE) {
      const failing = [...last.tests.values()].filter((t) => t.status === 'failed' || t.status === 'error');
      const list = failing
        .slice(0, 5)
        .map((t) => `${t.id}${t.message ? ` (${t.message.split('\n')[0]!.slice(0, 120)})` : ''}`)
        .join('; ');
      reasons.push(
        `only ${passed} of ${total} tests pass (${(share * 100).toFixed(0)}%); at least ${MIN_PASS_SHARE * 100}% must pass on the reference code` +
          (failing.length ? `. Failing: ${list}${failing.length > 5 ? `; and ${failing.length - 5} more` : ''}` : ''),
      );
    }
    if (flaky.length > 0) {
      const list = flaky
        .slice(0, 5)
        .map((t) => `${t.id} (${t.statuses.join(' then ')})`)
        .join('; ');
      reasons.push(`${flaky.length} flaky test(s) gave different results across runs: ${list}${flaky.length > 5 ? '; …' : ''}`);
    }
  }
  if (explanation) reasons.push(explanationLines(explanation));
  return {
    ...base,
    ...(explanation ? { explanation } : {}),
    accepted: reasons.length === 0,
    reasons,
    tests,
    total,
    passed,
    failed,
    skipped,
    flaky: flaky.length,
    runMs: runs.map((r) => r.durationMs),
    setupMs: built.setupMs,
    provisionMs,
  };
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}
