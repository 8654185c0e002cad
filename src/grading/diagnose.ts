// Why a suite could not run: the first error in a run's output that explains
// it (a collection error, an import error, a missing generated file, an
// undeclared dependency), and the one change that would fix it where one is
// known. `env check` quotes it in a rejection; `env scan` names its class.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../util/guards.js';

export type Cause =
  | 'generated-module'
  | 'missing-dependency'
  | 'undeclared-dependency'
  | 'missing-plugin'
  | 'syntax-error'
  | 'runtime-version'
  | 'module-format'
  | 'typescript-error'
  | 'other-error';

export interface Explanation {
  cause: Cause;
  /** The error line as the runner printed it (trimmed, at most 300 characters). */
  error: string;
  /** The flag or setup step that would fix it, where one is known. */
  fix?: string;
}

/** At most this much of a run's output is searched. */
const MAX_SCAN = 1024 * 1024;

const cut = (s: string) => s.trim().slice(0, 300);

/** True when the repository has a module or package of this top-level name (at its root or under src/). */
function ownModule(root: string, name: string): boolean {
  return ['', 'src/', 'lib/'].some((d) => existsSync(join(root, `${d}${name}`)) || existsSync(join(root, `${d}${name}.py`)));
}

/** package.json's dependency and script tables, each a name → value map (empty where absent or unreadable). */
function packageJson(root: string): Record<string, Record<string, string>> {
  try {
    const raw: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    if (!isRecord(raw)) return {};
    const out: Record<string, Record<string, string>> = {};
    for (const key of ['scripts', 'dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      const table = raw[key];
      if (isRecord(table)) out[key] = Object.fromEntries(Object.entries(table).map(([k, v]) => [k, String(v)]));
    }
    return out;
  } catch {
    return {};
  }
}

type Rule = { re: RegExp; explain: (m: RegExpExecArray, root: string) => Explanation };

const pyMissing = (m: RegExpExecArray, root: string): Explanation => {
  const name = m[1]!;
  const top = name.split('.')[0]!;
  if (ownModule(root, top)) {
    return {
      cause: 'generated-module',
      error: cut(m[0]),
      fix: `${name} is part of this repository but not committed (a file its build generates, such as a version module): commit it, or generate it in the test command (--test-command "<generate> && python -m pytest ..." with --report)`,
    };
  }
  return {
    cause: 'missing-dependency',
    error: cut(m[0]),
    fix: `declare ${top} in the project's test dependencies (requirements*.txt, or pyproject's test extra or dependency group) so env add installs it; a package found only on PyPI cannot be installed where PyPI is out of reach`,
  };
};

const jsMissing = (m: RegExpExecArray, root: string): Explanation => {
  const name = m[1]!;
  if (/^(\.|\/)/.test(name)) {
    const build = packageJson(root).scripts?.build;
    return {
      cause: 'generated-module',
      error: cut(m[0]),
      fix: build
        ? `the tests load a file the project's build makes (npm run build: ${build}), and it is not committed: build before testing, e.g. --test-command "npm run build && npm test" with --report`
        : 'the tests load a file that is not committed: commit it or generate it in the test command',
    };
  }
  const pkg = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]!;
  const pj = packageJson(root);
  const declared = [pj.dependencies, pj.devDependencies, pj.peerDependencies, pj.optionalDependencies].some((d) => d && pkg in d);
  return declared
    ? {
        cause: 'missing-dependency',
        error: cut(m[0]),
        fix: `${pkg} is declared but was not installed: check the dependency layer's install log (env check --json)`,
      }
    : { cause: 'undeclared-dependency', error: cut(m[0]), fix: `the project uses ${pkg} without declaring it: add it to package.json's devDependencies` };
};

