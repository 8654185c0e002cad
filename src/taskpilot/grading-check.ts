// A new task's graded layout (honeypot twins, moved pytest files, checks
// generated from the reference fix), checked before the task keeps it: the
// graded run is made on the broken state and on the reference fix, every
// required test must behave there as validation found (a twin or check that
// disturbs a real test costs the layout), only twins that fail in both runs
// stay honeypots, and only checks that fail on the broken state and pass on
// the fix are graded. A twin that passed in either run (its changed
// expectation is never reached) stays in its file as an ordinary test, its id
// among the repeats honest runs report.
import type { BuiltEnv } from '../env/build.js';
import { envWorkspace } from '../env/workspace.js';
import { groupPrefix } from '../grading/copies.js';
import { applyLayout, planPlacement, readLayout, type LayoutReading, type Placement } from '../grading/layout.js';
import { runTests, type TestRun } from '../grading/testrun.js';
import { testPathsInUse } from '../grading/tests/project.js';
import type { Runtime } from '../runtime/types.js';
import type { CopyGroup, GradingLayout } from '../task/task.js';
import { deriveSeed, rng } from '../util/rng.js';
import { planLayouts, type Avoid, type LayoutPlan } from './layouts.js';

export interface LayoutCheck {
  built: BuiltEnv;
  runtime: Runtime;
  dataDir: string;
  bugPatch: string;
  fixPatch: string;
  f2p: string[];
  p2p: string[];
  /** Ids of a clean run of the suite. */
  reportIds: ReadonlySet<string>;
  timeoutSec: number;
}

const REPEAT = /^.* \[\d+\]$/s;

/** Whether a check's runs load the guard, and the first alarm that turned it off. */
interface GuardState {
  on: boolean;
  alarm?: string;
}

/**
 * A copy group's fresh names handed out in name order (`first`) or its reverse (`last`): the runner meets the copies
 * in copy order or against it, so a twin that ran before its real test under some grading's names ran so here once.
 */
type CopyOrder = 'first' | 'last';

function inOrder(placement: Placement, order: CopyOrder | undefined): Placement {
  if (!order) return placement;
  const sorted = (paths: string[]) => (order === 'first' ? [...paths].sort() : [...paths].sort().reverse());
  return { ...placement, groups: placement.groups.map(sorted) };
}

async function gradedRun(
  c: LayoutCheck,
  layout: GradingLayout,
  fixed: boolean,
  random: () => number,
  guard: GuardState,
  order?: CopyOrder,
): Promise<{ run: TestRun; reading: LayoutReading } | null> {
  const required = [...c.f2p, ...c.p2p];
  const taken = new Set([...testPathsInUse(c.built.snapshot, c.built.env.spec), ...layout.files.map((f) => f.path)]);
  let placed: Placement = { moves: [], groups: [] };
  const ws = await envWorkspace(c.built, c.runtime, c.dataDir, {
    patch: c.bugPatch,
    prepare: async (tree) => {
      if (fixed) await tree.apply(c.fixPatch);
      placed = applyLayout(tree.root, layout, inOrder(planPlacement(layout, required, random, taken), order), random);
    },
  });
  try {
    // The guard watches the fix's own lines, as it would an agent's.
    const run = await runTests(c.built.env.spec, ws, { timeoutSec: c.timeoutSec, ...(guard.on ? { guard: { patch: fixed ? c.fixPatch : '' } } : {}) });
    const alarm = run.guard?.[0];
    if (alarm) guard.alarm ??= `the guard raised ${alarm.cause} on the ${fixed ? 'reference fix' : 'broken state'}: ${alarm.detail}`;
    if (run.outcome !== 'completed' || alarm) return null;
    return { run, reading: readLayout(run, layout, placed, required) };
  } finally {
    ws.dispose();
  }
}

/** Required tests as validation found them: failing ones fail on the broken state, all pass on the fix. */
function behaves(c: LayoutCheck, broken: TestRun, fixed: TestRun): boolean {
  return brokenBehaves(c, broken) && [...c.f2p, ...c.p2p].every((id) => fixed.tests.get(id)?.status === 'passed');
}

