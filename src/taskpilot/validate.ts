// The validator: a candidate bug becomes a task only if the tests prove it.
//
// - Reference: the environment's suite on clean code, run `referenceRuns`
//   times (default 3) once per environment; only tests that pass every time
//   can be labels. The reference fix restores the snapshot byte for byte
//   (checked per task by content digest), so these are runs of the fix too:
//   the fix's run reuses the first one's result (grading/reuse.ts).
// - Candidate: the suite with the bug, `candidateRuns` times (default 2).
//   FAIL_TO_PASS: passes on the reference, fails or vanishes under the bug,
//   every time. PASS_TO_PASS: passes in both, every time. Tests that disagree
//   between runs are dropped; a candidate left with no F2P is rejected. The
//   last run is the graded layout's run of the bug (below) where its required
//   tests agree with the first run; only a disagreement costs a plain run.
// - Flaky tests are never labels: those the environment's check saw flaky
//   and any that gave two results on the same code here are quarantined for
//   every later candidate. Once the environment has shown one, the reference
//   runs go to SHAKY_REFERENCE_RUNS, each candidate gets one more run, and the
//   fix a run of its own. A behaviour-preserving bug then has no F2P: only a
//   flaky test could have failed under it.
// - Rejected too: a timeout, no F2P (a no-op or an undetected change), no
//   P2P (a change that breaks everything), a duplicate bug, a broken
//   workspace that holds anything revealing the fix.
// - A valid candidate's graded layout (honeypots, moved test files) is then
//   checked on the broken state and the fix (grading-check.ts).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { BuiltEnv } from '../env/build.js';
import { runTests, type TestRun } from '../grading/testrun.js';
import { sharedReuse, type ResultReuse } from '../grading/reuse.js';
import { noLayout } from '../grading/layout.js';
import type { Runtime } from '../runtime/types.js';
import type { GradingLayout } from '../task/task.js';
import { git } from '../util/git.js';
import { matchesAny } from '../util/glob.js';
import { envWorkspace } from '../env/workspace.js';
import type { Workspace } from '../workspace/workspace.js';
import { brokenBehaves, checkedLayout, startLayoutCheck, type LayoutCheck, type LayoutStart } from './grading-check.js';
import { errorMessage } from '../util/errors.js';

/**
 * Reference runs in all once an environment has shown a flaky test: a test
 * failing one run in four passes ten in a row with probability 5.6%.
 */
export const SHAKY_REFERENCE_RUNS = 10;

/** The file a pytest id starts with ("tests/test_a.py::T::t"); none where the text before "::" is no .py file (a mocha suite title). */
export function pytestIdFile(id: string): string | undefined {
  const prefix = id.split('::')[0]!;
  return id.includes('::') && prefix.endsWith('.py') ? prefix : undefined;
}

export type RejectReason = 'apply-failed' | 'duplicate' | 'timeout' | 'infra' | 'no-f2p' | 'no-p2p' | 'flaky' | 'fix-fails' | 'leak';

export interface CandidateChange {
  /** Introduces the bug into the snapshot. */
  bugPatch: string;
  /** The reference fix: the reverse of the bug patch. */
  fixPatch: string;
  /** Original content of each file the bug changes (for the leak check). */
  originals: Record<string, string>;
}

export type Verdict =
  | {
      valid: true;
      f2p: string[];
      p2p: string[];
      testFiles: Record<string, string>;
      dropped: string[];
      candidateMs: number;
      failures: Record<string, string>;
      /** The checked graded layout (grading-check.ts); empty when no honeypot or move survived the check. */
      grading: GradingLayout;
    }
  | { valid: false; reason: RejectReason; detail: string };

/** Runs a candidate's checks (this process's validator, or a queue's worker); the duplicate bookkeeping stays with the caller. */
export type CheckChange = (c: CandidateChange) => Promise<Verdict>;

export interface ValidatorOptions {
  referenceRuns?: number;
  candidateRuns?: number;
  timeoutSec?: number;
  /** Where test runs are reused by content (grading/reuse.ts); the process's shared store by default. */
  reuse?: ResultReuse;
  /** Where the checks run; this validator's own `check` by default. */
  check?: CheckChange;
}

export function patchKey(patch: string): string {
  // Hunk headers and context do not change what the bug is.
  const body = patch
    .split('\n')
    .filter((l) => /^[-+](?![-+]{2} )/.test(l))
    .join('\n');
  return createHash('sha256')
    .update(patch.match(/^diff --git .*$/gm)?.join('\n') ?? '')
    .update(body)
    .digest('hex')
    .slice(0, 16);
}

