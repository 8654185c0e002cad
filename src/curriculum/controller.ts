// The difficulty controller steers TaskPilot's knobs per key toward the target pass rate: a ladder level d ← d + η (p̂ −
// target), proposals at round(d + N(0, spread)) so the pool keeps a spread of difficulties, and operator families drawn
// by learnability plus a floor so none is starved of evidence. See docs/decisions/2026-12-02-difficulty-controller.md.
import { LADDER, OPERATOR_FAMILIES, type Knobs, type OperatorFamily, type Rung } from './knobs.js';
import { DEFAULT_DISCOUNT, learnability, mean, observe, posterior, type Posterior } from './posterior.js';

export interface ControllerOptions {
  target: number;
  /** Rungs moved per unit of pass-rate error. */
  eta: number;
  /** Standard deviation of the proposal jitter, in rungs. */
  spread: number;
  /** Added to every family's learnability before normalising. */
  floor: number;
  discount: number;
  initialLevel: number;
  families: readonly OperatorFamily[];
}

/** The controller as a run state saves it. */
export interface ControllerJSON {
  opts: ControllerOptions;
  levels: [string, number][];
  families: [string, [OperatorFamily, Posterior][]][];
}

export const CONTROLLER_DEFAULTS: ControllerOptions = {
  target: 0.5,
  eta: 1.5,
  spread: 0.7,
  floor: 0.05,
  discount: DEFAULT_DISCOUNT,
  initialLevel: 0,
  families: OPERATOR_FAMILIES,
};

export interface Outcome {
  successes: number;
  failures: number;
  /** The operator family of the task observed, to update its posterior. */
  family?: OperatorFamily;
}

export interface ControllerState {
  levels: Record<string, number>;
  families: Record<string, Record<string, { mean: number; learnability: number; weight: number }>>;
}

/** A standard normal draw (Box–Muller) from a uniform source. */
function gaussian(random: () => number): number {
  const u = 1 - random(); // (0, 1]: log stays finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export class DifficultyController {
  readonly opts: ControllerOptions;
  private readonly levels = new Map<string, number>();
  private readonly families = new Map<string, Map<OperatorFamily, Posterior>>();

  constructor(
    opts: Partial<ControllerOptions> = {},
    readonly ladder: readonly Rung[] = LADDER,
  ) {
    this.opts = { ...CONTROLLER_DEFAULTS, ...opts };
    if (ladder.length === 0) throw new Error('empty difficulty ladder');
  }

  private clamp(d: number): number {
    return Math.min(this.ladder.length - 1, Math.max(0, d));
  }

  level(key: string): number {
    return this.levels.get(key) ?? this.clamp(this.opts.initialLevel);
  }

  /** Moves the level by the observed pass rate; returns the new level. */
  update(key: string, outcome: Outcome): number {
    const n = outcome.successes + outcome.failures;
    if (n === 0) return this.level(key);
    const d = this.clamp(this.level(key) + this.opts.eta * (outcome.successes / n - this.opts.target));
    this.levels.set(key, d);
    if (outcome.family) {
      const fams = this.familyPosteriors(key);
      fams.set(outcome.family, observe(fams.get(outcome.family) ?? posterior(), outcome.successes, outcome.failures, this.opts.discount));
    }
    return d;
  }

  private familyPosteriors(key: string): Map<OperatorFamily, Posterior> {
    let fams = this.families.get(key);
    if (!fams) {
      fams = new Map(this.opts.families.map((f) => [f, posterior()]));
      this.families.set(key, fams);
    }
    return fams;
  }

  /**
   * Sampling weights of the operator families for a key (summing to 1), among those that can yield a task for the
   * environment's language: a family that never yields one never gathers the evidence that would lower its weight.
   */
  familyWeights(key: string, among: readonly OperatorFamily[] = this.opts.families): Map<OperatorFamily, number> {
    const raw = [...this.familyPosteriors(key)].filter(([f]) => among.includes(f)).map(([f, p]) => [f, learnability(p) + this.opts.floor] as const);
    if (raw.length === 0) throw new Error(`no operator family to propose for ${key} (among ${among.join(', ') || 'none'})`);
    const total = raw.reduce((a, [, w]) => a + w, 0);
    return new Map(raw.map(([f, w]) => [f, w / total]));
  }

  /** Knobs for the next synthesis under `key`, with a family from `among` (default: all of the controller's). */
  propose(key: string, random: () => number, among: readonly OperatorFamily[] = this.opts.families): Knobs {
    const rung = Math.round(this.clamp(this.level(key) + this.opts.spread * gaussian(random)));
    let u = random();
    const weights = this.familyWeights(key, among);
    let family = [...weights.keys()].at(-1)!;
    for (const [f, w] of weights) {
      if (u < w) {
        family = f;
        break;
      }
      u -= w;
    }
    return { ...this.ladder[rung]!, family };
  }

  state(): ControllerState {
    const levels: ControllerState['levels'] = {};
    for (const [k, d] of this.levels) levels[k] = d;
    const families: ControllerState['families'] = {};
    for (const [k, fams] of this.families) {
      const w = this.familyWeights(k);
      families[k] = {};
      for (const [f, p] of fams) families[k]![f] = { mean: mean(p), learnability: learnability(p), weight: w.get(f)! };
    }
    return { levels, families };
  }

  toJSON(): ControllerJSON {
    return {
      opts: { ...this.opts, families: [...this.opts.families] },
      levels: [...this.levels],
      families: [...this.families].map(([k, fams]) => [k, [...fams].map(([f, p]) => [f, structuredClone(p)] as [OperatorFamily, Posterior])]),
    };
  }

  static fromJSON(json: ControllerJSON, ladder: readonly Rung[] = LADDER): DifficultyController {
    const c = new DifficultyController(json.opts, ladder);
    for (const [k, d] of json.levels) c.levels.set(k, d);
    for (const [k, fams] of json.families) c.families.set(k, new Map(fams.map(([f, p]) => [f, structuredClone(p)])));
    return c;
  }
}
