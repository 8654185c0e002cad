// The non-test source files of an environment snapshot that generators may change.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentSpec } from '../env/spec.js';
import { matchesAny } from '../util/glob.js';
import { languageOf, type SyntaxLanguage } from '../util/syntax.js';
import { walkFiles } from '../util/walk.js';

export interface SourceFile {
  rel: string;
  lang: SyntaxLanguage;
  text: string;
}

// Beyond the walk's skipped folders (dependencies, build output, hidden ones),
// folders of tooling no test exercises: a bug planted in a release script or a
// benchmark fails no test (jshttp/statuses: eight of nine non-test files were
// scripts/, and every candidate was rejected).
const TOOLING_DIRS = new Set(['scripts', 'script', 'bench', 'benchmark', 'benchmarks', 'examples', 'example', 'docs', 'doc']);
/** Root files that configure tools or run tasks, not library code. */
const TOOL_FILE = /^(gulpfile|gruntfile|karma\.conf|noxfile|tasks|fabfile|\.eslintrc|\.mocharc|\.prettierrc|eslint\.config)\.[\w.]+$/i;

/** Library code: a parsed language, not a test, a test harness file, a declaration or tool configuration. */
function isLibraryFile(rel: string, name: string, spec: EnvironmentSpec): boolean {
  if (!languageOf(name) || matchesAny(rel, spec.testPaths) || /(^|\/)(conftest|setup)\.py$/.test(rel)) return false;
  return !(/\.config\.[cm]?[jt]s$/.test(name) || name.endsWith('.d.ts') || (!rel.includes('/') && TOOL_FILE.test(name)));
}

export function sourceFiles(snapshot: string, spec: EnvironmentSpec): SourceFile[] {
  const rels = walkFiles(snapshot, {
    skip: (rel, name) => TOOLING_DIRS.has(name) || spec.layer.includes(rel),
    keep: (rel, e) => e.isFile() && isLibraryFile(rel, e.name, spec),
  });
  return rels.map((rel) => ({ rel, lang: languageOf(rel)!, text: readFileSync(join(snapshot, rel), 'utf8') }));
}
