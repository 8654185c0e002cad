// The embedded policy acting as a model in the agent harness, one episode per
// instance. It works like a methodical person with few ideas: run the tests,
// list and read the source and the failing tests, then try repairs one at a
// time (Edit, run the tests; keep a repair that lowers the number of failing
// tests, undo one that does not) and submit when the tests pass or its
// attempts run out. Which repair to try is the one learned choice: sampled
// from the log-linear model over every candidate repair in the files read
// (the model's starting weights say where to look, see PRIOR in features.ts),
// its exact log-probability recorded as the turn's logprob, its features in
// the turn's learner data (EmbeddedTurn) for the learner.
import type { Model, ModelTurn, ToolCall, TurnRequest } from '../model/types.js';
import { languageOf } from '../util/syntax.js';
import { rng as makeRng } from '../util/rng.js';
import { applyRepair, asEdit, repairsIn, type Repair } from './candidates.js';
import { featurize, type FeatureContext, type Sparse } from './features.js';
import type { LinearPolicy } from './linear.js';
import type { Choice, EmbeddedTurn } from './decisions.js';
import { corpusOf } from './naturalness.js';
import { improved, observeTests, TEST_PATH, testedStems, words, type TestObservation } from './observe.js';

export interface EmbeddedAgentOptions {
  seed: number;
  /** Repairs tried before giving up (default 10). */
  maxAttempts?: number;
  temperature?: number;
  /** Take the most probable repair (evaluation) instead of sampling. */
  greedy?: boolean;
  /** Source files read at most. */
  maxFiles?: number;
  /**
   * Stop where the first repair would be chosen, keeping the candidates and
   * their features in `opening` (how the curriculum screens a new task, see
   * src/train/reach.ts): no edit is made.
   */
  openingOnly?: boolean;
}

/** The first repair choice's candidates (with the text of their file) and their features. */
export interface Opening {
  cands: { r: Repair; text: string }[];
  feats: Sparse[];
}

/** About 0.7 s of sandboxed test run each on the JavaScript starters. */
export const MAX_ATTEMPTS = 10;

type Pending =
  | { kind: 'test' }
  | { kind: 'glob' }
  | { kind: 'read'; file: string; test: boolean; line?: number }
  | { kind: 'edit'; repair?: Repair; undo?: boolean };

/** The test command the harness put in the instruction ("Run the tests with:" and an indented line). */
export function testCommandOf(instruction: string): string | null {
  return /Run the tests with:\s*\n\s+(.+)/.exec(instruction)?.[1]?.trim() ?? null;
}

export class EmbeddedAgent implements Model<EmbeddedTurn> {
  readonly name = 'embedded-policy';
  readonly supportsTools = true;
  opening: Opening | null = null;
  /** Choices made so far, and those found undone since the last turn (reported on the next). */
  private choices = 0;
  private undone: number[] = [];
  private readonly random: () => number;
  private pending: Pending | null = null;
  private calls = 0;
  private workdir = '';
  private command = '';
  private instructionWords = new Set<string>();
  private readonly files = new Map<string, string>();
  private readonly testWords = new Set<string>();
  private readonly failLineWords = new Set<string>();
  private readonly queue: Pending[] = [];
  private baseline: TestObservation | null = null;
  private current: TestObservation | null = null;
  private readonly tried = new Set<string>();
  private readonly triedLines = new Set<string>();
  private attempts = 0;
  private lastRepair: { repair: Repair; before: string; decision: number } | null = null;

  constructor(
    private readonly policy: LinearPolicy,
    private readonly opts: EmbeddedAgentOptions,
  ) {
    this.random = makeRng(opts.seed);
  }

