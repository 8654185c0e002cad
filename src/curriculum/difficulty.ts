// Difficulty predicted before any rollout: a small online logistic model of a task's pass rate under the current
// policy, from what is known once a task is made (environment, operator family and operators, number of bugs, hint,
// test visibility, size of the change) and the policy's recent results on similar tasks (its family's posterior, and
// the learner's own pre-rollout figure where it has one). Learned from every probe and training group; used to skip
// probing tasks it predicts to be uninformative. GRESO-style skipping is the published baseline beside it.
// See docs/decisions/2026-12-05-evidence.md.
import type { Task } from '../task/task.js';
import { deriveSeed, rng } from '../util/rng.js';

export const GATES = ['none', 'model', 'greso'] as const;
export type Gate = (typeof GATES)[number];

/** What is known about a task before its first rollout, beyond the task itself. */
export interface Known {
  /** The mean of the task's family posterior (the policy's recent results on tasks of its knob setting). */
  familyMean: number;
  /** The learner's own pre-rollout figure (the embedded policy's reach), when it has one. */
  figure: number | null;
}

export type TaskFeatures = Map<string, number>;
type Features = TaskFeatures;

/** A probability's log-odds, kept finite: p is held within [0.001, 0.999]. */
export const logit = (p: number) => Math.log(Math.max(1e-3, Math.min(1 - 1e-3, p)) / (1 - Math.max(1e-3, Math.min(1 - 1e-3, p))));
export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Lines a patch adds or removes. */
function changedLines(patch: string): number {
  return patch.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l)).length;
}

export function taskFeatures(task: Task, known: Known): Features {
  const f: Features = new Map([
    ['bias', 1],
    [`env=${task.env.name}`, 1],
    [`bugs=${Math.min(4, task.knobs.bugs)}`, 1],
    [`hint=${task.knobs.hint}`, 1],
    [`visibility=${task.knobs.visibility}`, 1],
    ['log-lines', Math.log1p(changedLines(task.bugPatch)) / 3],
    ['log-f2p', Math.log1p(task.FAIL_TO_PASS.length) / 3],
    ['family-logit', logit(known.familyMean) / 3],
  ]);
  for (const fam of task.knobs.families) f.set(`family=${fam}`, 1);
  for (const e of task.provenance.edits) f.set(`op=${e.operator}`, 1 / task.provenance.edits.length);
  if (known.figure !== null) f.set('figure-logit', logit(known.figure) / 3);
  else f.set('figure-unknown', 1);
  return f;
}

/** A run's difficulty log, in its run directory: one Observation a line, with its step. */
export const DIFFICULTY_LOG = 'difficulty.jsonl';

/** One group the model learned from, as the run's difficulty log keeps it: what was known, what it predicted, what happened. */
export interface Observation {
  kind: 'probe' | 'group';
  task: string;
  x: Record<string, number>;
  successes: number;
  failures: number;
  predicted: number;
}

export interface PredictorJSON {
  /** What the weights correct (absent in states from before 2026-12-05's second version, whose weights are dropped). */
  prior?: Prior;
  weights: [string, number][];
  seen: number;
  calibration: [number, number, number][];
}

/**
 * Where a prediction starts before any feature corrects it. known: the learner's own pre-rollout figure where it has
 * one (the embedded policy's reach, close to calibrated already), else even odds; family: the knob setting's posterior
 * mean (the first version's start: too high for fresh tasks, its settings' earlier tasks having been trained on);
 * none: even odds. Compared offline in bench/difficulty.ts; docs/evidence/results.md has the figures.
 */
export type Prior = 'known' | 'family' | 'none';

/** Features hold logits divided by this (taskFeatures), which keeps SGD's steps of one size across features. */
const LOGIT_SCALE = 3;

/**
 * Online logistic regression of a fresh task's pass rate, by SGD on the log loss: the prior's logit plus what the
 * features add, pulled toward adding nothing (L2). It learns from admission probes only: a training group's task has
 * been trained on, so its pass rate no longer says how hard a fresh task is (such groups are logged, not learned).
 */
export class DifficultyModel {
  /** Corrections to the prior's logit, per feature. */
  private readonly w = new Map<string, number>();
  private readonly lr: number;
  private readonly l2: number;
  readonly prior: Prior;
  /** Probes learned from. */
  seen = 0;
  /** Each probed task's prediction before its probe, with the probe's successes and rollouts. */
  readonly calibration: [number, number, number][] = [];
  private readonly pending: Observation[] = [];

