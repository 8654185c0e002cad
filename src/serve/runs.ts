// What the dashboard shows of runs: the list with status and progress, and
// one run's series (per-step metrics, held-out points with intervals, the
// pool's pass-rate distribution and the controller's knobs). Read from the
// store and the run's state file; nothing here writes.
import { existsSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { runRows, type RunRow } from '../store/attempts.js';
import type { Store } from '../store/store.js';
import type { StepMetrics } from '../train/metrics.js';
import { loadState, type RunState } from '../train/state.js';
import { isRecord } from '../util/guards.js';
import { wilson } from '../util/stats.js';
import { processAlive } from '../util/process.js';

/** running: its process is alive; interrupted: marked running but its process is gone (killed or crashed); stopped: it ended and said why. */
export type RunStatus = 'running' | 'interrupted' | 'stopped';

export interface RunSummary {
  name: string;
  status: RunStatus;
  stop: string | null;
  curriculum: string;
  learner: string;
  config: Record<string, unknown>;
  step: number;
  steps: number;
  rollouts: number;
  budget: number;
  startedAt: string | null;
  updatedAt: string | null;
  heldOut: HeldOutView | null;
  attempts: number;
}

export interface HeldOutView {
  step: number;
  rollouts: number;
  rate: number;
  solved: number | null;
  attempts: number | null;
  /** Wilson 95% interval of the solved share (null without counts). */
  low: number | null;
  high: number | null;
  reach: number | null;
}

/** One step as the charts read it. */
export interface StepView {
  step: number;
  rollouts: number;
  minutes: number | null;
  meanReward: number;
  groups: number;
  nonDegenerate: number;
  nonDegenerateShare: number;
  tampering: number;
  tamperingShare: number;
  /** Synthesis and admission counts since the run started (each step's metrics hold the step's own). */
  yield: StepMetrics['yield'];
  poolHistogram: number[];
  poolCounts: Record<string, number>;
  knobs: Record<string, number>;
  infraFailures: number;
}

export interface RunSeries {
  run: RunSummary;
  steps: StepView[];
  heldOut: HeldOutView[];
}

function statusOf(row: RunRow | undefined, state: RunState | null): RunStatus {
  if (!row) return state?.stop ? 'stopped' : 'interrupted';
  if (row.status !== 'running') return 'stopped';
  // A process on another machine cannot be asked: trust the row there.
  if (row.pid === null || (row.host !== null && row.host !== hostname())) return 'running';
  return processAlive(row.pid) ? 'running' : 'interrupted';
}

function heldOutView(p: RunState['heldOut'][number]): HeldOutView {
  const counted = p.solved !== undefined && p.attempts !== undefined && p.attempts > 0;
  const [low, high] = counted ? wilson(p.solved!, p.attempts!) : [null, null];
  return {
    step: p.step,
    rollouts: p.rollouts,
    rate: p.solveRate,
    solved: p.solved ?? null,
    attempts: p.attempts ?? null,
    low,
    high,
    reach: p.reach ?? null,
  };
}

function num(x: unknown, fallback = 0): number {
  return typeof x === 'number' && Number.isFinite(x) ? x : fallback;
}

export class RunQueries {
  constructor(
    readonly store: Store,
    readonly dataDir: string,
  ) {}

  private rows(): Map<string, RunRow> {
    return new Map(runRows(this.store).map((r) => [r.name, r]));
  }

  /** Runs in the store and in the data directory's runs/ (older runs have no row), most recently updated first. */
  list(): RunSummary[] {
    const rows = this.rows();
    const runsDir = join(this.dataDir, 'runs');
    const names = new Set([...rows.keys(), ...(existsSync(runsDir) ? readdirSync(runsDir).filter((n) => existsSync(join(runsDir, n, 'state.json'))) : [])]);
    const counts = new Map(
      this.store.db
        .prepare<[], { run: string; n: number }>('SELECT run, COUNT(*) AS n FROM attempts GROUP BY run')
        .all()
        .map((r) => [r.run, r.n]),
    );
    const out = [...names].map((name) => this.summary(name, rows.get(name), counts.get(name) ?? 0));
    return out.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '') || a.name.localeCompare(b.name));
  }

  private state(name: string): RunState | null {
    try {
      return loadState(join(this.dataDir, 'runs', name));
    } catch {
      return null;
    }
  }

  private summary(name: string, row: RunRow | undefined, attempts: number): RunSummary {
    const state = this.state(name);
    const config = (isRecord(row?.config) ? row.config : isRecord(state?.config) ? state.config : {}) as Record<string, unknown>;
    const last = state?.heldOut.at(-1);
    // The state file is written after each step; the row also moves with held-out evaluations in between.
    const step = Math.max(row?.step ?? 0, state?.step ?? 0);
    const rollouts = Math.max(row?.rollouts ?? 0, state?.rolloutsUsed ?? 0);
    return {
      name,
      status: statusOf(row, state),
      stop: row?.stop ?? state?.stop ?? null,
      curriculum: typeof config.curriculum === 'string' ? config.curriculum : '?',
      learner: typeof config.learner === 'string' ? config.learner : 'embedded',
      config,
      step,
      steps: num(config.steps),
      rollouts,
      budget: num(config.budget),
      startedAt: row?.startedAt ?? null,
      updatedAt: row?.updatedAt ?? null,
      heldOut: last ? heldOutView(last) : null,
      attempts,
    };
  }

  /** One run: its summary and series; undefined for an unknown run. */
  series(name: string): RunSeries | undefined {
    const row = this.rows().get(name);
    const state = this.state(name);
    if (!row && !state) return undefined;
    const attempts = this.store.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM attempts WHERE run = ?').get(name)?.n ?? 0;
    const metrics = this.store.db
      .prepare<[string], { metrics_json: string }>('SELECT metrics_json FROM train_metrics WHERE run = ? ORDER BY step')
      .all(name)
      .map((r): unknown => JSON.parse(r.metrics_json))
      .filter(isStepMetrics);
    return { run: this.summary(name, row, attempts), steps: cumulativeYield(metrics.map(stepView)), heldOut: (state?.heldOut ?? []).map(heldOutView) };
  }

  /**
   * A fingerprint of what a run's page shows: it changes when a step or a
   * held-out evaluation lands or the run stops (not with each attempt: the
   * page would redraw every few seconds for nothing it draws).
   */
  version(name: string): string {
    const m = this.store.db.prepare<[string], { n: number | null }>('SELECT MAX(step) AS n FROM train_metrics WHERE run = ?').get(name)?.n ?? 0;
    const r = this.store.db.prepare<[string], { u: string; s: string }>('SELECT updated_at AS u, status AS s FROM runs WHERE name = ?').get(name);
    return `${m}:${r?.u ?? ''}:${r?.s ?? ''}`;
  }
}

