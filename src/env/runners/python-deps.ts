// A Python project's dependencies: requirements files and pyproject.toml's
// dependencies, test extras and dependency groups. What the interpreter
// already has is not installed again (a project that lists pytest runs with
// the machine's own); the rest goes into a layer folder put on PYTHONPATH.
import { execFileSync } from 'node:child_process';
import { hostPython } from '../../runtime/host.js';
import { isRecord, isStringArray } from '../../util/guards.js';
import { shellQuote } from '../../util/shell.js';
import { get, type Project } from '../project.js';
import type { DependencyPlan } from './types.js';
import { systemPackagesStep } from './system-packages.js';

const REQUIREMENT_FILES = [
  'requirements.txt',
  'requirements-dev.txt',
  'requirements-test.txt',
  'requirements_test.txt',
  'test-requirements.txt',
  'requirements/test.txt',
  'requirements/dev.txt',
  'requirements/tests.txt',
];
const TEST_EXTRAS = ['test', 'tests', 'testing', 'dev'];

/** A requirement's distribution name, normalised as pip does: "Foo_Bar[x]>=1" → "foo-bar". */
export function requirementName(req: string): string | null {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(req);
  return m ? m[1]!.toLowerCase().replace(/[._-]+/g, '-') : null;
}

/** Requirement lines of a requirements file; options (-r, -e, --index-url) are not followed. */
function fromRequirementsFile(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
    .filter((l) => l && !l.startsWith('-'));
}

export function declaredRequirements(p: Project): { reqs: string[]; from: string[] } {
  const reqs: string[] = [];
  const from: string[] = [];
  for (const f of REQUIREMENT_FILES) {
    const text = p.text(f);
    if (text === null) continue;
    reqs.push(...fromRequirementsFile(text));
    from.push(f);
  }
  const pyproject = p.toml('pyproject.toml');
  const deps = get(pyproject, 'project', 'dependencies');
  if (isStringArray(deps) && deps.length) {
    reqs.push(...deps);
    from.push('pyproject.toml dependencies');
  }
  for (const table of [get(pyproject, 'project', 'optional-dependencies'), get(pyproject, 'dependency-groups')]) {
    if (!isRecord(table)) continue;
    for (const key of TEST_EXTRAS) {
      const list = table[key];
      // Dependency groups may include other groups ({ include-group = "x" }); those entries are skipped.
      if (Array.isArray(list)) {
        const strings = list.filter((x): x is string => typeof x === 'string');
        if (strings.length) {
          reqs.push(...strings);
          from.push(`pyproject.toml ${key}`);
        }
      }
    }
  }
  for (const [where, list] of [...poetryRequirements(pyproject), ...setupRequirements(p)]) {
    if (list.length === 0) continue;
    reqs.push(...list);
    from.push(where);
  }
  return { reqs: [...new Set(reqs)], from };
}

/** Poetry's tables: the dependencies (less python itself), dev-dependencies and the test groups; names only, as poetry's `^1.2` is no pip specifier. */
function poetryRequirements(pyproject: ReturnType<Project['toml']>): [string, string[]][] {
  // An optional dependency belongs to an extra the tests may not need: left to the extras' own lists.
  const names = (table: unknown) =>
    isRecord(table) ? Object.keys(table).filter((n) => n.toLowerCase() !== 'python' && !(isRecord(table[n]) && table[n].optional === true)) : [];
  const groups = get(pyproject, 'tool', 'poetry', 'group');
  return [
    ['pyproject.toml tool.poetry.dependencies', names(get(pyproject, 'tool', 'poetry', 'dependencies'))],
    ['pyproject.toml tool.poetry.dev-dependencies', names(get(pyproject, 'tool', 'poetry', 'dev-dependencies'))],
    ...TEST_EXTRAS.map((g): [string, string[]] => [`pyproject.toml tool.poetry.group.${g}`, names(isRecord(groups) ? get(groups, g, 'dependencies') : null)]),
  ];
}

