// The task pool: every task the curriculum knows, its pass-rate posterior and life cycle (probing → active → retired,
// or rejected), and the FRONTIER sampler: fresh tasks, tasks ranked by learnability with a staleness bonus (after PLR),
// and occasional replay of retired ones. Thresholds and defaults: docs/decisions/2026-12-02-frontier-pool.md.
import { shuffle } from '../util/rng.js';
import { DEFAULT_DISCOUNT, DEFAULT_PRIOR_STRENGTH, FamilyStats, learnability, mean, observe, posterior, type Posterior } from './posterior.js';
import { outcomes } from './probe.js';

export type TaskState = 'probing' | 'active' | 'retired' | 'rejected';
export const TASK_STATES: readonly TaskState[] = ['probing', 'active', 'retired', 'rejected'];

export interface PoolEntry {
  taskId: string;
  env: string;
  /** Generator family + knob setting; tasks sharing it share a prior. */
  familyKey: string;
  posterior: Posterior;
  state: TaskState;
  addedStep: number;
  /** null until the task is first sampled for training. */
  lastSampledStep: number | null;
  samples: number;
  /** Never trained on yet. */
  fresh: boolean;
  /** Scored rollouts seen (raw, not discounted). */
  observations: number;
}

export type NewEntry = Pick<PoolEntry, 'taskId' | 'env' | 'familyKey' | 'addedStep'> & Partial<Pick<PoolEntry, 'state' | 'posterior'>>;

export interface PoolOptions {
  retireAbove: number;
  /** An active task that falls below this mean leaves training (rejected): it would mostly give all-fail groups. */
  shelveBelow: number;
  /** A retired task replayed back below this mean returns to the frontier. */
  reactivateBelow: number;
  minObservations: number;
  /**
   * An all-pass (all-fail) training group of at least this many scored rollouts retires (shelves) an active task at
   * once: the discounted posterior lags behind such strong evidence. 0 turns the rule off.
   */
  decisiveGroup: number;
  discount: number;
  priorStrength: number;
}

export const POOL_DEFAULTS: PoolOptions = {
  retireAbove: 0.9,
  shelveBelow: 0.1,
  reactivateBelow: 0.7,
  minObservations: 8,
  decisiveGroup: 6,
  discount: DEFAULT_DISCOUNT,
  priorStrength: DEFAULT_PRIOR_STRENGTH,
};

export interface SampleOptions {
  freshShare: number;
  /** Temperature of the softmax over normalised learnability ranks. */
  temperature: number;
  /** Weight ρ of the staleness distribution in the frontier mixture. */
  staleness: number;
  /** Probability per slot of replaying a retired task. */
  replay: number;
  /** Frontier tasks drawn by learnability (true) or with equal chances (false: an ablation, docs/evidence/protocol.md). */
  weighted: boolean;
}

export const SAMPLE_DEFAULTS: SampleOptions = { freshShare: 0.2, temperature: 0.2, staleness: 0.1, replay: 0.1, weighted: true };

export type SampleReason = 'fresh' | 'frontier' | 'replay';
export interface Sampled {
  taskId: string;
  env: string;
  reason: SampleReason;
}

export interface PoolJSON {
  version: 1;
  opts: PoolOptions;
  entries: PoolEntry[];
  families: ReturnType<FamilyStats['toJSON']>;
}

const clone = (e: PoolEntry): PoolEntry => ({ ...e, posterior: { ...e.posterior, prior: { ...e.posterior.prior } } });

/**
 * Frontier weights (1-ρ)·P_S + ρ·P_C. P_S: softmax over learnability ranks normalised to [0, 1] (ties share their
 * average rank), so the top-to-bottom odds do not depend on the pool's size. P_C ∝ steps since last sampled or added.
 */
