import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LinearPolicy } from '../../src/policy/linear.js';
import type { EmbeddedTurn } from '../../src/policy/decisions.js';
import { EmbeddedLearner, type EmbeddedLearnerState } from '../../src/policy/learner.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { Store } from '../../src/store/store.js';
import { readTasks } from '../../src/task/io.js';
import { TRAIN_DEFAULTS, type TrainConfig } from '../../src/train/config.js';
import { STATE_SCHEMA, loadState, type RunState } from '../../src/train/state.js';
import { ResultReuse } from '../../src/grading/reuse.js';
import type { AdvantageEstimator, Learner, Policy, ScoredGroup, UpdateResult } from '../../src/rl/contract.js';
import type { Model } from '../../src/model/types.js';
import type { UserError } from '../../src/util/errors.js';
import { train, type StepMetrics, type TrainDeps, type TrainEvent } from '../../src/train/trainer.js';
import { tinyTrainEnvs } from '../helpers/train-env.js';
import { tempDir } from '../helpers/workspace.js';

// One tiny environment to train on and one held out; every run in this file
// shares the data directory, the task bank and the caches (as a benchmark's
// runs do), so later runs reuse what earlier ones synthesized and graded.
const runtime = selectRuntime({ warn: () => {} });
const envs = tinyTrainEnvs();
const root = tempDir('fn-train-');
const dataDir = join(root, 'data');
const bankDir = join(root, 'bank');
const reuse = new ResultReuse();

const CFG: TrainConfig = {
  ...TRAIN_DEFAULTS,
  curriculum: 'frontier',
  envs: ['tiny-stats'],
  heldOut: ['tiny-text'],
  seed: 1,
  steps: 3,
  budget: 80,
  batch: 2,
  group: 2,
  evalTasks: 2,
  evalRollouts: 1,
  evalEvery: 2,
  poolTarget: 2,
  initialTasks: 2,
  timeLimitMin: 0,
  workers: 2,
};

type Deps = TrainDeps<EmbeddedTurn>;

/** A run's dependencies: the shared caches, and a fresh embedded learner (the run's saved state, if any, is restored into it). */
function deps(run: string, events: TrainEvent[], extra: Partial<Deps> = {}): Deps {
  return {
    envs,
    runtime,
    dataDir,
    runDir: join(root, 'runs', run),
    bankDir,
    runName: run,
    reuse,
    learner: new EmbeddedLearner(CFG),
    onEvent: (e) => events.push(e),
    ...extra,
  };
}

function metricsOf(run: string): StepMetrics[] {
  const path = join(root, 'runs', run, 'metrics.jsonl');
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as StepMetrics);
}

/** Every task directory's defining files, by path. */
function bankFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of readdirSync(bankDir)) {
    if (!existsSync(join(bankDir, d, 'task.json'))) continue;
    for (const f of ['task.json', 'bug.patch', 'instruction.md', 'tests.json']) out.set(`${d}/${f}`, readFileSync(join(bankDir, d, f), 'utf8'));
  }
  return out;
}

const isNum = (x: unknown) => typeof x === 'number' && Number.isFinite(x);

