// Two runs of a repository's tests, before and after a change, compared test
// by test: what the change fixed, what it broke, what stayed. `solve` prints
// this and refuses to apply a change that breaks passing tests.
import type { TestRun } from './testrun.js';

export interface RunComparison {
  /** Failing, erroring or absent before; passing after. */
  fixed: string[];
  /** Passing before; failing, erroring or absent after. */
  broken: string[];
  stillPassing: number;
  stillFailing: string[];
  /** The whole run: completed before and not after (a crash, a timeout, no report) counts as breaking everything that passed. */
  runBroken: boolean;
}

const passed = (run: TestRun, id: string) => run.tests.get(id)?.status === 'passed';

export function compareRuns(before: TestRun, after: TestRun): RunComparison {
  const ids = [...new Set([...before.tests.keys(), ...after.tests.keys()])].sort();
  const out: RunComparison = {
    fixed: [],
    broken: [],
    stillPassing: 0,
    stillFailing: [],
    runBroken: before.outcome === 'completed' && after.outcome !== 'completed',
  };
  for (const id of ids) {
    const [b, a] = [passed(before, id), passed(after, id)];
    if (b && a) out.stillPassing++;
    else if (b) out.broken.push(id);
    else if (a) out.fixed.push(id);
    else out.stillFailing.push(id); // failing before; failing or absent after
  }
  return out;
}

/** The change made things worse: a passing test no longer passes, or the run itself no longer completes. */
export function madeWorse(c: RunComparison): boolean {
  return c.broken.length > 0 || c.runBroken;
}

/** A few ids for a message, with how many more. */
export function someIds(ids: string[], max = 5): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}