export function frontierWeights(entries: readonly PoolEntry[], step: number, o: SampleOptions): number[] {
  const n = entries.length;
  const score = entries.map((e) => learnability(e.posterior));
  const order = score.map((_, i) => i).sort((a, b) => score[b]! - score[a]!);
  const rank = new Array<number>(n);
  for (let i = 0; i < n; ) {
    let j = i;
    // Scores equal up to rounding tie: float noise must not decide a rank.
    while (j + 1 < n && score[order[i]!]! - score[order[j + 1]!]! <= 1e-9 * score[order[i]!]!) j++;
    for (let k = i; k <= j; k++) rank[order[k]!] = (i + j) / 2;
    i = j + 1;
  }
  const ps = rank.map((r) => Math.exp(-(n > 1 ? r / (n - 1) : 0) / o.temperature));
  const psSum = ps.reduce((a, b) => a + b, 0);
  const stale = entries.map((e) => Math.max(0, step - (e.lastSampledStep ?? e.addedStep)));
  const staleSum = stale.reduce((a, b) => a + b, 0);
  return ps.map((p, i) => (1 - o.staleness) * (p / psSum) + o.staleness * (staleSum > 0 ? stale[i]! / staleSum : 1 / n));
}

export class TaskPool {
  readonly opts: PoolOptions;
  readonly families: FamilyStats;
  private readonly entries = new Map<string, PoolEntry>();

  constructor(opts: Partial<PoolOptions> = {}, families?: FamilyStats) {
    this.opts = { ...POOL_DEFAULTS, ...opts };
    this.families = families ?? new FamilyStats(this.opts.discount, this.opts.priorStrength);
  }

  /** Adds a task; without a posterior it starts from its family's prior. */
  add(entry: NewEntry): PoolEntry {
    if (this.entries.has(entry.taskId)) throw new Error(`task already in pool: ${entry.taskId}`);
    const e: PoolEntry = {
      taskId: entry.taskId,
      env: entry.env,
      familyKey: entry.familyKey,
      posterior: entry.posterior ?? posterior(this.families.prior(entry.familyKey, entry.addedStep)),
      state: entry.state ?? 'probing',
      addedStep: entry.addedStep,
      lastSampledStep: null,
      samples: 0,
      fresh: true,
      observations: 0,
    };
    this.entries.set(e.taskId, e);
    return e;
  }

  /** The live entry (change it through the pool's methods; tests may poke it). */
  get(taskId: string): PoolEntry | undefined {
    return this.entries.get(taskId);
  }

  all(): PoolEntry[] {
    return [...this.entries.values()];
  }

  setState(taskId: string, state: TaskState): void {
    this.must(taskId).state = state;
  }

  /**
   * One step's rewards for a task (null rewards skipped). Retires an active task now reliably solved, or shelves one
   * reliably failed (by its mean, or at once on a decisive group); a retired one that regressed returns to the frontier.
   */
  record(taskId: string, rewards: readonly (number | null)[], step: number): PoolEntry {
    const e = this.must(taskId);
    const { successes: s, failures: f } = outcomes(rewards);
    if (s + f === 0) return e;
    e.posterior = observe(e.posterior, s, f, this.opts.discount);
    e.observations += s + f;
    this.families.record(e.familyKey, s, f, step);
    const m = mean(e.posterior);
    const decisive = this.opts.decisiveGroup > 0 && s + f >= this.opts.decisiveGroup && (s === 0 || f === 0);
    if (e.state === 'active' && (decisive || e.observations >= this.opts.minObservations)) {
      if (m > this.opts.retireAbove || (decisive && f === 0)) e.state = 'retired';
      else if (m < this.opts.shelveBelow || (decisive && s === 0)) e.state = 'rejected';
    } else if (e.state === 'retired' && m < this.opts.reactivateBelow) e.state = 'active';
    return e;
  }

  /**
   * Moves an active task's posterior mean to `m`, keeping its evidence strength: an update moved the policy's own figure
   * for it (src/policy/replay.ts). Past the retirement line it retires; replay still checks it now and then.
   */
  shift(taskId: string, m: number): PoolEntry {
    const e = this.must(taskId);
    if (e.state !== 'active' || !(m > 0 && m < 1)) return e;
    const n = e.posterior.alpha + e.posterior.beta;
    e.posterior = { alpha: m * n, beta: (1 - m) * n, prior: e.posterior.prior };
    if (m > this.opts.retireAbove) e.state = 'retired';
    return e;
  }

