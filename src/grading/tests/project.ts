// The project's test files as they are in an environment's snapshot, parsed
// once per process: pytest and Jest ids name their file, TAP ids (suite
// paths) may come from any JavaScript or TypeScript file under the test paths.
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentSpec } from '../../env/spec.js';
import { matchesAny } from '../../util/glob.js';
import { languageOf } from '../../util/syntax.js';
import { walkFiles } from '../../util/walk.js';
import { idStyle, readTestFile, type TestFile } from './defs.js';

/** Bounds on what is read: test files are the project's, but a repository can be large. */
export const MAX_TEST_FILES = 400;
export const MAX_TEST_FILE_BYTES = 1024 * 1024;

const parsed = new Map<string, Promise<TestFile | null>>();

function readOne(snapshot: string, rel: string): Promise<TestFile | null> {
  const key = `${snapshot}\0${rel}`;
  let p = parsed.get(key);
  if (!p) {
    if (parsed.size > 5000) parsed.clear();
    p = (async () => {
      const path = join(snapshot, rel);
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (!st?.isFile() || st.size > MAX_TEST_FILE_BYTES) return null;
      return readTestFile(rel, readFileSync(path, 'utf8'));
    })();
    parsed.set(key, p);
  }
  return p;
}

/** Files under the spec's test paths that `keep` accepts, in path order, at most `max`. */
function testPathFiles(snapshot: string, spec: EnvironmentSpec, keep: (rel: string) => boolean, max: number): string[] {
  return walkFiles(snapshot, {
    skip: (rel) => spec.layer.includes(rel),
    keep: (rel) => matchesAny(rel, spec.testPaths) && keep(rel),
    maxFiles: max,
  });
}

const inUse = new Map<string, string[]>();

/**
 * Every file of the snapshot: names a new test file must not take (a fresh
 * set each call; snapshots never change). Not only test files: where tests
 * lie among the modules, a fresh test name could be a module's.
 */
export function testPathsInUse(snapshot: string, spec: EnvironmentSpec): Set<string> {
  let paths = inUse.get(snapshot);
  if (!paths) {
    if (inUse.size > 100) inUse.clear();
    paths = testPathFiles(snapshot, { ...spec, testPaths: ['**'] }, () => true, 50_000);
    inUse.set(snapshot, paths);
  }
  return new Set(paths);
}

/** The parsed test files that can define `ids`. */
export async function projectTestFiles(snapshot: string, spec: EnvironmentSpec, ids: readonly string[]): Promise<TestFile[]> {
  const style = idStyle(spec.test.report.format, spec.language);
  // pytest ids start with their file; JavaScript ids may (Jest, node-tap, mocha) or may not (tape, node:test).
  const named = ids.map((id) => (style === 'pytest' ? id.split('::')[0]! : id.split(' > ')[0]!));
  const rels =
    style === 'pytest' || (named.length > 0 && named.every((r) => languageOf(r) !== null))
      ? named
      : testPathFiles(snapshot, spec, (rel) => languageOf(rel) !== null, MAX_TEST_FILES);
  const unique = [...new Set(rels)].filter((r) => r && !r.startsWith('/') && !r.split('/').includes('..')).slice(0, MAX_TEST_FILES);
  const files = await Promise.all(unique.map((rel) => readOne(snapshot, rel)));
  return files.filter((f): f is TestFile => f !== null);
}

/** Every parsed test file under the spec's test paths (at most MAX_TEST_FILES). */
export async function allTestFiles(snapshot: string, spec: EnvironmentSpec): Promise<TestFile[]> {
  const rels = testPathFiles(snapshot, spec, (rel) => languageOf(rel) !== null, MAX_TEST_FILES);
  return (await Promise.all(rels.map((rel) => readOne(snapshot, rel)))).filter((f): f is TestFile => f !== null);
}
