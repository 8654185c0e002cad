// What of an agent's diff the verifier accepts: changes to source files only.
// Tests, runner configuration, interpreter start-up hooks, git internals and
// symbolic links are dropped (with the reason), so nothing the agent does to
// how tests are found, run or judged can count.
import { matchesAny } from '../util/glob.js';

/** Files that steer a test runner or an interpreter, wherever tests live. */
export const RUNNER_FILES: readonly string[] = [
  '**/conftest.py',
  '**/pytest.ini',
  '**/pytest.toml',
  '**/tox.ini',
  '**/setup.cfg',
  '**/pyproject.toml',
  '**/setup.py',
  '**/sitecustomize.py',
  '**/usercustomize.py',
  '**/*.pth',
  '**/__pycache__/**',
  '**/*.pyc',
  '**/package.json',
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/.npmrc',
  '**/tsconfig*.json',
  '**/*.config.js',
  '**/*.config.cjs',
  '**/*.config.mjs',
  '**/*.config.ts',
  '**/.mocharc*',
  '**/.babelrc*',
  '**/node_modules/**',
  '**/.git/**',
  '.git',
  '**/.*',
];

export interface DroppedChange {
  file: string;
  reason: string;
}

export interface AcceptedChanges {
  /** The part of the diff that will be applied. */
  patch: string;
  files: string[];
  dropped: DroppedChange[];
  /** Kept files whose change is binary: a change the verifier refuses. */
  binary: string[];
}

/** Why a path may not be changed by the agent, or null when it may. */
export function protectedReason(path: string, testPaths: string[], hiddenFiles: string[] = []): string | null {
  if (path.split('/').some((seg) => seg === '..' || seg === '')) return 'the path leaves the repository';
  if (hiddenFiles.includes(path) || matchesAny(path, testPaths)) return 'a test file';
  if (matchesAny(path, RUNNER_FILES)) return 'runner or interpreter configuration';
  return null;
}

/** Undoes git's C-style quoting of a path ("a/x\\ty" -> a/x<TAB>y); null when it cannot. */
function unquote(p: string): string | null {
  if (!p.startsWith('"')) return p;
  try {
    const path: unknown = JSON.parse(p.replace(/\\([0-7]{3})/g, (_, o: string) => `\\u00${parseInt(o, 8).toString(16).padStart(2, '0')}`));
    return typeof path === 'string' ? path : null;
  } catch {
    return null;
  }
}

/** Every path one file section of a git diff touches. */
function sectionPaths(section: string): (string | null)[] {
  const paths: (string | null)[] = [];
  for (const line of section.split('\n')) {
    let m = /^(?:rename|copy) (?:from|to) (.*)$/.exec(line);
    if (m) paths.push(unquote(m[1]!));
    m = /^(?:---|\+\+\+) (.*)$/.exec(line);
    if (m && m[1] !== '/dev/null') {
      const p = unquote(m[1]!.replace(/\t.*$/, ''));
      paths.push(p && /^[ab]\//.test(p) ? p.slice(2) : null);
    }
    if (line.startsWith('@@') || line.startsWith('GIT binary patch')) break;
  }
  const header = /^diff --git (.*)$/m.exec(section)?.[1] ?? '';
  const plain = /^a\/(.*) b\/(.*)$/.exec(header);
  if (plain && !header.includes('"')) paths.push(plain[1]!, plain[2]!);
  else if (paths.length === 0) paths.push(null);
  return paths;
}

/** Splits an agent's git diff and keeps only the sections it may make. */
export function acceptChanges(diff: string, testPaths: string[], hiddenFiles: string[] = []): AcceptedChanges {
  const sections = diff.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '));
  const kept: string[] = [];
  const files: string[] = [];
  const dropped: DroppedChange[] = [];
  const binary: string[] = [];
  for (const section of sections) {
    const paths = sectionPaths(section);
    const name = paths.find((p): p is string => !!p) ?? '(unreadable path)';
    let reason: string | null = null;
    if (/^(?:new|deleted) file mode 120000|^(?:old|new) mode 120000|^index \w+\.\.\w+ 120000/m.test(section)) reason = 'a symbolic link';
    else if (paths.some((p) => p === null)) reason = 'a path that could not be read safely';
    else for (const p of paths) reason ??= protectedReason(p!, testPaths, hiddenFiles);
    if (reason) dropped.push({ file: name, reason });
    else {
      kept.push(section);
      if (!files.includes(name)) files.push(name);
      if (/^(?:GIT binary patch|Binary files .* differ)$/m.test(section)) binary.push(name);
    }
  }
  return { patch: kept.join(''), files, dropped, binary };
}
