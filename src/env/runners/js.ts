// JavaScript and TypeScript projects: the runner named by the project's test
// script, else by its config files, else by its dependencies, else node:test
// when test files import it. Runners are called through node_modules/.bin
// (Node follows the link to the runner's own script, whatever its version
// keeps it in), never through `npm test`, which may also lint or build.
import { globToRegExp } from '../../util/glob.js';
import { isRecord } from '../../util/guards.js';
import { get, type Config, type Project } from '../project.js';
import { isJsRunner, JS_RUNNER_NAMES, JS_RUNNERS, keptArgs, type JsRunner, type JsRunnerName } from './js-runners.js';
import type { RunnerPlan } from './types.js';

export type { JsRunnerName };

const WRAPPERS: Record<string, JsRunnerName> = { 'kcd-scripts': 'jest', 'react-scripts': 'jest', 'ts-scripts': 'vitest' };

/** The runner a command's words call, and its arguments: ["npx", "mocha", "test/"] → mocha, ["test/"]. */
export function runnerInWords(input: string[]): { runner: JsRunnerName; args: string[] } | null {
  const words = [...input];
  // Wrappers that start the real command: c8, nyc, cross-env VAR=1, npx, env assignments.
  while (words.length && /^(npx|pnpx|bunx|pnpm|yarn|exec|dlx|c8|nyc|cross-env|dotenv|env|--|-[\w-]+(=\S*)?|\w+=\S*)$/.test(words[0]!)) words.shift();
  // Toolkits whose `test` command is a runner they depend on.
  const wrapped = words[1] === 'test' ? WRAPPERS[words[0] ?? ''] : undefined;
  if (wrapped) return { runner: wrapped, args: words.slice(2) };
  if (words[0] === 'node' || words[0] === 'tsx') {
    if (words.includes('--test')) return { runner: 'node-test', args: words.slice(1) };
    words.shift();
  }
  const bin = (words[0] ?? '').replace(/^.*node_modules\/\.bin\//, '').replace(/^.*node_modules\/([\w@/.-]+?)\/(bin|dist|entrypoints)\/.*$/, '$1');
  const runner = JS_RUNNER_NAMES.find((r) => JS_RUNNERS[r].bins.includes(bin));
  return runner ? { runner, args: words.slice(1) } : null;
}

// Steps a test script runs before its runner that the tests need: compiling.
// Lints, formatters, type checks (tsc --noEmit, tsd) and size checks are left out.
const BUILD_STEP =
  /^(tsc\b(?!.*--noEmit)|tshy\b|babel\b|rollup\b|tsup\b|esbuild\b|webpack\b|unbuild\b|microbundle\b|pkgroll\b|vite build\b|swc\b|node \S*build\S*|(npm|yarn|pnpm)( run)? (build|compile|prepare)[\w:-]*$)/;

/**
 * What a package script runs: "tsc && mocha test/*.js && eslint ." → mocha
 * with ["test/*.js"], and the build steps before it (["tsc"]).
 */
export function runnerInScript(script: string): { runner: JsRunnerName; args: string[]; before: string[] } | null {
  const before: string[] = [];
  for (const part of script.split(/&&|\|\|?|;/).map((x) => x.trim())) {
    const found = runnerInWords(
      part
        .split(/\s+/)
        .filter(Boolean)
        .map((a) => a.replace(/^(['"])(.*)\1$/, '$2')),
    );
    if (found) return { ...found, before };
    if (BUILD_STEP.test(part)) before.push(part);
  }
  return null;
}

function dependencies(pkg: Config | null): Record<string, unknown> {
  return { ...(isRecord(pkg?.dependencies) ? pkg.dependencies : {}), ...(isRecord(pkg?.devDependencies) ? pkg.devDependencies : {}) };
}

/** The runner and why: the test script (one level of `npm run x` followed), config files, dependencies, imports. */
export function detectJsRunner(p: Project): { runner: JsRunnerName; args: string[]; before?: string[]; evidence: string } | null {
  const pkg = p.json('package.json');
  const scripts = isRecord(pkg?.scripts) ? pkg.scripts : {};
  const test = typeof scripts.test === 'string' ? scripts.test : '';
  const followed = test.replace(/\b(?:npm run|yarn run|pnpm run|yarn|pnpm)\s+([\w:-]+)/g, (m, name: string) =>
    typeof scripts[name] === 'string' && name !== 'test' ? scripts[name] : m,
  );
  // npm runs a pretest script before the test script: a build there is needed too.
  const pretest = typeof scripts.pretest === 'string' && BUILD_STEP.test(scripts.pretest.trim()) ? [scripts.pretest.trim()] : [];
  const fromScript = runnerInScript(followed);
  if (fromScript) {
    const before = [...pretest, ...fromScript.before];
    return { ...fromScript, before, evidence: `package.json scripts.test runs ${fromScript.runner}${before.length ? ` after ${before.join(' && ')}` : ''}` };
  }
  const deps = dependencies(pkg);
  for (const name of JS_RUNNER_NAMES) {
    const r = JS_RUNNERS[name];
    const config =
      r.configFiles.find((f) => p.exists(f)) ?? (r.packageKey && get(pkg, r.packageKey) !== undefined ? `package.json "${r.packageKey}"` : undefined);
    if (config && deps[r.pkg] !== undefined) return { runner: name, args: [], evidence: `${config} and a ${r.pkg} dependency` };
  }
  for (const name of JS_RUNNER_NAMES) {
    const r = JS_RUNNERS[name];
    if (r.pkg && deps[r.pkg] !== undefined) return { runner: name, args: [], evidence: `a ${r.pkg} dependency` };
  }
  const imports = p.find((f) => /\.[cm]?[jt]sx?$/.test(f) && !f.endsWith('.d.ts')).slice(0, 400);
  const nodeTest = imports.find((f) => /from\s+['"]node:test['"]|require\(\s*['"]node:test['"]\s*\)/.test(p.text(f) ?? ''));
  if (nodeTest) return { runner: 'node-test', args: [], evidence: `${nodeTest} imports node:test` };
  return null;
}

/** Globs of a JavaScript project's test files: the usual folders and name patterns, and the paths its test script names. */
export function jsTestPaths(p: Project, args: string[]): string[] {
  const dirs = ['test', 'tests', '__tests__', 'spec'].filter((d) => p.exists(d)).map((d) => `${d}/**`);
  // A single test file at the root (test.js, test.ts) is a common convention of small packages.
  const root = p.find((f) => /^test\.[cm]?[jt]sx?$/.test(f));
  // Snapshots are expected values too: an agent must not rewrite them.
  const named = ['**/*.test.*', '**/*.spec.*', '**/__tests__/**', '**/__snapshots__/**', 'tap-snapshots/**'].filter(
    (g) => p.find((f) => globToRegExp(g).test(f)).length,
  );
  const given = args
    .filter((a) => !a.startsWith('-') && /[*/]|\.[cm]?[jt]sx?$/.test(a))
    .map((a) => a.replace(/^\.\//, ''))
    .map((a) => (/[*]|\.[cm]?[jt]sx?$/.test(a) ? a : `${a.replace(/\/+$/, '')}/**`));
  const found = [...new Set([...dirs, ...root, ...named, ...given])];
  return found.length ? found : ['test/**', 'tests/**', '**/*.test.*', '**/*.spec.*', '**/__tests__/**'];
}

export function jsRunner(p: Project, asked?: string, given?: string[]): RunnerPlan | null {
  const forced = isJsRunner(asked) ? asked : undefined;
  const found = forced ? { runner: forced, args: given ?? [], evidence: given ? '--test-command' : '--runner' } : detectJsRunner(p);
  if (!found) return null;
  const r: JsRunner = JS_RUNNERS[found.runner];
  const args = keptArgs(found.args, r.drop);
  const made = r.build(args, p);
  const before = 'before' in found ? (found.before ?? []) : [];
  // A build the tests need runs before every test run, so an agent's change to the sources reaches them.
  const command = before.length ? ['sh', '-c', `${before.join(' && ')} && exec "$0" "$@"`, ...made.command] : made.command;
  return { ...made, command, runner: found.runner, testPaths: jsTestPaths(p, args), evidence: found.evidence };
}