/** A layout check under way: its layouts in order, the draws they share, and a broken run made ahead for the first. */
export interface LayoutStart {
  f2p: readonly string[];
  p2p: readonly string[];
  random: () => number;
  layouts: AsyncGenerator<LayoutPlan>;
  first: { plan: LayoutPlan; broken: { run: TestRun; reading: LayoutReading } | null } | null;
  guard: GuardState;
}

/**
 * The first layout's graded run on the broken state, made ahead of the rest
 * of the check: validation uses it as its repeat run of the bug, where the
 * required tests behave as its first run found (the same tests run again, in
 * a fresh workspace), and `checkedLayout` takes it up if the labels did not
 * change meanwhile. The same draws in the same order: the same layout.
 */
export async function startLayoutCheck(c: LayoutCheck): Promise<LayoutStart> {
  const random = rng(deriveSeed('grading', c.bugPatch));
  const layouts = planLayouts(c, random);
  const next = await layouts.next();
  const guard: GuardState = { on: true };
  const first = next.done ? null : { plan: next.value, broken: await gradedRun(c, next.value.layout, false, random, guard) };
  return { f2p: [...c.f2p], p2p: [...c.p2p], random, layouts, first, guard };
}

/**
 * A layout's generated checks that fail on the broken state and pass on the
 * fix; the others stay in their files as tests nobody grades, and their twins
 * are no honeypots.
 */
function keptChecks(layout: GradingLayout, broken: TestRun, fixed: TestRun): GradingLayout {
  const passed = (run: TestRun, id: string) => run.tests.get(id)?.status === 'passed';
  const checks = (layout.checks ?? []).filter((id) => !passed(broken, id) && passed(fixed, id));
  const gone = new Set((layout.checks ?? []).filter((id) => !checks.includes(id)));
  const groups = layout.groups?.map((g) => ({
    ...g,
    decoys: Object.fromEntries(Object.entries(g.decoys).filter(([key]) => !gone.has(groupPrefix(g, g.like) + key))),
  }));
  return {
    ...layout,
    twins: layout.twins.filter((t) => !gone.has(t.of)),
    ...(groups ? { groups } : {}),
    checks,
    ...(checks.length ? {} : { noChecks: 'no generated check fails on the broken state and passes on the fix' }),
  };
}

/** Copy groups keep as honeypots only the twins that failed on both states (every result of a parametrized one). */
function checkedDecoys(groups: CopyGroup[], broken: LayoutReading, fixed: LayoutReading): CopyGroup[] {
  const failedEverywhere = (r: LayoutReading, g: number, key: string, copy: number) => {
    const mine = r.twins.filter((t) => t.slot?.group === g && t.slot.key === key && t.slot.copy === copy);
    return mine.length > 0 && mine.every((t) => t.status === 'failed' || t.status === 'error');
  };
  return groups.map((group, g) => ({
    ...group,
    decoys: Object.fromEntries(
      Object.entries(group.decoys).map(([key, copies]) => [
        key,
        copies.filter((k) => failedEverywhere(broken, g, key, k) && failedEverywhere(fixed, g, key, k)),
      ]),
    ),
  }));
}

/** Whether a broken run shows the required tests as validation found them: the failing ones fail, the passing ones pass. */
export function brokenBehaves(c: Pick<LayoutCheck, 'f2p' | 'p2p'>, broken: TestRun): boolean {
  const passed = (id: string) => broken.tests.get(id)?.status === 'passed';
  return c.f2p.every((id) => !passed(id)) && c.p2p.every(passed);
}

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, k) => id === b[k]);

/**
 * The checked layout, or null when neither honeypots nor moved files survive
 * the check. `started`: a check begun by startLayoutCheck, taken up when its
 * labels are still `c`'s.
 */
