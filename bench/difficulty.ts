// Difficulty models compared offline on what training runs logged (issue 25, part 4): each run's difficulty log
// (runs/<cell>/difficulty.jsonl: every admission probe and training group, in the order the run saw them, with the
// features known before the task's first rollout) is replayed through each candidate model, which predicts every
// probe before it learns from it. Reported per model, over every probe of every run: the Brier score per rollout and
// the log loss (beside always predicting the pooled rate, known only afterwards, and the running rate, known then),
// the calibration in five bins, and what a gate on the prediction would have done: probes skipped, their rollouts,
// and how many of the skipped tasks the probe admitted (the informative tasks a gate loses), leaving out the 10% of
// would-be skips the online gate probes anyway.
//
//   npx tsx bench/difficulty.ts [--skip-below 0.05] [--warm-up 8] [--no-figure | --pre-validation] RUN_DIR_OR_EVIDENCE_OUT ...
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DIFFICULTY_LOG,
  DifficultyModel,
  GresoGate,
  logit,
  sigmoid,
  SKIP_BELOW,
  WARM_UP,
  type Observation,
  type TaskFeatures,
} from '../src/curriculum/difficulty.js';
import { calibration } from '../src/evidence/analysis.js';
import { isRecord } from '../src/util/guards.js';
import { table } from '../src/util/table.js';