  constructor(opts: { lr?: number; l2?: number; prior?: Prior } = {}) {
    this.lr = opts.lr ?? 0.1;
    this.l2 = opts.l2 ?? 1e-3;
    this.prior = opts.prior ?? 'known';
  }

  private priorLogit(x: Features): number {
    const z = this.prior === 'known' ? x.get('figure-logit') : this.prior === 'family' ? x.get('family-logit') : undefined;
    return LOGIT_SCALE * (z ?? 0);
  }

  predict(x: Features): number {
    let z = this.priorLogit(x);
    for (const [k, v] of x) z += (this.w.get(k) ?? 0) * v;
    return sigmoid(z);
  }

  /**
   * One group's outcome. `about` says what it was, a fresh task's probe or a training group, and keeps it for the
   * run's difficulty log (bench/difficulty.ts compares models offline on it) with what was predicted before it ran (a
   * probe's prediction is made before it; the model may have learned meanwhile). Only probes (or a group given
   * without `about`) are learned from.
   */
  observe(x: Features, successes: number, failures: number, about?: { kind: Observation['kind']; task: string; predicted?: number }): void {
    const n = successes + failures;
    if (n === 0) return;
    const predicted = this.predict(x);
    if (about)
      this.pending.push({ ...about, x: Object.fromEntries(x), successes, failures, predicted: Math.round((about.predicted ?? predicted) * 1000) / 1000 });
    if (about?.kind === 'group') return;
    const g = predicted - successes / n;
    for (const [k, v] of x) {
      const w = this.w.get(k) ?? 0;
      this.w.set(k, w - this.lr * (g * v * Math.min(1, n / 4) + this.l2 * w));
    }
    this.seen++;
  }

  /** The observations kept since the last call (for the run's difficulty log). */
  drain(): Observation[] {
    return this.pending.splice(0);
  }

  toJSON(): PredictorJSON {
    return { prior: this.prior, weights: [...this.w], seen: this.seen, calibration: this.calibration.slice() };
  }

  static fromJSON(j: PredictorJSON): DifficultyModel {
    const m = new DifficultyModel(j.prior ? { prior: j.prior } : {});
    // An older state's weights were absolute, not corrections: the model starts again from its prior.
    if (j.prior) for (const [k, v] of j.weights) m.w.set(k, v);
    m.seen = j.seen;
    m.calibration.push(...j.calibration);
    return m;
  }
}

/** Probes of predicted learnability p(1-p) below this are skipped: p under about 5% or over 95%. */
export const SKIP_BELOW = 0.05;
/**
 * Probes the model must have learned from before it may skip anything: a few, for the correction of its prior's level;
 * the embedded policy's reach is close to calibrated from the first (docs/evidence/results.md).
 */
export const WARM_UP = 8;
/** Share of would-be skips probed anyway, so calibration is measured where the model is most sure. */
export const EXPLORE = 0.1;

/** The model gate: probe unless the model, warmed up, predicts a pass rate far from the frontier (with exploration). */
export function modelSkips(m: DifficultyModel, p: number, seed: number, taskId: string): boolean {
  if (m.seen < WARM_UP || p * (1 - p) >= SKIP_BELOW) return false;
  return rng(deriveSeed(seed, 'explore', taskId))() >= EXPLORE;
}

/**
 * GRESO-style gate (skip prompts whose recent groups had zero advantage), adapted to fresh tasks, which have no
 * history of their own: a knob setting whose last probes were all uninformative (all passed or all failed) is skipped
 * with a probability growing with that run of probes, capped so it is still sampled now and then.
 */
export class GresoGate {
  private readonly streak = new Map<string, number>();

  skips(key: string, seed: number, taskId: string): boolean {
    const k = this.streak.get(key) ?? 0;
    const pSkip = Math.min(0.9, 1 - 0.5 ** k);
    return rng(deriveSeed(seed, 'greso', taskId))() < pSkip;
  }

  /** A probe's outcome for a knob setting: mixed results end the streak. */
  record(key: string, successes: number, failures: number): void {
    this.streak.set(key, successes > 0 && failures > 0 ? 0 : (this.streak.get(key) ?? 0) + 1);
  }

  toJSON(): [string, number][] {
    return [...this.streak];
  }

  static fromJSON(j: [string, number][]): GresoGate {
    const g = new GresoGate();
    for (const [k, v] of j) g.streak.set(k, v);
    return g;
  }
}
