// A test runner `env add` can drive: how it is recognised, how it is run with
// a machine-readable report, and which files are its tests.
import type { ReportFormat } from '../../report/types.js';

export const RUNNERS = ['node-test', 'tape', 'brittle', 'mocha', 'node-tap', 'ava', 'jest', 'vitest', 'pytest', 'unittest'] as const;
export type RunnerName = (typeof RUNNERS)[number];

export interface RunnerPlan {
  runner: RunnerName;
  /** argv; `{python}`, `{report}` and `{unittest-junit}` are substituted at run time. */
  command: string[];
  report: { format: ReportFormat; from: 'stdout' | 'file' };
  env: Record<string, string>;
  /** Globs of the test files (protected from the agent, source of honeypots). */
  testPaths: string[];
  /** What decided the runner: a dependency, a config file, the test files' imports. */
  evidence: string;
}

/** Setup steps and layer paths that install a project's dependencies. */
export interface DependencyPlan {
  setup: string[];
  layer: string[];
  env: Record<string, string>;
}
