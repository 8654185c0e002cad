// Synthesis, training and evidence use only environments `env check`
// accepted: a rejected one (flaky tests, a broken suite) made tasks whose
// reference fix failed and that an empty change passed. --force overrides,
// loudly; its tests seen flaky are still never labels (LoadedEnv.flaky).
import type { LoadedEnv } from '../env/load.js';
import type { Store } from '../store/store.js';
import { StateError } from '../util/errors.js';

/** Why an environment may not be used, or null: starters are trusted until a check says otherwise. */
function problem(env: LoadedEnv, checks: ReturnType<Store['latestChecks']>): string | null {
  const check = checks.get(env.spec.name);
  if (!check) return env.builtin ? null : `"${env.spec.name}" has not been checked`;
  if (check.accepted) return null;
  const reasons = Array.isArray(check.summary.reasons) ? check.summary.reasons.map(String) : [];
  const first = reasons[0]?.split('\n')[0] ?? 'no reason recorded';
  return `"${env.spec.name}" was rejected by env check (${check.checkedAt.slice(0, 16).replace('T', ' ')}): ${first}`;
}

/**
 * Refuses environments that are not accepted, unless `force`; with it, says
 * which are used anyway. `command` names the caller in the message.
 */
export function gateEnvironments(store: Store, envs: LoadedEnv[], opts: { command: string; force: boolean; warn: (line: string) => void }): void {
  const checks = store.latestChecks();
  const problems = envs.map((e) => [e, problem(e, checks)] as const).filter((x): x is readonly [LoadedEnv, string] => x[1] !== null);
  if (problems.length && !opts.force) {
    const names = problems.map(([e]) => e.spec.name);
    throw new StateError(
      `${opts.command} uses only environments env check accepted: ${problems.map(([, p]) => p).join('; ')}`,
      `run frognano env check ${names.join(' ')} (after fixing what it names), leave ${names.length > 1 ? 'them' : 'it'} out, or pass --force to use ${names.length > 1 ? 'them' : 'it'} anyway`,
    );
  }
  for (const [, p] of problems)
    opts.warn(`WARNING: --force: ${p}; using it anyway. Its tasks may be unsound: a test seen flaky is never a label, but one not yet seen flaky can be.`);
}

/** The environments `--env all` means: every one the gate lets through, the others named on stderr. */
export function usableEnvironments(store: Store, envs: LoadedEnv[], note: (line: string) => void): LoadedEnv[] {
  const checks = store.latestChecks();
  const left = envs.filter((e) => problem(e, checks) !== null);
  if (left.length) note(`left out of all (not accepted by env check): ${left.map((e) => e.spec.name).join(', ')}`);
  return envs.filter((e) => !left.includes(e));
}