/** Indented continuation lines of `key =` in `[section]` of an ini text (setup.cfg's lists). */
function cfgList(text: string, section: string, key: string): string[] {
  const out: string[] = [];
  let inSection = false;
  let inKey = false;
  for (const line of text.split(/\r?\n/)) {
    const head = /^\[([^\]]+)\]/.exec(line);
    if (head) {
      inSection = head[1]!.trim() === section;
      inKey = false;
    } else if (inSection && /^\S/.test(line)) {
      const m = /^([\w.-]+)\s*[=:]\s*(.*)$/.exec(line);
      inKey = m?.[1] === key;
      if (inKey && m![2]!.trim()) out.push(m![2]!.trim());
    } else if (inKey && line.trim() && !/^\s*[#;]/.test(line)) out.push(line.trim());
  }
  return out;
}

/** setup.cfg's install_requires, tests_require and test extras; setup.py's literal install_requires and tests_require lists. */
function setupRequirements(p: Project): [string, string[]][] {
  const cfg = p.text('setup.cfg') ?? '';
  const setupPy = p.text('setup.py') ?? '';
  const literal = (key: string) => {
    const list = new RegExp(`\\b${key}\\s*=\\s*\\[([^\\]]*)\\]`).exec(setupPy)?.[1] ?? '';
    return [...list.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  };
  return [
    ['setup.cfg install_requires', cfgList(cfg, 'options', 'install_requires')],
    ['setup.cfg tests_require', cfgList(cfg, 'options', 'tests_require')],
    ...TEST_EXTRAS.map((k): [string, string[]] => [`setup.cfg extras_require ${k}`, cfgList(cfg, 'options.extras_require', k)]),
    ['setup.py install_requires', literal('install_requires')],
    ['setup.py tests_require', literal('tests_require')],
  ];
}

/** The normalised names of the distributions the interpreter has installed. */
function installedNames(): Set<string> {
  const py = hostPython();
  if (!py) return new Set();
  try {
    const out = execFileSync(
      py.executable,
      ['-c', 'import importlib.metadata as m, json; print(json.dumps([d.metadata["Name"] or "" for d in m.distributions()]))'],
      {
        encoding: 'utf8',
        timeout: 30000,
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const names: unknown = JSON.parse(out);
    return new Set((isStringArray(names) ? names : []).map((n) => requirementName(n)).filter((n): n is string => Boolean(n)));
  } catch {
    return new Set();
  }
}

// Never imported by tests: runners of test sessions, linters, coverage and
// docs tools; and pytest plugins, which the sandbox does not autoload (their
// options are taken out of addopts).
const NOT_FOR_TESTS =
  /^((tox|nox|hatch|pdm|poetry|flit|uv|sphinx|mkdocs|myst|pre-commit|pytest)(-.*)?|hatchling|coverage|flake8.*|black|isort|mypy|ruff|pylint|pyright|bandit|codecov|twine|build|wheel|setuptools-scm|furo|check-manifest|pyroma|pypandoc|readme-renderer|covdefaults|types-.*|.*-stubs)$/;

export function pythonDependencies(p: Project, projectName?: string): DependencyPlan & { missing: string[]; from: string[] } {
  const { reqs, from } = declaredRequirements(p);
  const have = installedNames();
  const own = projectName ? requirementName(projectName) : null;
  // Markers ("; python_version < '3.8'") are left to pip; a requirement naming the project itself is the project.
  const missing = reqs.filter((r) => {
    const name = requirementName(r);
    return name !== null && name !== own && !have.has(name) && !NOT_FOR_TESTS.test(name);
  });
  const steps = [
    // Where no index answers (a machine without PyPI), the system's own packages stand in: Debian ships many as python3-*.
    ...(missing.length
      ? [
          `{python} -m pip install --quiet --disable-pip-version-check --target .pydeps ${missing.map(shellQuote).join(' ')} || ${systemPackagesStep('.pydeps', missing)}`,
        ]
      : []),
    ...metadataStep(p),
  ];
  if (steps.length === 0) return { setup: [], layer: [], env: {}, missing, from };
  return { setup: steps, layer: ['.pydeps'], env: { PYTHONPATH: '.pydeps' }, missing, from };
}

const SAFE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The project's name and version as its manifests state them (version 0.0.0 where it is computed at build time). */
function ownNameAndVersion(p: Project): { name: string; version: string } | null {
  const pyproject = p.toml('pyproject.toml');
  const cfg = p.ini('setup.cfg');
  const setupPy = p.text('setup.py') ?? '';
  const literal = (key: string) => new RegExp(`\\b${key}\\s*=\\s*['"]([^'"]+)['"]`).exec(setupPy)?.[1];
  const name = get(pyproject, 'project', 'name') ?? get(cfg, 'metadata', 'name') ?? literal('name');
  const version = get(pyproject, 'project', 'version') ?? get(cfg, 'metadata', 'version') ?? literal('version');
  if (typeof name !== 'string' || !SAFE.test(name)) return null;
  return { name, version: typeof version === 'string' && SAFE.test(version) ? version : '0.0.0' };
}

/**
 * A project whose code reads its own installed metadata (importlib.metadata,
 * pkg_resources) fails to import where it is not installed; a user would
 * `pip install -e .`. The layer gets a minimal .dist-info for it instead, so
 * the tests see the project as installed without building it.
 */
function metadataStep(p: Project): string[] {
  const reads = p
    .find((f) => f.endsWith('.py') && !/(^|\/)(tests?|testing)\//.test(f))
    .some((f) => /importlib[._]metadata|pkg_resources/.test(p.text(f) ?? ''));
  const own = reads ? ownNameAndVersion(p) : null;
  if (!own) return [];
  const dir = `.pydeps/${own.name.replace(/[-.]+/g, '_')}-${own.version}.dist-info`;
  const script = `import os; os.makedirs(${JSON.stringify(dir)}, exist_ok=True); open(${JSON.stringify(`${dir}/METADATA`)}, "w").write(${JSON.stringify(`Metadata-Version: 2.1\nName: ${own.name}\nVersion: ${own.version}\n`)})`;
  return [`{python} -c ${shellQuote(script)}`];
}