describe('train (frontier) on a tiny environment, crashed after its first step and resumed', () => {
  const crashEvents: TrainEvent[] = [];
  const events: TrainEvent[] = [];
  let store: Store;
  let crash: unknown;
  let atCrash: RunState;
  let metricsAtCrash: StepMetrics[];
  let bankAtCrash: Map<string, string>;
  let final: RunState;

  before(async () => {
    mkdirSync(dataDir, { recursive: true });
    store = new Store(dataDir);
    const crashing = deps('resume', crashEvents, {
      store,
      onEvent: (e) => {
        crashEvents.push(e);
        if (e.kind === 'step') throw new Error('simulated crash after the first step');
      },
    });
    try {
      await train(CFG, crashing);
    } catch (err) {
      crash = err;
    }
    atCrash = loadState(join(root, 'runs', 'resume'))!;
    metricsAtCrash = metricsOf('resume');
    bankAtCrash = bankFiles();
    final = await train(CFG, deps('resume', events, { store }));
  });

  after(() => store?.db.close());

  it('the first run stopped at the crash with step 1 written', () => {
    assert.match(String((crash as Error)?.message), /simulated crash/);
    assert.equal(crashEvents.filter((e) => e.kind === 'step').length, 1);
    assert.equal(atCrash.schema, STATE_SCHEMA);
    assert.equal(atCrash.step, 1);
    assert.deepEqual(
      metricsAtCrash.map((m) => m.step),
      [1],
    );
    assert.ok(bankAtCrash.size > 0, 'tasks were synthesized before the crash');
  });

  it('the rerun resumes at step 1 and finishes the remaining steps only', () => {
    assert.deepEqual(events[0], { kind: 'resume', step: 1, rollouts: atCrash.rolloutsUsed });
    assert.deepEqual(
      events.filter((e) => e.kind === 'step').map((e) => (e as { metrics: StepMetrics }).metrics.step),
      [2, 3],
    );
    assert.equal(final.step, 3);
    assert.equal(final.stop, 'steps');
    assert.ok(final.rolloutsUsed > atCrash.rolloutsUsed);
    // Held-out points carry their counts and each task's reach.
    for (const h of final.heldOut) {
      assert.equal(h.attempts, CFG.evalTasks * CFG.evalRollouts, `step ${h.step}`);
      assert.ok(h.solved! >= 0 && h.solved! <= h.attempts!);
      assert.ok(Math.abs(h.solveRate - h.solved! / h.attempts!) < 1e-9, 'binary rewards: the rate is the share solved');
      if (h.reach !== undefined) {
        const byTask = Object.values(h.reachByTask ?? {});
        assert.ok(byTask.length > 0);
        assert.ok(Math.abs(h.reach - byTask.reduce((a, b) => a + b, 0) / byTask.length) < 1e-9, "the mean of the tasks' reach");
      }
    }
    // Held-out tasks were made and measured once at the start, not again on resume.
    assert.deepEqual(final.evalIds, atCrash.evalIds);
    assert.deepEqual(
      final.heldOut.map((h) => h.step),
      [0, 2, 3],
    );
    assert.ok(!events.some((e) => e.kind === 'eval' && e.step === 0));
    // What the crashed run knew is still known: its tasks stay used and in the pool.
    for (const id of atCrash.used) assert.ok(final.used.includes(id), id);
    const pooled = new Set(final.pool.entries.map((e) => e.taskId));
    for (const e of atCrash.pool.entries) assert.ok(pooled.has(e.taskId), e.taskId);
  });

  it('metrics.jsonl has one line per step, none repeated, with the documented fields', () => {
    const ms = metricsOf('resume');
    assert.deepEqual(
      ms.map((m) => m.step),
      [1, 2, 3],
    );
    assert.deepEqual(ms[0], metricsAtCrash[0], "step 1 is the crashed run's line, untouched");
    let rollouts = 0;
    for (const m of ms) {
      assert.equal(m.curriculum, 'frontier');
      assert.ok(m.rollouts > rollouts, 'rollouts grow with every step');
      rollouts = m.rollouts;
      assert.ok(isNum(m.meanReward) && m.meanReward >= 0 && m.meanReward <= 1);
      assert.ok(m.groups + m.heldChecks >= 1 && m.groups + m.heldChecks <= CFG.batch);
      assert.ok(m.nonDegenerate >= 0 && m.nonDegenerate <= m.groups);
      assert.equal(m.nonDegenerateShare, m.groups ? m.nonDegenerate / m.groups : 1);
      assert.ok(isNum(m.infraFailures));
      assert.ok(isNum(m.reestimated.moved) && m.reestimated.retired >= 0 && m.reestimated.retired <= m.reestimated.moved);
      assert.equal(m.poolHistogram.length, 10);
      assert.deepEqual(Object.keys(m.poolCounts).sort(), ['active', 'probing', 'rejected', 'retired']);
      assert.equal(
        m.poolHistogram.reduce((a, b) => a + b, 0),
        m.poolCounts.active! + m.poolCounts.probing!,
        JSON.stringify(m),
      );
      assert.deepEqual(Object.keys(m.yield).sort(), ['admitted', 'candidates', 'probeRollouts', 'probed', 'screened', 'skipped', 'valid']);
      assert.ok(m.yield.screened <= m.yield.probed, 'a screened task counts as probed');
      assert.ok(m.yield.valid <= m.yield.candidates && m.yield.admitted <= m.yield.probed);
      assert.deepEqual(Object.keys(m.knobs), ['tiny-stats']);
      assert.ok(isNum(m.gradNorm) && m.gradNorm >= 0);
      assert.ok(Number.isInteger(m.probeGroups) && m.probeGroups <= m.yield.admitted);
      if (m.nonDegenerate === 0 && m.probeGroups === 0) assert.equal(m.gradNorm, 0, 'no signal, no update');
      assert.deepEqual(Object.keys(m.ms).sort(), ['eval', 'probe', 'rollouts', 'synthesis', 'update']);
      for (const v of Object.values(m.ms)) assert.ok(Number.isInteger(v) && v >= 0);
      assert.ok(Number.isInteger(m.cache.testHits) && Number.isInteger(m.cache.testMisses));
      // Held-out solve rate every evalEvery steps and at the end.
      assert.equal('heldOutSolveRate' in m, m.step === 2 || m.step === 3, `step ${m.step}`);
      if (m.heldOutSolveRate !== undefined) assert.ok(m.heldOutSolveRate >= 0 && m.heldOutSolveRate <= 1);
      assert.equal(m.extended, 0, 'all-fail groups are not extended unless asked (--extend)');
      // Each sampled group, traceable: its task, why it was chosen, its passes.
      assert.equal(m.batch.length, m.groups + m.heldChecks);
      for (const g of m.batch)
        assert.ok(['fresh', 'frontier', 'replay', 'fallback'].includes(g.reason) && g.passed <= g.scored && g.scored <= CFG.group, JSON.stringify(g));
      // A replay check that held: a retired task, every rollout of the probe's size passed, no group.
      for (const g of m.batch.filter((x) => x.held)) assert.ok(g.reason === 'replay' && g.passed === g.scored && g.scored <= CFG.probe, JSON.stringify(g));
      assert.equal(m.batch.filter((g) => g.held).length, m.heldChecks);
      assert.equal(m.batch.filter((g) => !g.held && g.passed > 0 && g.passed < g.scored).length, m.nonDegenerate);
      // The held-out reach every step (single-bug held-out tasks: their openings tell it).
      assert.ok(isNum(m.heldOutReach) && m.heldOutReach! >= 0 && m.heldOutReach! <= 1, `step ${m.step}: ${m.heldOutReach}`);
    }
    assert.ok(
      final.heldOut.every((h) => isNum(h.reach)),
      'every evaluation point has its reach',
    );
    assert.equal(ms.at(-1)!.rollouts, final.rolloutsUsed);
    assert.ok(final.rolloutsUsed <= CFG.budget, `${final.rolloutsUsed} rollouts`);
    assert.ok(
      ms.some((m) => m.cache.testHits > 0),
      'the G rollouts of a group share their first test run',
    );
  });

  it("difficulty.jsonl keeps each probe and training group the difficulty model learned from, once, in the run's order", () => {
    const lines = readFileSync(join(root, 'runs', 'resume', 'difficulty.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map(
        (l) => JSON.parse(l) as { step: number; kind: string; task: string; x: Record<string, number>; successes: number; failures: number; predicted: number },
      );
    assert.ok(lines.length > 0);
    const steps = lines.map((l) => l.step);
    assert.deepEqual(
      steps,
      [...steps].sort((a, b) => a - b),
      'in step order',
    );
    assert.ok(steps.every((n) => n >= 1 && n <= 3));
    // Probes, as the saved model's calibration has them (prediction before the probe, successes, rollouts), one for one.
    const probes = lines.filter((l) => l.kind === 'probe');
    assert.deepEqual(
      probes.map((l) => [l.predicted, l.successes, l.successes + l.failures]),
      final.predictor!.calibration,
    );
    for (const l of lines) {
      assert.ok(['probe', 'group'].includes(l.kind), l.kind);
      assert.equal(l.x.bias, 1, 'the features known before the first rollout');
      assert.ok(l.predicted >= 0 && l.predicted <= 1 && l.successes + l.failures > 0);
    }
    // A training group is of a task made (and probed) earlier in the run.
    const made = new Set(probes.map((l) => l.task));
    for (const g of lines.filter((l) => l.kind === 'group')) assert.ok(made.has(g.task), g.task);
  });

  it('state.json, policy.json and the store hold the finished run', () => {
    const state = loadState(join(root, 'runs', 'resume'))!;
    assert.equal(state.step, 3);
    assert.deepEqual(state.config, CFG);
    assert.equal(
      state.groups.total,
      metricsOf('resume').reduce((n, m) => n + m.groups, 0),
    );
    assert.ok(!existsSync(join(root, 'runs', 'resume', 'state.json.tmp')));
    const policy = LinearPolicy.load(join(root, 'runs', 'resume', 'policy.json'));
    const saved = state.learner.state as EmbeddedLearnerState;
    assert.equal(state.learner.kind, 'embedded-policy');
    assert.deepEqual([...policy.w], saved.policy.weights);
    assert.equal(saved.version, 3, 'one policy version per update');
    const rows = store.trainMetrics('resume') as StepMetrics[];
    assert.deepEqual(
      rows.map((r) => r.step),
      [1, 2, 3],
    );
    assert.deepEqual(rows, metricsOf('resume'));
  });

  it('keeps every task directory written before the crash, and never makes a bug twice', () => {
    const now = bankFiles();
    for (const [file, content] of bankAtCrash) assert.equal(now.get(file), content, `${file} changed after the resume`);
    const tasks = readTasks(bankDir);
    const patches = tasks.map((t) => t.bugPatch);
    assert.equal(new Set(patches).size, patches.length, 'one task directory per bug');
    for (const id of final.used)
      assert.ok(
        tasks.some((t) => t.id === id),
        `${id} is in the bank`,
      );
    // The held-out tasks live in their own bank, apart from the training tasks.
    const heldOut = readTasks(join(bankDir, 'held-out'));
    assert.equal(final.evalIds.length, CFG.evalTasks);
    for (const id of final.evalIds) {
      const t = heldOut.find((x) => x.id === id);
      assert.ok(t && t.env.name === 'tiny-text', id);
      assert.ok(!tasks.some((x) => x.id === id));
    }
  });
});

describe('train with the uniform and static curricula', () => {
  let uniform: RunState;
  const small: Partial<TrainConfig> = { steps: 1, evalTasks: 0 };
  // A bank of their own: the frontier run above used up this tiny
  // environment's few single bugs, and a multi-bug task is combined only from
  // bugs validated in the same synthesis call.
  const fixedBank = join(root, 'bank-fixed');

  it('uniform: a fixed task set at random knobs, sampled uniformly, runs a step', async () => {
    const events: TrainEvent[] = [];
    uniform = await train({ ...CFG, ...small, curriculum: 'uniform' }, deps('uniform', events, { bankDir: fixedBank }));
    assert.equal(uniform.step, 1);
    assert.ok(uniform.fixedIds && uniform.fixedIds.length > 0, 'tasks were made up front');
    const bank = new Set(readTasks(fixedBank).map((t) => t.id));
    for (const id of uniform.fixedIds) assert.ok(bank.has(id));
    const [m] = metricsOf('uniform');
    assert.equal(m!.curriculum, 'uniform');
    assert.equal(m!.step, 1);
    assert.equal(m!.yield.probed, 0, 'no admission probes');
    assert.equal(m!.rollouts, m!.groups * CFG.group, "only the batch's rollouts are counted");
    assert.equal(events.filter((e) => e.kind === 'eval').length, 0);
  });

  it('a budget that leaves one rollout ends the run there, evaluated at its last step, never over budget', async () => {
    // Uniform spends batch x group = 4 rollouts a step: 8 after two steps, 1 left, no group of 2 fits.
    const run = await train(
      { ...CFG, ...small, curriculum: 'uniform', steps: 5, budget: 9, evalTasks: 1, evalEvery: 10 },
      deps('budget-end', [], { bankDir: fixedBank }),
    );
    assert.equal(run.step, 2);
    assert.equal(run.stop, 'budget');
    assert.equal(run.rolloutsUsed, 8);
    assert.deepEqual(
      run.heldOut.map((h) => h.step),
      [0, 2],
      'the start and the last step, though evalEvery is 10',
    );
    const ms = metricsOf('budget-end');
    assert.ok(
      ms.every((m) => m.batch.every((g) => g.reason === 'fixed')),
      'uniform groups come from the fixed set',
    );
  });

  it('a time limit stops each invocation after its first step past it, and a rerun goes on from there', async () => {
    const limited = { ...CFG, ...small, curriculum: 'uniform' as const, steps: 3, timeLimitMin: 1e-6 };
    const events: TrainEvent[] = [];
    const first = await train(limited, deps('time-limit', events, { bankDir: fixedBank }));
    assert.equal(first.step, 1);
    assert.equal(first.stop, 'time-limit');
    const phases = events.filter((e) => e.kind === 'phase' && e.phase === 'rollouts') as Extract<TrainEvent, { kind: 'phase' }>[];
    assert.deepEqual(
      phases.map((e) => e.rollouts),
      phases.map((e) => e.done),
      'rollouts are counted as they finish, not at the end of the step',
    );
    const second = await train(limited, deps('time-limit', [], { bankDir: fixedBank }));
    assert.equal(second.step, 2);
    assert.equal(second.stop, 'time-limit');
    assert.ok(second.elapsedMs > first.elapsedMs, "the run's minutes add up over invocations");
  });

  it('static: candidates drawn where the frontier starts, filtered once by probes with the initial policy, probes counted, runs a step', async () => {
    const static_ = await train({ ...CFG, ...small, curriculum: 'static' }, deps('static', [], { bankDir: fixedBank }));
    assert.equal(static_.step, 1);
    assert.ok(static_.fixedIds !== null);
    const [m] = metricsOf('static');
    assert.equal(m!.curriculum, 'static');
    assert.ok(m!.rollouts > m!.groups * CFG.group, 'probes count against the budget');
    // Every candidate was probed (or screened) at step 0, at the frontier's starting knobs (single bugs), and only admitted ones were kept.
    const candidates = static_.pool.entries.filter((e) => e.addedStep === 0);
    assert.ok(candidates.length >= 1 && candidates.length <= 2 * CFG.initialTasks, `${candidates.length} candidates`); // this tiny environment has few single bugs left
    for (const e of candidates) assert.match(e.familyKey, /\/b1\//, `${e.taskId} at ${e.familyKey}`);
    const ids = new Set(candidates.map((e) => e.taskId));
    for (const id of static_.fixedIds) assert.ok(ids.has(id), `${id} is a probed candidate`);
    for (const e of candidates.filter((x) => x.state === 'rejected'))
      assert.ok(!static_.fixedIds.includes(e.taskId), `${e.taskId} failed its probe and is not kept`);
  });
});

/** What a scripted actor puts on each turn for its learner: which episode, which turn, under which version. */
interface Note {
  seed: number;
  turn: number;
  version: number;
}

/**
 * A learner written only against the RL contract, as a test double: its
 * actor is scripted (it runs the tests once, then submits without a change)
 * and its update records what it was handed. `drift` moves its policy version
 * on every policy() call, as a remote learner that keeps training would.
 */
class RecordingLearner implements Learner<Note> {
  readonly kind = 'recording';
  version = 0;
  readonly updates: { version: number; groups: ScoredGroup<Note>[]; estimator: string }[] = [];
  restored: unknown = undefined;

  constructor(
    readonly maxStaleness = 0,
    private readonly drift = false,
  ) {}

  policy(): Policy<Note> {
    const version = this.drift ? this.version++ : this.version;
    return {
      version,
      actor: ({ seed }) => {
        let turn = 0;
        const actor: Model<Note> = {
          name: 'scripted:recording-learner',
          supportsTools: true,
          turn: async (req) => {
            turn++;
            const learner = { seed, turn, version };
            const command = /Run the tests with:\s*\n\s+(.+)/.exec(String(req.messages.find((m) => m.role === 'user')?.content))?.[1] ?? 'true';
            if (turn === 1) {
              return {
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Bash', arguments: JSON.stringify({ command }) } }],
                },
                finishReason: 'tool_calls',
                learner,
              };
            }
            return { message: { role: 'assistant', content: 'scripted: submitting nothing' }, finishReason: 'stop', learner };
          },
        };
        return actor;
      },
    };
  }

  async update(groups: ScoredGroup<Note>[], estimator: AdvantageEstimator): Promise<UpdateResult> {
    this.updates.push({ version: this.version, groups, estimator: estimator.name });
    this.version++;
    return { version: this.version, gradNorm: 0 };
  }

  save(): unknown {
    return { version: this.version, updates: this.updates.length };
  }

  restore(state: unknown): void {
    this.restored = state;
    this.version = (state as { version: number }).version;
  }
}

describe('a learner written only against the RL contract, in the real trainer', () => {
  const fixedBank = join(root, 'bank-fixed');
  const cfg: TrainConfig = { ...CFG, curriculum: 'uniform', steps: 2, evalTasks: 0, group: 2, batch: 2 };
  const depsFor = <D>(run: string, learner: Learner<D>): TrainDeps<D> => {
    const { learner: _, onGroups: __, ...rest } = deps(run, []);
    return { ...rest, bankDir: fixedBank, learner };
  };

  it("gets every group with its advantages and each turn's data as its actor emitted it, tagged with the acting version; its state is saved and restored", async () => {
    const learner = new RecordingLearner();
    const state = await train(cfg, depsFor('double', learner));
    assert.equal(state.step, 2);
    assert.deepEqual(
      learner.updates.map((u) => u.version),
      [0, 1],
      'one update per step, each producing the next version',
    );
    for (const [k, u] of learner.updates.entries()) {
      assert.equal(u.estimator, 'rloo');
      assert.equal(u.groups.length, cfg.batch);
      for (const g of u.groups) {
        assert.equal(g.rollouts.length, cfg.group);
        assert.equal(g.advantages.length, g.rollouts.length);
        assert.ok(g.degenerate, 'submitting nothing earns 0 every time: no signal');
        for (const r of g.rollouts) {
          assert.equal(r.taskId, g.taskId);
          assert.equal(r.policyVersion, k, 'acted with the version before this update');
          assert.equal(r.reward, 0);
          const notes = r.trajectory.turns.map((t) => t.learner!);
          assert.deepEqual(
            notes.map((n) => n.turn),
            [1, 2],
          );
          assert.ok(notes.every((n) => n.version === k && n.seed === notes[0]!.seed));
          assert.deepEqual(
            r.trajectory.turns.map((t) => t.tools),
            [['Bash'], []],
          );
        }
      }
    }
    const saved = loadState(join(root, 'runs', 'double'))!;
    assert.deepEqual(saved.learner, { kind: 'recording', state: { version: 2, updates: 2 } });
    assert.ok(!existsSync(join(root, 'runs', 'double', 'policy.json')), 'a learner without an export writes none');

    const again = new RecordingLearner();
    const resumed = await train({ ...cfg, steps: 3 }, depsFor('double', again));
    assert.deepEqual(again.restored, { version: 2, updates: 2 });
    assert.equal(resumed.step, 3);
    assert.deepEqual(
      again.updates.map((u) => u.version),
      [2],
    );
    await assert.rejects(train({ ...cfg, steps: 4 }, { ...deps('double', []), bankDir: fixedBank }), (err: UserError) => {
      assert.match(err.message, /trained by the recording learner, not embedded-policy/);
      assert.match(String(err.hint), /--fresh/);
      return true;
    });
  });

  it('drops rollouts more than maxStaleness versions behind the policy at update time, and counts them', async () => {
    const learner = new RecordingLearner(3, true);
    await train({ ...cfg, steps: 1 }, depsFor('stale', learner));
    const [u] = learner.updates;
    const kept = u!.groups.flatMap((g) => g.rollouts);
    const [m] = metricsOf('stale');
    // Four rollouts moved the version four times, and the trainer's own check once more.
    assert.ok(
      kept.every((r) => r.policyVersion >= 4 - 3),
      kept.map((r) => r.policyVersion).join(','),
    );
    assert.equal(kept.length + m!.stale!, cfg.batch * cfg.group);
    assert.ok(m!.stale! > 0);
  });
});