const YIELD_KEYS = ['candidates', 'valid', 'probed', 'admitted', 'screened'] as const;

function cumulativeYield(steps: StepView[]): StepView[] {
  const total = { candidates: 0, valid: 0, probed: 0, admitted: 0, screened: 0 };
  return steps.map((s) => {
    for (const k of YIELD_KEYS) total[k] += num(s.yield[k]);
    return { ...s, yield: { ...total } };
  });
}

/** A metrics row as far as the charts rely on it (older rows lack the newer fields, which stepView defaults). */
function isStepMetrics(x: unknown): x is StepMetrics {
  return isRecord(x) && typeof x.step === 'number' && typeof x.rollouts === 'number' && typeof x.meanReward === 'number';
}

function stepView(m: StepMetrics): StepView {
  return {
    step: m.step,
    rollouts: m.rollouts,
    minutes: m.elapsedMs === undefined ? null : m.elapsedMs / 60_000,
    meanReward: m.meanReward,
    groups: m.groups,
    nonDegenerate: m.nonDegenerate,
    nonDegenerateShare: m.nonDegenerateShare,
    tampering: m.tampering,
    tamperingShare: m.tamperingShare,
    yield: m.yield ?? { candidates: 0, valid: 0, probed: 0, admitted: 0, screened: 0 },
    poolHistogram: m.poolHistogram ?? [],
    poolCounts: m.poolCounts ?? {},
    knobs: m.knobs ?? {},
    infraFailures: m.infraFailures ?? 0,
  };
}
