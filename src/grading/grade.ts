// Grading by the strictest public rules (SWE-bench v5): a missing or skipped
// required test counts as failed, a report that disagrees with the runner's
// exit code is not believed, and an infrastructure failure is neither a pass
// nor a fail.
import type { TestRun } from './testrun.js';

export interface TestsStatus {
  success: string[];
  failure: string[];
}

export interface Grade {
  resolved: boolean;
  /** FULL: every required test passes; PARTIAL: some F2P pass and all P2P; NO otherwise. */
  resolution: 'FULL' | 'PARTIAL' | 'NO';
  infraFailure: boolean;
  reason?: string;
  FAIL_TO_PASS: TestsStatus;
  PASS_TO_PASS: TestsStatus;
}

/** Whether one required test counts as passing in this run. */
export function testPassed(run: TestRun, id: string): boolean {
  if (run.outcome !== 'completed' || !run.exitAgrees) return false;
  return run.tests.get(id)?.status === 'passed';
}

function split(run: TestRun, ids: string[]): TestsStatus {
  const success: string[] = [];
  const failure: string[] = [];
  for (const id of ids) (testPassed(run, id) ? success : failure).push(id);
  return { success, failure };
}

export function grade(run: TestRun, failToPass: string[], passToPass: string[]): Grade {
  const f2p = split(run, failToPass);
  const p2p = split(run, passToPass);
  const infraFailure = run.outcome === 'infra-error';
  const resolved = !infraFailure && f2p.failure.length === 0 && p2p.failure.length === 0 && failToPass.length > 0;
  const resolution = resolved ? 'FULL' : p2p.failure.length === 0 && f2p.success.length > 0 ? 'PARTIAL' : 'NO';
  return {
    resolved,
    resolution,
    infraFailure,
    ...(run.reason ? { reason: run.reason } : {}),
    FAIL_TO_PASS: f2p,
    PASS_TO_PASS: p2p,
  };
}