export class EnvValidator {
  private reference?: Promise<{ stable: Set<string>; run: TestRun }>;
  private readonly seen = new Set<string>();

  constructor(
    readonly built: BuiltEnv,
    readonly runtime: Runtime,
    readonly dataDir: string,
    readonly opts: ValidatorOptions = {},
  ) {}

  /** Slowest clean run, once the reference runs are done. */
  private referenceMs = 0;

  /**
   * Candidate runs get a timeout scaled to the clean suite: five times its
   * slowest run, at least 10 s, at most the spec's. A mutant that loops
   * forever then costs seconds, not the whole spec timeout.
   */
  private get timeoutSec(): number {
    if (this.opts.timeoutSec) return this.opts.timeoutSec;
    const spec = this.built.env.spec.timeoutSec;
    return this.referenceMs > 0 ? Math.min(spec, Math.max(10, Math.ceil((5 * this.referenceMs) / 1000))) : spec;
  }

  private workspace(patch?: string): Promise<Workspace> {
    // A candidate's states are taken a known few times, one after another: no spare copies.
    return envWorkspace(this.built, this.runtime, this.dataDir, { ...(patch ? { patch } : {}), spares: false });
  }

  /**
   * One run of the suite. `repeat`: a deliberate repeat (the reference and
   * candidate runs look for flaky tests), always run; other runs reuse a
   * result for the same content (the reference fix restores the snapshot, so
   * its run is the reference's).
   */
  private async run(ws: Workspace, repeat = false): Promise<TestRun> {
    return runTests(this.built.env.spec, ws, { timeoutSec: this.timeoutSec, reuse: this.opts.reuse ?? sharedReuse, fresh: repeat });
  }

  /**
   * Tests never used as labels: those the environment's check saw flaky, and
   * those that gave two results on the same code in this validator's runs.
   */
  private quarantined?: Set<string>;
  private get quarantine(): Set<string> {
    this.quarantined ??= new Set(this.built.env.flaky ?? []);
    return this.quarantined;
  }

  /** True once the environment has shown a flaky test: each candidate then pays for more evidence (SHAKY_*). */
  private get shaky(): boolean {
    return this.quarantine.size > 0;
  }

  /** Tests that pass on every reference run, none quarantined. */
  referenceTests(): Promise<{ stable: Set<string>; run: TestRun }> {
    this.reference ??= (async () => {
      const once = async () => {
        const ws = await this.workspace();
        try {
          const r = await this.run(ws, true);
          if (r.outcome !== 'completed' || !r.exitAgrees) {
            throw new Error(`${this.built.env.spec.name}: the reference run is not usable: ${r.reason}\n${r.outputTail}`);
          }
          return r;
        } finally {
          ws.dispose();
        }
      };
      // Side by side: every candidate waits for them, and a clean suite's flaky test shows as well under load.
      const first = this.opts.referenceRuns ?? 3;
      const runs = await Promise.all(Array.from({ length: first }, once));
      this.quarantineDisagreements(runs);
      // A suite that has shown a flaky test is run until SHAKY_REFERENCE_RUNS in all, in rounds of `first`.
      while (this.shaky && runs.length < Math.max(first, SHAKY_REFERENCE_RUNS)) {
        runs.push(...(await Promise.all(Array.from({ length: Math.min(first, SHAKY_REFERENCE_RUNS - runs.length) }, once))));
        this.quarantineDisagreements(runs);
      }
      this.referenceMs = Math.max(...runs.map((r) => r.durationMs));
      const stable = new Set([...runs[0]!.tests.values()].filter((t) => runs.every((r) => r.tests.get(t.id)?.status === 'passed')).map((t) => t.id));
      return { stable, run: runs[0]! };
    })();
    return this.reference;
  }

  /** Quarantines every test that did not give one status across runs of the same code. */
  private quarantineDisagreements(runs: TestRun[]): void {
    const ids = new Set(runs.flatMap((r) => [...r.tests.keys()]));
    for (const id of ids) if (new Set(runs.map((r) => r.tests.get(id)?.status ?? 'missing')).size > 1) this.quarantine.add(id);
  }

  /** Marks bugs as already taken (e.g. by stored tasks), by their patch keys. */
  remember(keys: string[]): void {
    for (const k of keys) this.seen.add(k);
  }

