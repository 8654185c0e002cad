// The evidence protocol: which runs answer whether the frontier curriculum teaches more than a fixed task set, fixed
// before any of them ran (docs/evidence/protocol.md). A cell is one training run: a held-out environment, a seed and
// an arm (a curriculum, or the frontier with one part switched off).
import { join } from 'node:path';
import { z } from 'zod';
import { GATES, type Gate } from '../curriculum/difficulty.js';
import { ABLATIONS, TRAIN_DEFAULTS, type Ablation, type CurriculumName, type TrainConfig } from '../train/config.js';

/** Where a cell's training run keeps its state, steps and result, under a protocol's output folder. */
export const cellDir = (outDir: string, cellId: string) => join(outDir, 'runs', cellId);

export interface Arm {
  name: string;
  curriculum: CurriculumName;
  ablate: Ablation[];
  /** What may skip admission probes (default none). */
  gate?: Gate;
  /** The held-out environments this arm runs on (default: every group's). */
  only?: string[];
}

/** Leave one environment out: train on the others of its language, measure on it. */
export interface HeldOutGroup {
  heldOut: string;
  train: string[];
}

export interface Protocol {
  name: string;
  groups: HeldOutGroup[];
  seeds: number[];
  arms: Arm[];
  /** Rollouts per run, probes included. */
  budget: number;
  /** Held-out tasks per held-out environment, attempts per task at each evaluation, steps between evaluations. */
  evalTasks: number;
  evalAttempts: number;
  evalEvery: number;
  /** Training tasks solved earlier tried again at each held-out evaluation (forgetting; 0: not tracked). */
  forgetting: number;
  /** Attempts per hand-written bug of the group's environments, with the final policy (0: not scored). */
  handwrittenAttempts: number;
}

export interface Cell {
  id: string;
  group: HeldOutGroup;
  seed: number;
  arm: Arm;
}

const CURRICULUM_ARMS: Arm[] = (['frontier', 'static', 'uniform'] as const).map((c) => ({ name: c, curriculum: c, ablate: [] }));
/** The frontier with one part removed, each in turn. */
const JS_HELD_OUT = ['md-tokens', 'lru-cache'];
/** The frontier with one part removed, each in turn (on the JavaScript groups, chosen when a Python cell was thought to cost about four JavaScript ones). */
export const ABLATION_ARMS: Arm[] = ABLATIONS.map((a) => ({ name: `frontier-no-${a}`, curriculum: 'frontier', ablate: [a], only: JS_HELD_OUT }));
/** The frontier with probes skipped by the difficulty model, and by the GRESO-style baseline. */
export const GATE_ARMS: Arm[] = (['model', 'greso'] as const).map((g) => ({
  name: `frontier-gate-${g}`,
  curriculum: 'frontier',
  ablate: [],
  gate: g,
  only: JS_HELD_OUT,
}));

const JS_GROUPS: HeldOutGroup[] = [
  { heldOut: 'md-tokens', train: ['durations', 'lru-cache', 'semver-ranges'] },
  { heldOut: 'lru-cache', train: ['durations', 'semver-ranges', 'md-tokens'] },
];
const PY_GROUPS: HeldOutGroup[] = [
  { heldOut: 'csv-reader', train: ['decimal-money', 'rate-limiter', 'expr-eval'] },
  { heldOut: 'expr-eval', train: ['decimal-money', 'rate-limiter', 'csv-reader'] },
];

export const PROTOCOLS: Record<'full' | 'reduced', Protocol> = {
  full: {
    name: 'full',
    groups: [...JS_GROUPS, ...PY_GROUPS],
    seeds: [1, 2, 3, 4, 5],
    arms: [...CURRICULUM_ARMS, ...ABLATION_ARMS, ...GATE_ARMS],
    budget: TRAIN_DEFAULTS.budget,
    evalTasks: 40,
    evalAttempts: 4,
    // Evaluations at the start, after step 10 and at the end: each costs 160 rollouts per held-out environment.
    evalEvery: 10,
    forgetting: 8,
    handwrittenAttempts: 4,
  },
  // The primary comparison only (frontier against static) on one held-out environment, sized to finish within an
  // hour on 2 cores (docs/evidence/protocol.md).
  reduced: {
    name: 'reduced',
    groups: JS_GROUPS.slice(0, 1),
    seeds: [1, 2, 3],
    arms: CURRICULUM_ARMS.filter((a) => a.name !== 'uniform'),
    budget: 80,
    evalTasks: 20,
    evalAttempts: 2,
    evalEvery: 100,
    forgetting: 0,
    handwrittenAttempts: 1,
  },
};

