// The non-test source files of an environment snapshot that generators may change.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { EnvironmentSpec } from '../env/spec.js';
import { matchesAny } from '../util/glob.js';
import { languageOf, type SyntaxLanguage } from '../util/syntax.js';

export interface SourceFile {
  rel: string;
  lang: SyntaxLanguage;
  text: string;
}

// Build output and dependencies, and folders of tooling no test exercises: a
// bug planted in a release script or a benchmark fails no test (jshttp/statuses:
// eight of nine non-test files were scripts/, and every candidate was rejected).
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  '__pycache__',
  'dist',
  'build',
  '.venv',
  'venv',
  'scripts',
  'script',
  'bench',
  'benchmark',
  'benchmarks',
  'examples',
  'example',
  'docs',
  'doc',
  'coverage',
  '.github',
]);
/** Root files that configure tools or run tasks, not library code. */
const TOOL_FILE = /^(gulpfile|gruntfile|karma\.conf|noxfile|tasks|fabfile|\.eslintrc|\.mocharc|\.prettierrc|eslint\.config)\.[\w.]+$/i;

export function sourceFiles(snapshot: string, spec: EnvironmentSpec): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const rel = relative(snapshot, path);
      if (statSync(path).isDirectory()) {
        if (!SKIP_DIRS.has(name) && !spec.layer.includes(rel)) walk(path);
        continue;
      }
      const lang = languageOf(name);
      if (!lang || matchesAny(rel, spec.testPaths) || /(^|\/)(conftest|setup)\.py$/.test(rel)) continue;
      if (/\.config\.[cm]?[jt]s$/.test(name) || name.endsWith('.d.ts') || (!rel.includes('/') && TOOL_FILE.test(name))) continue;
      out.push({ rel, lang, text: readFileSync(path, 'utf8') });
    }
  };
  walk(snapshot);
  return out;
}