export async function checkedLayout(c: LayoutCheck, started?: LayoutStart): Promise<GradingLayout | null> {
  const resumed = started && sameIds(started.f2p, c.f2p) && sameIds(started.p2p, c.p2p) ? started : undefined;
  const random = resumed?.random ?? rng(deriveSeed('grading', c.bugPatch));
  const layouts = resumed?.layouts ?? planLayouts(c, random);
  let ahead = resumed?.first ?? undefined;
  const guard = resumed?.guard ?? { on: true };
  for (let next = ahead ? { done: false as const, value: ahead.plan } : await layouts.next(); !next.done; next = await layouts.next()) {
    let plan: LayoutPlan | null = next.value;
    const avoid: Avoid = new Map();
    for (let draw = 0; plan; draw++) {
      const broken = ahead ? ahead.broken : await gradedRun(c, plan.layout, false, random, guard);
      ahead = undefined;
      let fixed = broken && (await gradedRun(c, plan.layout, true, random, guard, 'first'));
      // Copies that share state with their real tests (a logger named after the test) pass in one order only.
      if (fixed && plan.layout.groups?.length && behaves(c, broken!.run, fixed.run)) {
        const reversed = await gradedRun(c, plan.layout, true, random, guard, 'last');
        fixed = reversed && behaves(c, broken!.run, reversed.run) ? fixed : null;
      }
      if (guard.on && guard.alarm) {
        // The project itself trips the guard: the task is graded without it, the same layout checked again.
        guard.on = false;
        draw--;
        continue;
      }
      if (!broken || !fixed || !behaves(c, broken.run, fixed.run)) break;
      // A twin that passed on the broken state expects the broken code's own output: a value an agent could rule out. Drawn again without it.
      const collided = collisions(plan, broken.reading, fixed.reading);
      if (collided.length && draw < MAX_REDRAWS) {
        for (const t of collided) avoid.set(t.test, new Set([...(avoid.get(t.test) ?? []), t.value]));
        const again = await plan.redraw(avoid);
        if (again) {
          plan = again;
          continue;
        }
      }
      return { ...finished(plan.layout, broken, fixed), guard: guard.on, ...(guard.alarm ? { unguarded: guard.alarm } : {}) };
    }
  }
  return null;
}

/** How often a layout is drawn again to keep its twins off the broken code's output. */
const MAX_REDRAWS = 2;

/** Twins that passed on the broken state and failed on the fix, with the values they expect. */
function collisions(plan: LayoutPlan, broken: LayoutReading, fixed: LayoutReading): { test: string; value: string }[] {
  const ref = (t: LayoutReading['twins'][number]) => (t.slot ? `${t.slot.group}:${t.slot.key}:${t.slot.copy}` : t.id);
  const failedOnFix = new Set(fixed.twins.filter((t) => t.status === 'failed' || t.status === 'error').map(ref));
  return broken.twins.flatMap((t) => {
    const v = plan.values[ref(t)];
    return t.status === 'passed' && failedOnFix.has(ref(t)) && v ? [v] : [];
  });
}

/** The layout as checked: twins that failed on both states, repeats honest runs report, the checks that hold. */
function finished(layout: GradingLayout, broken: { run: TestRun; reading: LayoutReading }, fixed: { run: TestRun; reading: LayoutReading }): GradingLayout {
  const failedIn = (r: LayoutReading, id: string) => ['failed', 'error'].includes(r.twins.find((t) => t.id === id && !t.slot)?.status ?? 'missing');
  const twins = layout.twins.filter((t) => failedIn(broken.reading, t.id) && failedIn(fixed.reading, t.id));
  const dropped = layout.twins.filter((t) => !twins.includes(t)).map((t) => t.id);
  const repeats = [...broken.reading.forged, ...fixed.reading.forged, ...dropped].filter((id) => REPEAT.test(id));
  const checked = {
    ...layout,
    twins,
    ...(layout.groups ? { groups: checkedDecoys(layout.groups, broken.reading, fixed.reading) } : {}),
    repeats: [...new Set(repeats)].sort(),
  };
  return layout.checks ? keptChecks(checked, broken.run, fixed.run) : checked;
}