  /** A candidate's verdict; a bug already made (by patch key) is a duplicate without running anything. */
  validate(c: CandidateChange): Promise<Verdict> {
    const key = patchKey(c.bugPatch);
    if (this.seen.has(key)) return Promise.resolve({ valid: false, reason: 'duplicate', detail: 'the same bug was already made' });
    this.seen.add(key);
    return (this.opts.check ?? ((x) => this.check(x)))(c);
  }

  /**
   * Whether a test's definition lies outside the protected test paths: its file from the report, else the path a
   * pytest id starts with. A mocha suite's title also comes before "::", so only a prefix naming a Python file counts.
   */
  private definedInCode(id: string, file: string | undefined): boolean {
    const rel = file ?? pytestIdFile(id);
    return rel !== undefined && !rel.startsWith('/') && !matchesAny(rel, this.built.env.spec.testPaths);
  }

  /** The checks themselves: fails with the bug, passes with the fix, stable, no leak, a graded layout. */
  async check(c: CandidateChange): Promise<Verdict> {
    const { stable: reference } = await this.referenceTests();
    const stable = [...reference].filter((id) => !this.quarantine.has(id));

    let ws: Workspace;
    try {
      ws = await this.workspace(c.bugPatch);
    } catch (err) {
      return { valid: false, reason: 'apply-failed', detail: errorMessage(err) };
    }
    const started = performance.now();
    try {
      // Looked for in the first copy before anything runs in it; reported after the test checks, as before.
      const leak = await this.leaks(ws, c);
      let f2p: string[] = [];
      let p2p: string[] = [];
      const dropped: string[] = [];
      const failures: Record<string, string> = {};
      const testFiles: Record<string, string> = {};
      const runs = (this.opts.candidateRuns ?? 2) + (this.shaky ? 1 : 0);
      let layoutStart: LayoutStart | undefined;
      for (let i = 0; i < runs; i++) {
        if (i > 0 && i === runs - 1) {
          // The last repeat is the first graded layout's run of the bug where it agrees with the first run: one suite run fewer.
          const start = await startLayoutCheck(await this.layoutCheck(c, f2p, p2p));
          if (start.first?.broken && brokenBehaves({ f2p, p2p }, start.first.broken.run)) {
            layoutStart = start;
            continue;
          }
        }
        // A fresh copy of the broken state for each run (a copy in this process: cheaper than a reset).
        if (i > 0) ws = await this.fresh(ws, c.bugPatch);
        const r = await this.run(ws, true);
        if (r.outcome === 'timeout') return { valid: false, reason: 'timeout', detail: r.reason ?? 'timeout' };
        if (r.outcome !== 'completed') return { valid: false, reason: 'infra', detail: r.reason ?? 'infrastructure error' };
        const failing = stable.filter((id) => r.tests.get(id)?.status !== 'passed');
        const passing = stable.filter((id) => r.tests.get(id)?.status === 'passed');
        for (const id of failing) {
          const t = r.tests.get(id);
          failures[id] ??= t?.message ?? 'the test did not run';
          if (t?.file) testFiles[id] = t.file;
        }
        if (i === 0) {
          // A test defined in a file the agent may edit (a doctest in a module) is no label: it could be rewritten to pass.
          const editable = failing.filter((id) => this.definedInCode(id, testFiles[id]));
          f2p = failing.filter((id) => !editable.includes(id));
          p2p = passing.filter((id) => !this.definedInCode(id, r.tests.get(id)?.file));
          if (f2p.length === 0 && editable.length > 0)
            return { valid: false, reason: 'no-f2p', detail: `only tests defined in code the agent may edit fail: ${editable.slice(0, 3).join(', ')}` };
          if (f2p.length === 0) return { valid: false, reason: 'no-f2p', detail: 'no test fails with the bug (a no-op or an untested change)' };
          if (p2p.length === 0) return { valid: false, reason: 'no-p2p', detail: 'every test fails with the bug' };
        } else {
          const keepF = f2p.filter((id) => failing.includes(id));
          const keepP = p2p.filter((id) => passing.includes(id));
          const disagreed = [...f2p.filter((id) => !keepF.includes(id)), ...p2p.filter((id) => !keepP.includes(id))];
          dropped.push(...disagreed);
          for (const id of disagreed) this.quarantine.add(id); // two results on the same broken code: flaky
          f2p = keepF;
          p2p = keepP;
        }
      }
      if (f2p.length === 0) return { valid: false, reason: 'flaky', detail: `the failing tests did not fail every time: ${dropped.slice(0, 3).join(', ')}` };
      if (p2p.length === 0) return { valid: false, reason: 'flaky', detail: 'no test passed every time with the bug' };

      if (leak) return { valid: false, reason: 'leak', detail: leak };

      // The reference fix, applied to the broken state, restores the snapshot and passes.
      ws = await this.fresh(ws, c.bugPatch);
      try {
        await ws.applyPatch(c.fixPatch);
      } catch (err) {
        return { valid: false, reason: 'fix-fails', detail: `the reference fix does not apply: ${errorMessage(err)}` };
      }
      if (await this.differsFromSnapshot(ws)) return { valid: false, reason: 'fix-fails', detail: 'the reference fix does not restore the original code' };
      // Where a test has shown flakiness the fix gets a run of its own, not the reference's result.
      const fixed = await this.run(ws, this.shaky);
      if (fixed.outcome !== 'completed') return { valid: false, reason: fixed.outcome === 'timeout' ? 'timeout' : 'infra', detail: fixed.reason ?? '' };
      const fixFails = [...f2p, ...p2p].filter((id) => fixed.tests.get(id)?.status !== 'passed');
      dropped.push(...fixFails);
      f2p = f2p.filter((id) => !fixFails.includes(id));
      p2p = p2p.filter((id) => !fixFails.includes(id));
      if (f2p.length === 0) return { valid: false, reason: 'fix-fails', detail: 'no failing test passes with the reference fix' };
      const candidateMs = performance.now() - started;
      const layout = await checkedLayout(await this.layoutCheck(c, f2p, p2p), layoutStart);
      return { valid: true, f2p, p2p, testFiles, dropped, candidateMs, failures, grading: layout ?? noLayout() };
    } finally {
      ws.dispose();
    }
  }