  async turn(req: TurnRequest): Promise<ModelTurn<EmbeddedTurn>> {
    const last = req.messages.at(-1);
    const observation = last?.role === 'tool' && typeof last.content === 'string' ? last.content : '';
    if (!this.pending) this.start(req);
    else await this.absorb(this.pending, observation);
    const next = await this.next();
    this.pending = next?.action ?? null;
    const learner: EmbeddedTurn = { ...(next?.choice ? { choice: next.choice } : {}), ...(this.undone.length ? { undoes: this.undone } : {}) };
    this.undone = [];
    const data = learner.choice || learner.undoes ? { learner } : {};
    if (!next) return { message: { role: 'assistant', content: 'Done.' }, finishReason: 'stop', ...data };
    const call: ToolCall = { id: `call_${this.calls++}`, type: 'function', function: { name: next.tool, arguments: JSON.stringify(next.args) } };
    return {
      message: { role: 'assistant', content: null, tool_calls: [call] },
      finishReason: 'tool_calls',
      ...(next.choice ? { logprob: next.logprob } : {}),
      ...data,
    };
  }

  private start(req: TurnRequest): void {
    const user = req.messages.find((m) => m.role === 'user');
    const instruction = typeof user?.content === 'string' ? user.content : '';
    this.workdir = /The repository is at (\S+?)\.?\s/.exec(instruction)?.[1] ?? '/workspace';
    this.command = testCommandOf(instruction) ?? '';
    this.instructionWords = words(instruction.split('Run the tests with:')[0]!);
    this.queue.push({ kind: 'glob' });
    if (this.command) this.queue.unshift({ kind: 'test' });
  }