// Specific causes first; the first rule with a match wins, then the earliest match.
const RULES: Rule[] = [
  { re: /(?:ModuleNotFoundError|ImportError): No module named '?([\w.]+)'?/, explain: pyMissing },
  {
    re: /'(ts-node|@swc\/core|esbuild-register)' is required for the TypeScript configuration files/,
    explain: (m) => ({
      cause: 'undeclared-dependency',
      error: cut(m[0]),
      fix: `the runner reads a TypeScript config with ${m[1]}, which the project does not declare: add ${m[1]} to package.json's devDependencies`,
    }),
  },
  { re: /Cannot find (?:module|package) '([^']+)'/, explain: jsMissing },
  {
    re: /error: unrecognized arguments: (.+)/,
    explain: (m) => ({
      cause: 'missing-plugin',
      error: cut(m[0]),
      fix: `pytest was given options (${cut(m[1]!)}) of a plugin that is not installed, usually through addopts: declare the plugin (pytest-cov for --cov) in the test dependencies, or override addopts: --test-command "python -m pytest -o addopts=''"`,
    }),
  },
  {
    re: /^E?\s*(ImportError: cannot import name .+)$/m,
    explain: (m) => ({
      cause: 'missing-dependency',
      error: cut(m[1]!),
      fix: 'an installed package is not the version the project needs: pin it in the test dependencies',
    }),
  },
  {
    re: /SyntaxError: Cannot use import statement outside a module|ERR_REQUIRE_ESM|require\(\) of ES Module/,
    explain: (m) => ({
      cause: 'module-format',
      error: cut(m[0]),
      fix: 'the runner loads an ES module as CommonJS: the runner or its config needs ESM support',
    }),
  },
  {
    re: /node: bad option: \S+|Python 3\.\d+ or (?:later|newer) is required/,
    explain: (m) => ({ cause: 'runtime-version', error: cut(m[0]), fix: `the tests need a newer runtime than this machine's (Node ${process.versions.node})` }),
  },
  { re: /^.*\berror TS\d+: .+$|TSError: .+/m, explain: (m) => ({ cause: 'typescript-error', error: cut(m[0]) }) },
  {
    re: /^E?\s*(SyntaxError: .+)$/m,
    explain: (m) => ({ cause: 'syntax-error', error: cut(m[1]!), fix: 'the code needs another language version than this machine has' }),
  },
];

const GENERIC = /^\s*(?:E\s+)?((?:[A-Z]\w*)?(?:Error|Exception)(?: \[\w+\])?: .+)$/m;

/**
 * The explanation of a failed or broken run from its output (`texts`: the
 * runner's output, then failing tests' messages), read against the
 * repository at `root`; null when nothing in them looks like an error.
 */
export function explainFailure(texts: string[], root: string): Explanation | null {
  const text = texts.join('\n').slice(0, MAX_SCAN);
  // A collection error's own lines come first where pytest shows them.
  const collecting = /_{3,} ERROR collecting (\S+) _{3,}\n([\s\S]*?)(?=\n_{3,}|\n={3,}|$)/.exec(text);
  const scope = collecting ? [collecting[2]!, text] : [text];
  for (const part of scope) {
    for (const rule of RULES) {
      const m = rule.re.exec(part);
      if (m) return rule.explain(m, root);
    }
  }
  const g = GENERIC.exec(text);
  return g ? { cause: 'other-error', error: cut(g[1]!) } : null;
}

const ERROR_LINE =
  /Error\b|Exception\b|bad option|Cannot find (?:module|package)|unrecognized arguments|is required for the TypeScript|ERR_REQUIRE_ESM|require\(\) of ES Module/;

/**
 * The lines of a run's output that may explain a failure, kept with the run
 * (its tail alone often misses them): pytest's first collection error and
 * the first error-looking lines, bounded in count and length.
 */
export function errorExcerpt(output: string): string | undefined {
  const text = output.slice(0, MAX_SCAN);
  const parts: string[] = [];
  const collecting = /_{3,} ERROR collecting \S+ _{3,}\n[\s\S]*?(?=\n_{3,}|\n={3,}|$)/.exec(text);
  if (collecting) parts.push(collecting[0].slice(0, 4000));
  let n = 0;
  for (const line of text.split('\n')) {
    if (!ERROR_LINE.test(line)) continue;
    parts.push(line.slice(0, 300));
    if (++n >= 12) break;
  }
  return parts.length ? parts.join('\n') : undefined;
}

/** The explanation as the lines of a rejection. */
export function explanationLines(e: Explanation): string {
  return `first error: ${e.error}${e.fix ? `\n  fix: ${e.fix}` : ''}`;
}
