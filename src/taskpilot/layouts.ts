// The graded layouts a new task tries, in order (grading-check.ts checks
// each until one holds): honeypots over the project's tests and the checks
// generated from the reference fix (checks.ts); where they disturb the
// suite, twins of the failing tests alone; then the same without the checks;
// then (pytest) the moved files alone. Every layout says whether it carries
// checks, and why not where it does not.
import type { BuiltEnv } from '../env/build.js';
import { planHoneypots, type HoneypotPlan, type TwinValues } from '../grading/honeypots.js';
import { idStyle, type TestFile } from '../grading/tests/defs.js';
import { projectWords } from '../grading/tests/names.js';
import { projectTestFiles } from '../grading/tests/project.js';
import type { Runtime } from '../runtime/types.js';
import type { GradingLayout } from '../task/task.js';
import { generateChecks } from './checks.js';

export interface LayoutInput {
  built: BuiltEnv;
  runtime: Runtime;
  dataDir: string;
  f2p: readonly string[];
  p2p: readonly string[];
  /** Ids of a clean run of the suite. */
  reportIds: ReadonlySet<string>;
  timeoutSec: number;
}

/**
 * A plan with every file that holds checks written: a file the honeypots left
 * alone still carries its checks, over its own path (JavaScript) or as a
 * single copy under a fresh name (Python, whose files move at every grading).
 */
function withCheckFiles(plan: HoneypotPlan, holding: TestFile[]): HoneypotPlan {
  const files = [...plan.files];
  const groups = [...(plan.groups ?? [])];
  for (const f of holding) {
    if (files.some((x) => x.path === f.rel) || groups.some((g) => g.like === f.rel)) continue;
    if (f.lang === 'python') groups.push({ like: f.rel, contents: [f.text], graded: {}, decoys: {}, home: 0 });
    else files.push({ path: f.rel, content: f.text, like: f.rel });
  }
  return { ...plan, files, groups };
}

/** Values a test's twins must not expect, by test (honeypots.ts testKey). */
export type Avoid = Map<string, Set<string>>;

/** A layout to check, the values its twins expect, and how to draw it again avoiding values (null where it then has no honeypot left). */
export interface LayoutPlan {
  layout: GradingLayout;
  values: TwinValues;
  redraw: (avoid: Avoid) => Promise<LayoutPlan | null>;
}

/** The layouts to try, in order. */
export function planLayouts(c: LayoutInput, random: () => number): AsyncGenerator<LayoutPlan> {
  const spec = c.built.env.spec;
  const style = idStyle(spec.test.report.format, spec.language);
  const relocate = style === 'pytest';
  return (async function* () {
    const files = await projectTestFiles(c.built.snapshot, spec, [...c.f2p, ...c.p2p]);
    const words = projectWords(files);
    const checks = await generateChecks(c, random);
    const withChecks = files.map((f) => checks.files.find((a) => a.rel === f.rel) ?? f);
    const holding = withChecks.filter((f) => !files.includes(f));
    const empty: HoneypotPlan = { files: [], twins: [], renamed: {}, copies: [], groups: [], words };
    // One kind of layout, drawn (again) with the values to avoid; `extra` completes the plan into a layout.
    const kind = (over: TestFile[], f2p: readonly string[], p2p: readonly string[], extra: (p: HoneypotPlan | null) => GradingLayout | null) => {
      const draw = async (avoid?: Avoid): Promise<LayoutPlan | null> => {
        const p = await planHoneypots({ files: over, style, f2p, p2p, reportIds: c.reportIds, random, ...(avoid ? { avoid } : {}) });
        const layout = extra(p);
        return layout && { layout, values: p?.values ?? {}, redraw: draw };
      };
      return draw();
    };
    const bare = ({ values: _v, ...p }: HoneypotPlan): Omit<HoneypotPlan, 'values'> => p;
    if (checks.ids.length) {
      const f2p = [...c.f2p, ...checks.ids];
      for (const p2p of [c.p2p, []]) {
        const plan = await kind(withChecks, f2p, p2p, (p) => ({ ...bare(withCheckFiles(p ?? empty, holding)), relocate, repeats: [], checks: checks.ids }));
        if (plan) yield plan;
      }
    }
    const noChecks = checks.none ?? 'the checks disturbed the suite';
    for (const p2p of [c.p2p, []]) {
      const plan = await kind(files, c.f2p, p2p, (p) => p && { ...bare(p), relocate, repeats: [], noChecks });
      if (plan) yield plan;
    }
    if (relocate) yield { layout: { ...bare(empty), groups: [], relocate, repeats: [], noChecks }, values: {}, redraw: () => Promise.resolve(null) };
  })();
}
