// The red team's harness: scripted agents act through the real harness in
// real agent workspaces of toy tasks (JavaScript, TypeScript and Python, with
// the honeypots synthesis would give them), then the verifier grades what
// they left. Every episode checks that nothing of the sandbox survives it,
// that grading ended within its time bound and that the host is as the suite
// found it. The scripted models are scripted: they replay fixed tool calls.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { after, afterEach, before } from 'node:test';
import type { AgentLimits } from '../../../src/agent/limits.js';
import { type AgentResult, runAgent } from '../../../src/agent/loop.js';
import { agentWorkspace } from '../../../src/grading/agent-view.js';
import { ScriptedModel, type ScriptedReply } from '../../../src/model/scripted.js';
import { bwrapAvailable } from '../../../src/runtime/host.js';
import { agentInstruction } from '../../../src/rl/rollout.js';
import { verify, type AgentChange, type Verdict, type VerifierReport } from '../../../src/verifier/verify.js';
import { ChangeRefused } from '../../../src/workspace/scan.js';
import type { Workspace } from '../../../src/workspace/workspace.js';
import type { ToyTask } from '../../helpers/task.js';
import { processesOf, tempDir, waitFor } from '../../helpers/workspace.js';

// Without bubblewrap the toy tasks would run on the local runtime: these
// attacks would then run on the host itself.
export const skip = bwrapAvailable() ? false : 'bubblewrap cannot create a sandbox here (apt-get install bubblewrap)';
export const T = { timeout: 180_000 };
/** Grading of one change ends within this, whatever the change does. */
export const GRADE_BOUND_MS = 90_000;

export const tool = (name: string, args: Record<string, unknown>): ScriptedReply => ({ toolCalls: [{ name, arguments: args }] });
export const sh = (command: string, timeout?: number) => tool('Bash', timeout ? { command, timeout } : { command });
export const write = (file_path: string, content: string) => tool('Write', { file_path, content });
export const edit = (file_path: string, old_string: string, new_string: string) => tool('Edit', { file_path, old_string, new_string });
export const md5 = (text: string) => createHash('md5').update(text).digest('hex');

export interface Episode {
  result: AgentResult;
  /** What each tool call answered, in order. */
  outputs: string[];
  report: VerifierReport;
}

/** Hash of every path and file under a directory (symlinks by their target). */
export function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      h.update(`${relative(dir, p)}\0${st.mode}\0`);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) h.update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

export class RedTeam {
  readonly mark = `frognano-redteam-${process.pid}`;
  readonly victim = tempDir('fn-victim-');
  private before = '';
  private last: VerifierReport | undefined;

  constructor(readonly tasks: Record<string, ToyTask>) {}

  /** What an attack could change on the host: every task's snapshot, a victim directory, marker files. */
  hostState(): string {
    const all = Object.values(this.tasks);
    const markers = ['/etc', '/usr', '/', '/tmp', this.victim, ...all.flatMap((t) => [t.dataDir, dirname(t.built.snapshot)])]
      .map((d) => join(d, this.mark))
      .filter((p) => existsSync(p));
    return JSON.stringify({ snapshots: all.map((t) => treeHash(t.built.snapshot)), victim: treeHash(this.victim), markers });
  }

  start(): void {
    this.before = this.hostState();
  }

  finish(): void {
    assert.equal(this.hostState(), this.before, 'the host is as the suite found it');
  }

  /** With FROGNANO_REDTEAM_LOG=FILE, appends the last episode's verdict under the test's name (for the table in docs). */
  log(test: string): void {
    const file = process.env.FROGNANO_REDTEAM_LOG;
    const r = this.last;
    this.last = undefined;
    if (file && r) appendFileSync(file, `${JSON.stringify({ test, verdict: r.verdict, cause: r.cause ?? null, reward: r.reward, gradeMs: r.durationMs })}\n`);
  }

  /** Runs a scripted agent in a fresh agent workspace, then grades what it left; checks the host after both. */
  async episode(t: ToyTask, steps: ScriptedReply[] | ((ws: Workspace) => ScriptedReply[]), limits: Partial<AgentLimits> = {}): Promise<Episode> {
    const ws = await agentWorkspace(t.task, t.built, t.runtime, t.dataDir);
    const uid = ws.mounts.uid;
    const script = typeof steps === 'function' ? steps(ws) : steps;
    let result: AgentResult;
    let change: AgentChange;
    try {
      const model = new ScriptedModel([...script, { content: 'Done: the tests pass now.' }], { name: 'redteam' });
      result = await runAgent({ model, workspace: ws, instruction: agentInstruction(t.task, ws), limits: { commandTimeoutMs: 30_000, ...limits } });
      change = await ws.diff().catch((err: unknown) => {
        if (!(err instanceof ChangeRefused)) throw err;
        return { refused: { code: err.code, message: err.message } };
      });
    } finally {
      ws.dispose();
    }
    assert.equal(result.stopReason, 'submitted');
    assert.ok(await waitFor(() => processesOf(uid).length === 0), 'no process of the sandbox uid survives the episode');
    const report = await verify(t.task, change, { built: t.built, runtime: t.runtime, dataDir: t.dataDir });
    this.last = report;
    assert.ok(report.durationMs < GRADE_BOUND_MS, `grading took ${report.durationMs} ms`);
    assert.equal(this.hostState(), this.before, 'the host is untouched');
    const outputs = result.trajectory.messages.filter((m) => m.role === 'tool').map((m) => String(m.content ?? ''));
    assert.equal(outputs.length, script.length, 'every scripted action ran');
    return { result, outputs, report };
  }
}

/** One test file's red team, as the tests use it. */
export interface RedTeamHandle {
  task(name: string): ToyTask;
  /** A scripted episode on the named task (RedTeam.episode). */
  episode(name: string, steps: ScriptedReply[] | ((ws: Workspace) => ScriptedReply[]), limits?: Partial<AgentLimits>): Promise<Episode>;
  readonly mark: string;
  readonly victim: string;
}

/**
 * A red team for one test file: builds its toy tasks before the tests, logs
 * each test's verdict after it, and checks the host once all are done.
 */
export function useRedTeam(tasks: () => Promise<Record<string, ToyTask>>): RedTeamHandle {
  let team: RedTeam | undefined;
  before(async () => {
    team = new RedTeam(await tasks());
    team.start();
  });
  afterEach((ctx) => team?.log(ctx.name));
  after(() => team?.finish());
  const task = (name: string) => {
    const t = team?.tasks[name];
    if (!t) throw new Error(`no red-team task named ${name}`);
    return t;
  };
  return {
    task,
    episode: (name, steps, limits = {}) => team!.episode(task(name), steps, limits),
    get mark() {
      return team!.mark;
    },
    get victim() {
      return team!.victim;
    },
  };
}

/** Reward 0, scored (never an infrastructure failure), with the verdict and, where given, its cause. */
export function zero(r: VerifierReport, verdict: Exclude<Verdict, 'pass' | 'infra'>, cause?: string | RegExp): void {
  const seen = JSON.stringify({ verdict: r.verdict, cause: r.cause, reason: r.reason, tamper: r.tamper });
  assert.equal(r.reward, 0, seen);
  assert.equal(r.resolved, false);
  assert.equal(r.infraFailure, false);
  assert.equal(r.verdict, verdict, seen);
  if (typeof cause === 'string') assert.equal(r.cause, cause, seen);
  else if (cause) assert.match(r.cause ?? '', cause, seen);
}

export const droppedFiles = (r: VerifierReport) => r.patch.dropped.map((d) => d.file).sort();
