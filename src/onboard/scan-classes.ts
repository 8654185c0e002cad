// One named class for each repository `env scan` tried: kept, or the first
// step that failed and why. Classes a user's machine would not hit (packages
// only on PyPI where PyPI is out of reach) are counted apart.
import type { CheckResult } from '../grading/env-check.js';

export const SCAN_CLASSES = {
  kept: 'accepted, tasks synthesized, every reference fix earns 1 and no empty change does',
  'clone-failed': 'the repository could not be cloned at its commit',
  'not-inferred': 'env add could not tell the language, runner or tests',
  'pypi-unreachable': 'a Python dependency must come from PyPI, which this machine cannot reach',
  'package-unreachable': 'an npm dependency this machine cannot fetch: not on its registry, or from a git host it cannot reach',
  'install-failed': 'the dependency layer could not be built',
  'generated-module': 'the tests load a file the build generates and the repository does not commit',
  'missing-dependency': 'the tests import a package that is not installed',
  'undeclared-dependency': 'the tests need a package the project does not declare',
  'missing-plugin': 'the runner is configured with a plugin that is not installed',
  'syntax-error': 'the code does not parse with this machine’s interpreter',
  'runtime-version': 'the tests need another Node or Python version than this machine’s',
  'module-format': 'the runner loads ES modules as CommonJS or the reverse',
  'typescript-error': 'the TypeScript does not compile',
  'other-error': 'the suite fails with an error of another kind',
  'suite-timeout': 'the suite runs past its time limit',
  'output-limit': 'the suite prints more than a run may (8 MiB)',
  'no-report': 'the runner gave no report FrogNano can read, and no error explains why',
  'flaky-tests': 'a test gave different results across the reference runs',
  'failing-tests': 'fewer than 80% of the tests pass on the reference code',
  'no-valid-task': 'accepted, but no candidate bug became a valid task',
  'reference-fails': 'a valid task’s reference fix did not earn reward 1',
  'empty-change-passes': 'an empty change earned reward 1 on a valid task',
  'scan-error': 'FrogNano itself failed on this repository',
} as const;

export type ScanClass = keyof typeof SCAN_CLASSES;

/** Classes that say what this machine cannot install, not what FrogNano cannot onboard. */
export const MACHINE_CLASSES: ScanClass[] = ['pypi-unreachable', 'package-unreachable'];

/** The class of a rejected check: the install first, then the error that explains the suite, then flakes and failures. */
export function checkClass(result: CheckResult, setup: string[]): ScanClass {
  const reasons = result.reasons.join('\n');
  if (/dependency layer could not be built/.test(reasons)) {
    return setup.some((s) => /pip install/.test(s)) &&
      /pip|No matching distribution|Could not find a version|Network is unreachable|name resolution|ConnectionError/i.test(reasons)
      ? 'pypi-unreachable'
      : /\b(ENOTFOUND|EAI_AGAIN|ETARGET|E404|ECONNREFUSED)\b|Could not resolve host|git --no-replace-objects ls-remote/.test(reasons)
        ? 'package-unreachable'
        : 'install-failed';
  }
  if (result.explanation && result.explanation.cause !== 'other-error') return result.explanation.cause;
  if (/exceeded \d+ s and was killed/.test(reasons)) return 'suite-timeout';
  if (/over the output limit/.test(reasons)) return 'output-limit';
  if (result.explanation) return 'other-error';
  if (/no sign that tests ran|report could not be read/.test(reasons)) return 'no-report';
  if (result.flaky > 0) return 'flaky-tests';
  return 'failing-tests';
}