  private async absorb(p: Pending, out: string): Promise<void> {
    if (p.kind === 'test') {
      const exit = /^Exit code: (\d+)/.exec(out);
      const obs = observeTests(out, exit ? Number(exit[1]) : null, this.workdir);
      for (const f of obs.failures) for (const w of words(`${f.name}\n${f.snippet}\n${f.message}`)) this.testWords.add(w);
      if (!this.baseline) {
        this.baseline = obs;
        this.current = obs;
        return;
      }
      this.judge(obs);
    } else if (p.kind === 'glob') {
      const listed = out
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => languageOf(l) && !l.startsWith('['));
      const framed = new Set(this.current?.frames.map((f) => f.file) ?? []);
      const sources = listed.filter((f) => !TEST_PATH.test(f) && !f.endsWith('.d.ts'));
      // Files named in failing stack frames first, then the rest.
      sources.sort((a, b) => Number(framed.has(b)) - Number(framed.has(a)));
      for (const f of sources.slice(0, this.opts.maxFiles ?? 12)) this.queue.push({ kind: 'read', file: f, test: false });
      // The failing tests' own code: a window around each failing frame in a test file.
      const seen = new Set<string>();
      for (const fr of this.current?.frames ?? []) {
        const key = `${fr.file}:${fr.line}`;
        if (!TEST_PATH.test(fr.file) || seen.has(key) || seen.size >= 6) continue;
        seen.add(key);
        this.queue.push({ kind: 'read', file: fr.file, test: true, line: fr.line });
      }
    } else if (p.kind === 'read') {
      const numbered = [...out.matchAll(/^ *(\d+)\t(.*)$/gm)];
      const lines = numbered.map((m) => m[2]!);
      if (p.test) {
        for (const w of words(lines.join('\n'))) this.testWords.add(w);
        const at = numbered.find((m) => Number(m[1]) === p.line)?.[2];
        if (at) for (const w of words(at)) this.failLineWords.add(w);
      } else if (lines.length) this.files.set(p.file, lines.join('\n') + '\n');
    } else if (p.kind === 'edit' && p.repair && !p.undo) {
      if (out.startsWith('Error')) {
        if (this.lastRepair) this.undone.push(this.lastRepair.decision);
        this.lastRepair = null; // the edit did not apply: nothing to test or undo
        this.queue.unshift({ kind: 'edit' });
        return;
      }
      this.queue.unshift({ kind: 'test' });
    }
  }

  /** Keep a repair that lowers the failing count without running fewer tests (or keeps a blind run green); undo it otherwise. */
  private judge(obs: TestObservation): void {
    const done = this.lastRepair;
    this.lastRepair = null;
    if (!done) return;
    const before = this.current!;
    if (improved(before, obs)) {
      this.files.set(done.repair.file, applyRepair(done.before, done.repair));
      this.current = obs;
      if (obs.green)
        this.queue.length = 0; // done: submit
      else this.queue.unshift({ kind: 'edit' });
      return;
    }
    this.undone.push(done.decision);
    this.queue.unshift({ kind: 'edit', repair: done.repair, undo: true }, { kind: 'edit' });
  }

  private async next(): Promise<{ tool: string; args: Record<string, unknown>; action: Pending; logprob?: number; choice?: Choice } | null> {
    if (this.queue.length === 0 && this.files.size && this.attempts === 0) this.queue.push({ kind: 'edit' });
    const p = this.queue.shift();
    if (!p) return null;
    if (p.kind === 'test') return { tool: 'Bash', args: { command: this.command }, action: p };
    if (p.kind === 'glob') return { tool: 'Glob', args: { pattern: '**/*' }, action: p };
    if (p.kind === 'read') return { tool: 'Read', args: { file_path: p.file, ...(p.line ? { offset: Math.max(1, p.line - 2), limit: 20 } : {}) }, action: p };
    if (p.undo && p.repair) {
      const text = this.files.get(p.repair.file)!;
      const e = asEdit(text, p.repair);
      return { tool: 'Edit', args: { file_path: p.repair.file, old_string: e.new_string, new_string: e.old_string }, action: p };
    }
    if (this.current?.green && this.baseline && !this.baseline.green) return null;
    if (this.attempts >= (this.opts.maxAttempts ?? MAX_ATTEMPTS)) return null;
    if (this.opts.openingOnly) {
      this.opening = await this.candidates();
      return null;
    }
    const choice = await this.choose();
    if (!choice) return null;
    this.attempts++;
    const text = this.files.get(choice.repair.file)!;
    this.lastRepair = { repair: choice.repair, before: text, decision: this.choices++ };
    this.tried.add(`${choice.repair.file}:${choice.repair.start}:${choice.repair.text}`);
    this.triedLines.add(`${choice.repair.file}:${choice.repair.line}`);
    const e = asEdit(text, choice.repair);
    return {
      tool: 'Edit',
      args: { file_path: choice.repair.file, ...e },
      action: { kind: 'edit', repair: choice.repair },
      logprob: choice.logprob,
      choice: choice.choice,
    };
  }

  /** Every untried candidate repair in the files read, and its features in the present context. */
  private async candidates(): Promise<Opening> {
    const cands: { r: Repair; text: string }[] = [];
    for (const [file, text] of this.files) {
      for (const r of await repairsIn(file, text)) if (!this.tried.has(`${r.file}:${r.start}:${r.text}`)) cands.push({ r, text });
    }
    const obs = this.current ?? { failures: [], frames: [], green: false };
    const ctx: FeatureContext = {
      frames: obs.frames,
      failures: obs.failures,
      testWords: this.testWords,
      failLineWords: this.failLineWords,
      instructionWords: this.instructionWords,
      tried: this.triedLines,
      blind: obs.failures.length === 0,
      testedStems: testedStems(obs),
      corpus: corpusOf(this.files.values()),
    };
    return { cands, feats: cands.map((c) => featurize(c.r, c.text, ctx)) };
  }

  private async choose(): Promise<{ repair: Repair; logprob: number; choice: Choice } | null> {
    const { cands, feats } = await this.candidates();
    if (cands.length === 0) return null;
    const temperature = this.opts.temperature ?? 1;
    const { index, logprob } = this.policy.choose(feats, this.random, temperature, this.opts.greedy);
    return { repair: cands[index]!.r, logprob, choice: { feats, chosen: index, temperature } };
  }
}