  /** The FRONTIER curriculum's batch: up to n distinct tasks (fewer when the pool has fewer active ones). */
  sample(n: number, step: number, random: () => number, options: Partial<SampleOptions> = {}): Sampled[] {
    const o = { ...SAMPLE_DEFAULTS, ...options };
    const active = this.all().filter((e) => e.state === 'active');
    let retired = this.all().filter((e) => e.state === 'retired');
    const picks: [PoolEntry, SampleReason][] = [];
    const fresh = shuffle(
      active.filter((e) => e.fresh),
      random,
    ).slice(0, Math.min(n, Math.round(n * o.freshShare)));
    for (const e of fresh) picks.push([e, 'fresh']);
    const frontier = active.filter((e) => !fresh.includes(e));
    const weights = o.weighted ? frontierWeights(frontier, step, o) : frontier.map(() => 1);
    // Retired tasks are replayed by chance only, never as filler for a short frontier: their groups are nearly always
    // all-pass, and a short batch trains on the same signal for less.
    while (picks.length < n && frontier.length > 0) {
      if (retired.length > 0 && random() < o.replay) {
        const i = Math.floor(random() * retired.length);
        picks.push([retired[i]!, 'replay']);
        retired = retired.filter((_, k) => k !== i);
        continue;
      }
      const total = weights.reduce((a, b) => a + b, 0);
      let u = random() * total;
      let i = 0;
      while (i < weights.length - 1 && u >= weights[i]!) u -= weights[i++]!;
      picks.push([frontier[i]!, 'frontier']);
      frontier.splice(i, 1);
      weights.splice(i, 1);
    }
    return picks.map(([e, reason]) => this.mark(e, step, reason));
  }

  /**
   * Baselines: n distinct tasks uniformly from the given states (admitted
   * tasks by default). With a step, marks them as sampled like sample() does.
   */
  sampleUniform(n: number, random: () => number, step?: number, states: readonly TaskState[] = ['active', 'retired']): Sampled[] {
    const pool = shuffle(
      this.all().filter((e) => states.includes(e.state)),
      random,
    ).slice(0, n);
    return pool.map((e) => (step === undefined ? { taskId: e.taskId, env: e.env, reason: 'frontier' } : this.mark(e, step, 'frontier')));
  }

  /** Counts of active tasks' posterior means in `bins` equal bins over [0, 1]. */
  histogram(bins = 10): number[] {
    const h = new Array<number>(bins).fill(0);
    for (const e of this.entries.values()) if (e.state === 'active') h[Math.min(bins - 1, Math.floor(mean(e.posterior) * bins))]!++;
    return h;
  }

  counts(): Record<TaskState, number> {
    const c = { probing: 0, active: 0, retired: 0, rejected: 0 };
    for (const e of this.entries.values()) c[e.state]++;
    return c;
  }

  toJSON(): PoolJSON {
    return { version: 1, opts: { ...this.opts }, entries: this.all().map(clone), families: this.families.toJSON() };
  }

  static fromJSON(json: PoolJSON): TaskPool {
    const pool = new TaskPool({ ...POOL_DEFAULTS, ...json.opts }, FamilyStats.fromJSON(json.families));
    for (const e of json.entries) pool.entries.set(e.taskId, clone(e));
    return pool;
  }

  private mark(e: PoolEntry, step: number, reason: SampleReason): Sampled {
    e.lastSampledStep = step;
    e.samples++;
    e.fresh = false;
    return { taskId: e.taskId, env: e.env, reason };
  }

  private must(taskId: string): PoolEntry {
    const e = this.entries.get(taskId);
    if (!e) throw new Error(`no such task in pool: ${taskId}`);
    return e;
  }
}
