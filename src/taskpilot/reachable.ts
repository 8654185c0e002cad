// The source files a project's tests can reach through their imports, read
// statically: a bug planted in a file no test imports (directly or through
// other files) fails no test, and was the largest share of rejected
// candidates on real suites (issue 53: "no test fails with the bug").
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import type { EnvironmentSpec } from '../env/spec.js';
import { matchesAny } from '../util/glob.js';
import { isRecord } from '../util/guards.js';
import { walkFiles } from '../util/walk.js';
import type { SourceFile } from './sources.js';

const JS_IMPORT = /\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)|\bfrom\s+['"]([^'"]+)['"]|\bimport\s+['"]([^'"]+)['"]/g;
const PY_FROM = /^[ \t]*from\s+([.\w]+)\s+import\s+(?:\(([^)]*)\)|([\w \t,*]+))/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]*,[ \t]*[\w.]+)*)/gm;
const JS_EXT = ['', '.js', '.ts', '.mjs', '.cjs', '.jsx', '.tsx', '.mts', '.cts'];
/** Files bigger than this are not read for imports (a bundled build, generated data). */
const MAX_READ = 2 * 1024 * 1024;

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

function read(root: string, rel: string): string {
  const path = join(root, rel);
  const st = statSync(path, { throwIfNoEntry: false });
  return st?.isFile() && st.size <= MAX_READ ? readFileSync(path, 'utf8') : '';
}

/** The file a JavaScript specifier names, relative to the root, or null (a package, or nothing here). */
function resolveJs(root: string, from: string, spec: string, self: { name?: string; main?: string }): string | null {
  let base: string;
  if (spec.startsWith('.')) base = normalize(join(dirname(from), spec));
  else if (self.name && (spec === self.name || spec.startsWith(`${self.name}/`)))
    base = spec === self.name ? (self.main ?? 'index') : spec.slice(self.name.length + 1);
  else return null;
  if (base === '.' || base === '') base = self.main ?? 'index';
  const stems = [base, base.replace(/\.[cm]?js$/, '')]; // TypeScript's ESM imports name the .js a .ts compiles to
  for (const stem of stems) {
    for (const ext of JS_EXT) if (isFile(join(root, stem + ext))) return normalize(stem + ext);
    for (const ext of JS_EXT.slice(1)) if (isFile(join(root, stem, `index${ext}`))) return normalize(join(stem, `index${ext}`));
  }
  return null;
}

/** The files a Python import names (a module and, for "from a import b", a submodule b), under the root or src/. */
function resolvePy(root: string, from: string, module: string, names: string[]): string[] {
  let path: string;
  if (module.startsWith('.')) {
    const dots = /^\.+/.exec(module)![0].length;
    let dir = dirname(from);
    for (let i = 1; i < dots; i++) dir = dirname(dir);
    path = join(dir, module.slice(dots).replaceAll('.', '/'));
  } else path = module.replaceAll('.', '/');
  const out: string[] = [];
  for (const prefix of module.startsWith('.') ? [''] : ['', 'src/']) {
    const at = normalize(prefix + path);
    const found = [`${at}.py`, join(at, '__init__.py'), ...names.map((n) => join(at, `${n}.py`))].filter((c) => isFile(join(root, c)));
    if (!found.length) continue;
    out.push(...found.map((c) => normalize(c)));
    // Importing a.b.c runs a/__init__.py and a/b/__init__.py first.
    for (let dir = dirname(at); dir !== '.' && dir !== '' && dir !== prefix.replace(/\/$/, ''); dir = dirname(dir)) {
      if (isFile(join(root, dir, '__init__.py'))) out.push(normalize(join(dir, '__init__.py')));
    }
  }
  return out;
}

function importsOf(root: string, rel: string, self: { name?: string; main?: string }): string[] {
  const text = read(root, rel);
  const out: string[] = [];
  if (rel.endsWith('.py')) {
    for (const m of text.matchAll(PY_FROM)) {
      const names = (m[2] ?? m[3] ?? '')
        .split(',')
        .map((n) => n.trim().split(/\s+/)[0]!)
        .filter((n) => /^\w+$/.test(n));
      out.push(...resolvePy(root, rel, m[1]!, names));
    }
    for (const m of text.matchAll(PY_IMPORT)) for (const mod of m[1]!.split(',')) out.push(...resolvePy(root, rel, mod.trim(), []));
  } else {
    for (const m of text.matchAll(JS_IMPORT)) {
      const r = resolveJs(root, rel, (m[1] ?? m[2] ?? m[3])!, self);
      if (r) out.push(r);
    }
  }
  return out;
}

function packageSelf(root: string): { name?: string; main?: string } {
  if (!existsSync(join(root, 'package.json'))) return {};
  try {
    const pkg: unknown = JSON.parse(read(root, 'package.json'));
    if (!isRecord(pkg)) return {};
    const main = typeof pkg.main === 'string' ? pkg.main.replace(/^\.\//, '') : undefined;
    return { ...(typeof pkg.name === 'string' ? { name: pkg.name } : {}), ...(main ? { main } : {}) };
  } catch {
    return {};
  }
}

/**
 * The library files reached from the test files through imports, or null
 * when the tests reach none of them (imports this reading cannot follow:
 * a package installed from the repository, a loader): no filter then.
 */
export function reachedByTests(snapshot: string, spec: EnvironmentSpec, sources: SourceFile[]): Set<string> | null {
  const library = new Set(sources.map((s) => s.rel));
  const self = packageSelf(snapshot);
  const tests = walkFiles(snapshot, { keep: (rel, e) => e.isFile() && /\.(py|[cm]?[jt]sx?)$/.test(e.name) && matchesAny(rel, spec.testPaths) });
  const seen = new Set<string>(tests);
  const queue = [...tests];
  const reached = new Set<string>();
  while (queue.length) {
    const rel = queue.pop()!;
    for (const dep of importsOf(snapshot, rel, self)) {
      if (seen.has(dep)) continue;
      seen.add(dep);
      if (library.has(dep)) reached.add(dep);
      queue.push(dep);
    }
  }
  return reached.size ? reached : null;
}
