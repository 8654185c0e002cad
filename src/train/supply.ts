// Validated tasks for an environment at a knob setting: from the bank directory when it holds unused ones, else
// synthesized. The bank is plain task directories, so a crash loses none and several runs can share and reuse it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedEnv } from '../env/load.js';
import type { Runtime } from '../runtime/types.js';
import { readTasks } from '../task/io.js';
import type { Task } from '../task/task.js';
import { synthesize } from '../taskpilot/synth.js';
import { patchKey, type CheckChange, type EnvValidator } from '../taskpilot/validate.js';
import type { BuiltEnv } from '../env/build.js';
import { deriveSeed } from '../util/rng.js';
import { knobKey, OPERATOR_FAMILIES, type Knobs, type OperatorFamily } from '../curriculum/knobs.js';
import { isOneOf } from '../util/guards.js';
import { familiesFor } from '../taskpilot/procedural/index.js';
import type { SyntaxLanguage } from '../util/syntax.js';
import type { Workers } from '../util/pool.js';

export interface SupplyOptions {
  bankDir: string;
  dataDir: string;
  runtime: Runtime;
  seed: number;
  /** Candidates synthesized per call (default 6). */
  candidates?: number;
  /** Where candidates' checks run (a queue's workers); in this process by default. */
  checkVia?: (built: BuiltEnv, runs: { referenceRuns: number; candidateRuns: number }) => CheckChange;
  /** Operator families new tasks may use (default: every family TaskPilot has for the language). */
  families?: readonly OperatorFamily[];
}

export interface SynthYield {
  candidates: number;
  valid: number;
  ms: number;
}

/** The operator families TaskPilot can apply to a language, among `allowed` (default: all). */
export function applicableFamilies(language: SyntaxLanguage, allowed?: readonly OperatorFamily[]): OperatorFamily[] {
  const applicable = familiesFor(language);
  return OPERATOR_FAMILIES.filter((f) => applicable.includes(f) && (!allowed || allowed.includes(f)));
}

/** The knob setting a task was made at (its first operator family stands for the family knob). */
export function taskKnobs(t: Task): Knobs {
  const first = t.knobs.families[0];
  const family = isOneOf(OPERATOR_FAMILIES, first) ? first : 'operations';
  return { bugs: Math.min(4, t.knobs.bugs), hint: t.knobs.hint, visibility: t.knobs.visibility, family };
}

export class TaskSupply {
  private readonly bank = new Map<string, Task>();
  private readonly validators = new Map<string, EnvValidator>();
  private rounds = 0;
  readonly yield: SynthYield = { candidates: 0, valid: 0, ms: 0 };

  constructor(
    private readonly envs: Map<string, LoadedEnv>,
    private readonly opts: SupplyOptions,
  ) {
    if (existsSync(opts.bankDir)) for (const t of readTasks(opts.bankDir)) this.bank.set(t.id, t);
    // A resumed run (or another run on a shared bank) continues with new synthesis seeds.
    this.rounds = this.bank.size;
  }

  get size(): number {
    return this.bank.size;
  }

  task(id: string): Task | undefined {
    return this.bank.get(id);
  }

  /** Where a task of this supply is kept (its directory in the bank). */
  dir(id: string): string {
    return join(this.opts.bankDir, id);
  }

  /** The operator families TaskPilot can apply to an environment's language (knob values that can yield a task). */
  families(env: string): OperatorFamily[] {
    const language = this.env(env).spec.language;
    const out = applicableFamilies(language, this.opts.families);
    if (out.length === 0)
      throw new Error(
        `no operator family of ${this.opts.families?.join(', ') ?? 'any'} applies to ${env} (${language}: ${applicableFamilies(language).join(', ')})`,
      );
    return out;
  }

  private env(name: string): LoadedEnv {
    const loaded = this.envs.get(name);
    if (!loaded) throw new Error(`unknown environment ${name}`);
    return loaded;
  }

  /** Unused bank tasks of an environment at these knobs. */
  private unused(env: string, key: string, used: Set<string>): Task[] {
    return [...this.bank.values()]
      .filter((t) => t.env.name === env && knobKey(taskKnobs(t)) === key && !used.has(t.id))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * Up to `want` tasks not in `used`, synthesizing once when the bank is
   * short. `workers`: validations in parallel (1 while rollouts run beside it).
   */
  async take(env: string, knobs: Knobs, want: number, used: Set<string>, workers: Workers = 1): Promise<Task[]> {
    const key = knobKey(knobs);
    let have = this.unused(env, key, used);
    if (have.length < want) {
      const loaded = this.env(env);
      const t0 = performance.now();
      const n = Math.max(want * 2, this.opts.candidates ?? 6);
      const stats = await synthesize({
        envs: [loaded],
        n,
        workers,
        seed: deriveSeed(this.opts.seed, env, key, this.rounds++),
        strategies: knobs.bugs > 1 ? ['procedural', 'combine'] : ['procedural'],
        operators: [knobs.family],
        hint: knobs.hint,
        visibility: knobs.visibility,
        outDir: this.opts.bankDir,
        dataDir: this.opts.dataDir,
        runtime: this.opts.runtime,
        validators: this.validators,
        referenceRuns: 2,
        candidateRuns: 2,
        ...(this.opts.checkVia ? { checkVia: (built: BuiltEnv) => this.opts.checkVia!(built, { referenceRuns: 2, candidateRuns: 2 }) } : {}),
        // Bugs the bank already holds are duplicates: re-validating one would rewrite its directory at other knobs.
        knownBugKeys: (name) => [...this.bank.values()].filter((t) => t.env.name === name).map((t) => patchKey(t.bugPatch)),
      });
      this.yield.candidates += Object.values(stats.byStrategy).reduce((a, c) => a + (c.candidates ?? 0), 0);
      this.yield.valid += stats.tasks.length;
      this.yield.ms += performance.now() - t0;
      for (const t of stats.tasks) this.bank.set(t.id, t);
      // An environment that cannot be built or run is an error to show, not an empty supply.
      if (stats.tasks.length === 0 && stats.errors.length > 0) {
        throw new Error(`synthesis for ${env} failed: ${stats.errors.slice(0, 3).join('; ')}`);
      }
      have = this.unused(env, key, used);
    }
    return have.slice(0, want);
  }
}