const positive = z.number().int().positive();
const ProtocolSchema = z
  .object({
    name: z.string().regex(/^[\w.-]+$/),
    groups: z.array(z.object({ heldOut: z.string().min(1), train: z.array(z.string().min(1)).min(1) }).strict()).min(1),
    seeds: z.array(z.number().int()).min(1),
    arms: z
      .array(
        z
          .object({
            name: z.string().regex(/^[\w-]+$/),
            curriculum: z.enum(['frontier', 'uniform', 'static'] satisfies CurriculumName[]),
            ablate: z.array(z.enum(ABLATIONS)),
            gate: z.enum(GATES).optional(),
            only: z.array(z.string()).optional(),
          })
          .strict(),
      )
      .min(1),
    budget: positive,
    evalTasks: positive,
    evalAttempts: positive,
    evalEvery: positive,
    forgetting: z.number().int().min(0).default(0),
    handwrittenAttempts: z.number().int().min(0),
  })
  .strict();

/** A protocol written as JSON (other seeds, held-out environments or arms): checked, with every problem named. */
export function parseProtocol(data: unknown): Protocol | { error: string } {
  const got = ProtocolSchema.safeParse(data);
  if (!got.success) return { error: z.prettifyError(got.error) };
  const p = got.data;
  for (const g of p.groups) if (g.train.includes(g.heldOut)) return { error: `${g.heldOut} is both trained on and held out` };
  for (const a of p.arms) if (a.ablate.length && a.curriculum !== 'frontier') return { error: `arm ${a.name}: ablations apply to the frontier curriculum` };
  if (!p.arms.some((a) => a.name === 'frontier')) return { error: 'the arms need one named "frontier": every comparison is paired with it' };
  return p;
}

/** The primary comparison's arms: curricula with nothing removed and nothing gated. */
export const isPrimaryArm = (a: Arm): boolean => a.ablate.length === 0 && !a.gate;

/**
 * Every cell: the primary comparison's first, then the ablations and gates, so that a protocol stopped part way has
 * answered H1 before anything else. Within each, seed by seed (so a stop leaves whole seeds to pair), then group,
 * then arm.
 */
export function cellsOf(p: Protocol): Cell[] {
  const phase = (arms: Arm[]) =>
    p.seeds.flatMap((seed) =>
      p.groups.flatMap((group) =>
        arms.filter((arm) => !arm.only || arm.only.includes(group.heldOut)).map((arm) => ({ id: `${group.heldOut}.${arm.name}.s${seed}`, group, seed, arm })),
      ),
    );
  return [...phase(p.arms.filter(isPrimaryArm)), ...phase(p.arms.filter((a) => !isPrimaryArm(a)))];
}

/** A cell's training settings: the defaults, the protocol's budget and held-out measurement, the cell's own. */
export function cellConfig(p: Protocol, cell: Cell, timeLimitMin: number, learner: Pick<TrainConfig, 'learner' | 'lm'> = TRAIN_DEFAULTS): TrainConfig {
  return {
    ...TRAIN_DEFAULTS,
    learner: learner.learner,
    ...(learner.lm ? { lm: learner.lm } : {}),
    curriculum: cell.arm.curriculum,
    ablate: cell.arm.ablate,
    gate: cell.arm.gate ?? 'none',
    envs: cell.group.train,
    heldOut: [cell.group.heldOut],
    seed: cell.seed,
    budget: p.budget,
    // The budget ends a run, never the step count.
    steps: 10_000,
    evalTasks: p.evalTasks,
    evalRollouts: p.evalAttempts,
    evalEvery: p.evalEvery,
    forgetting: p.forgetting,
    timeLimitMin,
  };
}