  /** What the graded layout's check needs for a candidate and its labels. */
  private async layoutCheck(c: CandidateChange, f2p: string[], p2p: string[]): Promise<LayoutCheck> {
    const reportIds = new Set((await this.referenceTests()).run.tests.keys());
    return {
      built: this.built,
      runtime: this.runtime,
      dataDir: this.dataDir,
      bugPatch: c.bugPatch,
      fixPatch: c.fixPatch,
      f2p,
      p2p,
      reportIds,
      timeoutSec: this.timeoutSec,
    };
  }

  /** `ws` disposed and a fresh workspace of the same state in its place. */
  private async fresh(ws: Workspace, patch?: string): Promise<Workspace> {
    ws.dispose();
    return this.workspace(patch);
  }

  /** The broken workspace must hold nothing that shows the original code. */
  private async leaks(ws: Workspace, c: CandidateChange): Promise<string | null> {
    const gitDir = join(ws.root, '.git');
    const commits = (await git(['rev-list', '--all', '--count'], { gitDir })).trim();
    if (commits !== '1') return `the workspace history holds ${commits} commits`;
    for (const [rel, original] of Object.entries(c.originals)) {
      const blob = (await git(['hash-object', '--stdin'], { input: original })).trim();
      const found = await git(['cat-file', '-e', blob], { gitDir }).then(
        () => true,
        () => false,
      );
      if (found) return `the workspace's git objects hold the original ${rel}`;
    }
    const status = await git(['status', '--porcelain', '--ignored'], { gitDir, workTree: ws.root });
    const extra = status.split('\n').filter((l) => l.trim() && !this.built.layers.some((x) => l.includes(x.rel)));
    if (extra.length > 0) return `the workspace holds files outside its commit: ${extra.slice(0, 3).join(', ')}`;
    return null;
  }

  private snapshot?: Promise<{ digest: string | null; tree: string }>;

  /** Compared by content digest in this process; by git's tree where a tree is too large to digest. */
  private async differsFromSnapshot(ws: Workspace): Promise<boolean> {
    const tree = async (w: Workspace) => {
      const g = { gitDir: join(w.dir, 'trusted'), workTree: w.root };
      await git(['add', '-A'], g);
      return git(['write-tree'], g);
    };
    this.snapshot ??= this.workspace().then(async (ref) => {
      try {
        return { digest: ref.digest(), tree: await tree(ref) };
      } finally {
        ref.dispose();
      }
    });
    const snap = await this.snapshot;
    const digest = snap.digest && ws.digest();
    return digest ? digest !== snap.digest : (await tree(ws)) !== snap.tree;
  }
}