const { values, positionals } = parseArgs({
  options: {
    'skip-below': { type: 'string', default: String(SKIP_BELOW) },
    'warm-up': { type: 'string', default: String(WARM_UP) },
    'no-figure': { type: 'boolean', default: false },
    'pre-validation': { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const skipBelow = Number(values['skip-below']);
const warmUp = Number(values['warm-up']);

interface ProbeModel {
  predict(x: TaskFeatures): number;
  observe(x: TaskFeatures, successes: number, failures: number, kind: Observation['kind']): void;
}

/** The rate of every probe rollout so far (Laplace's rule): what a model must beat, known at the time. */
function running(): ProbeModel {
  let s = 0,
    n = 0;
  return {
    predict: () => (s + 1) / (n + 2),
    observe: (_x, succ, fail, kind) => {
      if (kind !== 'probe') return;
      s += succ;
      n += succ + fail;
    },
  };
}

/** A Beta posterior per knob setting from probes only, starting from the running rate with the weight of two rollouts. */
function setting(): ProbeModel {
  const all = running();
  const by = new Map<string, [number, number]>();
  const key = (x: TaskFeatures) => [...x.keys()].filter((k) => /^(env|bugs|hint|visibility|family)=/.test(k)).join(',');
  return {
    predict: (x) => {
      const [s, n] = by.get(key(x)) ?? [0, 0];
      return (s + 2 * all.predict(x)) / (n + 2);
    },
    observe: (x, succ, fail, kind) => {
      all.observe(x, succ, fail, kind);
      if (kind !== 'probe') return;
      const [s, n] = by.get(key(x)) ?? [0, 0];
      by.set(key(x), [s + succ, n + succ + fail]);
    },
  };
}

/** The difficulty model, with only some features, learning from probes only or from training groups too. */
function model(opts: ConstructorParameters<typeof DifficultyModel>[0] & { groups?: boolean; only?: RegExp }): ProbeModel {
  const m = new DifficultyModel(opts);
  const keep = (x: TaskFeatures) => (opts.only ? new Map([...x].filter(([k]) => opts.only!.test(k))) : x);
  return {
    predict: (x) => m.predict(keep(x)),
    observe: (x, s, f, kind) => {
      if (kind === 'probe' || opts.groups) m.observe(keep(x), s, f);
    },
  };
}

/** A model's prediction recalibrated online (Platt scaling on its logit, learned from probes). */
function platt(inner: ProbeModel, lr = 0.05): ProbeModel {
  let a = 1,
    b = 0;
  return {
    predict: (x) => sigmoid(a * logit(inner.predict(x)) + b),
    observe: (x, s, f, kind) => {
      if (kind === 'probe' && s + f > 0) {
        const z = logit(inner.predict(x));
        const g = sigmoid(a * z + b) - s / (s + f);
        a -= lr * g * z;
        b -= lr * g;
      }
      inner.observe(x, s, f, kind);
    },
  };
}

const MODELS: Record<string, () => ProbeModel> = {
  running,
  setting,
  'prior known (the default)': () => model({}),
  'prior known, groups too': () => model({ groups: true }),
  'prior known, lr 0.03': () => model({ lr: 0.03 }),
  'prior known, lr 0.3': () => model({ lr: 0.3 }),
  'prior known, as is (lr 0)': () => model({ lr: 0 }),
  'prior family (the old start)': () => model({ prior: 'family' }),
  'prior family, groups too (the old model)': () => model({ prior: 'family', groups: true }),
  'prior none': () => model({ prior: 'none' }),
  'prior none, lr 0.3': () => model({ prior: 'none', lr: 0.3 }),
  'platt(prior known)': () => platt(model({})),
  'platt(prior family)': () => platt(model({ prior: 'family' })),
};

/** A line cut short by a crash while it was written is skipped, not fatal. */
function parseLine(l: string): unknown {
  try {
    return JSON.parse(l);
  } catch {
    return null;
  }
}

function isObservation(v: unknown): v is Observation {
  return isRecord(v) && (v.kind === 'probe' || v.kind === 'group') && isRecord(v.x) && typeof v.successes === 'number' && typeof v.failures === 'number';
}

/** Every difficulty log under the given folders (a run directory, or an evidence output with runs/<cell>). */
function logsUnder(paths: string[]): { name: string; seen: Observation[] }[] {
  const out: { name: string; seen: Observation[] }[] = [];
  const visit = (dir: string, depth: number) => {
    const file = join(dir, DIFFICULTY_LOG);
    if (existsSync(file)) {
      const seen = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map(parseLine)
        .filter(isObservation);
      out.push({ name: dir, seen });
      return;
    }
    if (depth < 3) for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) visit(join(dir, e.name), depth + 1);
  };
  for (const p of paths) visit(p, 0);
  return out;
}

const logs = logsUnder(positionals);
if (logs.length === 0) {
  console.error('no difficulty logs found (runs/<cell>/difficulty.jsonl); give run directories or an evidence output directory');
  process.exit(2);
}
const probes = logs.reduce((s, l) => s + l.seen.filter((o) => o.kind === 'probe').length, 0);
console.log(`${logs.length} runs, ${probes} probed tasks`);

const rows: string[][] = [];
const all: Record<string, [number, number, number][]> = {};
for (const [name, make] of Object.entries(MODELS)) {
  const points: [number, number, number][] = [];
  let skipped = 0,
    skippedRollouts = 0,
    lostAdmits = 0,
    logLoss = 0;
  for (const log of logs) {
    const m: ProbeModel = make();
    let probed = 0;
    for (const o of log.seen) {
      const x = new Map(Object.entries(o.x));
      // As a learner without a pre-rollout figure of its own (a language model) would see it.
      if (values['no-figure'] && x.delete('figure-logit')) x.set('figure-unknown', 1);
      // As a gate before validation would see a candidate: no failing tests counted yet, no reach (its opening needs a task).
      if (values['pre-validation']) for (const k of ['figure-logit', 'figure-unknown', 'log-f2p']) x.delete(k);
      if (o.kind === 'probe') {
        const p = m.predict(x);
        points.push([p, o.successes, o.successes + o.failures]);
        const q = Math.min(1 - 1e-3, Math.max(1e-3, p));
        logLoss -= o.successes * Math.log(q) + o.failures * Math.log(1 - q);
        if (probed >= warmUp && p * (1 - p) < skipBelow) {
          skipped++;
          skippedRollouts += o.successes + o.failures;
          if (o.successes > 0 && o.failures > 0) lostAdmits++;
        }
      }
      m.observe(x, o.successes, o.failures, o.kind);
      if (o.kind === 'probe') probed++;
    }
  }
  all[name] = points;
  const c = calibration(points);
  const n = points.reduce((s, [, , k]) => s + k, 0);
  rows.push([
    name,
    c.brier!.toFixed(4),
    (logLoss / n).toFixed(4),
    `${skipped} (${skippedRollouts} rollouts)`,
    `${lostAdmits}/${skipped}`,
    c.bins.map((b) => `${b.tasks}:${(b.predicted * 100).toFixed(0)}/${(b.observed * 100).toFixed(0)}`).join(' '),
  ]);
}
// The GRESO-style gate as `train --gate greso` runs it: streaks of uninformative probes per knob setting (no
// prediction, so no Brier score), on the same probes.
{
  let skipped = 0,
    skippedRollouts = 0,
    lostAdmits = 0;
  const setting = (x: Record<string, number>) =>
    Object.keys(x)
      .filter((k) => /^(bugs|hint|visibility|family)=/.test(k))
      .join(',');
  for (const log of logs) {
    const g = new GresoGate();
    for (const o of log.seen.filter((s) => s.kind === 'probe')) {
      if (g.skips(setting(o.x), 1, o.task)) {
        skipped++;
        skippedRollouts += o.successes + o.failures;
        if (o.successes > 0 && o.failures > 0) lostAdmits++;
      }
      g.record(setting(o.x), o.successes, o.failures);
    }
  }
  rows.push(['GRESO-style (seed 1)', '-', '-', `${skipped} (${skippedRollouts} rollouts)`, `${lostAdmits}/${skipped}`, '-']);
}
const base = calibration(all[Object.keys(all)[0]!]!.map(([, s, k]) => [0.5, s, k]));
console.log(`pooled rate afterwards (a constant known only at the end): Brier ${base.baseline!.toFixed(4)}`);
console.log(
  table(
    ['model', 'Brier', 'log loss', `gate skips (p(1-p) < ${skipBelow} after ${warmUp} probes)`, 'of them admitted', 'bins: tasks:predicted/observed %'],
    rows,
  ),
);
