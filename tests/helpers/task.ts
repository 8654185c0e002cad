// Hand-made tasks on tiny environments, for verifier and agent tests: the bug,
// the fix and the test labels are written out here rather than synthesized,
// so each test knows exactly what the right answer is.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildEnvironment, type BuiltEnv } from '../../src/env/build.js';
import type { LoadedEnv } from '../../src/env/load.js';
import { validateSpec } from '../../src/env/spec.js';
import { selectRuntime } from '../../src/runtime/select.js';
import type { Runtime } from '../../src/runtime/types.js';
import { checkedLayout } from '../../src/taskpilot/grading-check.js';
import { TASK_SCHEMA, type Task } from '../../src/task/task.js';
import { fileDiff } from '../../src/util/diff.js';
import { makeJsEnv, NODE_TAP, nodeTests } from './env.js';
import { tempDir } from './workspace.js';

export const JS_SOURCE = 'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';
export const JS_BROKEN = JS_SOURCE.replace('a + b', 'a - b');
/** The toy suite: two tests of add (failing with the bug) and one of mul, importing the module inside each test. */
const toyTests = (module: string) =>
  nodeTests({
    'add sums': `const { add } = await import('${module}'); assert.equal(add(2, 3), 5);`,
    'add counts up from a negative': `const { add } = await import('${module}'); assert.equal(add(-4, 7), 3);`,
    'mul multiplies': `const { mul } = await import('${module}'); assert.equal(mul(2, 3), 6);`,
  });
const JS_TESTS = toyTests('../src/math.js');

export const PY_SOURCE = 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n';
export const PY_BROKEN = PY_SOURCE.replace('a + b', 'a - b');
const PY_TESTS =
  'from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_add_negative():\n    assert add(-4, 7) == 3\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n';

export const TS_SOURCE =
  'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function mul(a: number, b: number): number {\n  return a * b;\n}\n';
export const TS_BROKEN = TS_SOURCE.replace('a + b', 'a - b');
const TS_TESTS = toyTests('../src/math.ts');
const TS_RUN_ALL = `import { readdirSync } from 'node:fs';
const here = new URL('.', import.meta.url);
for (const f of readdirSync(here).filter((f) => f.endsWith('.test.ts')).sort()) await import(new URL(f, here).href);
`;

/**
 * TypeScript through tsx, as the json-patch starter runs: the dependency
 * layer is this project's own node_modules (read-only), so no install runs.
 */
async function typescriptEnv(dataDir: string, runtime: Runtime): Promise<BuiltEnv> {
  const env = makeJsEnv(
    { 'src/math.ts': TS_SOURCE, 'tests/math.test.ts': TS_TESTS, 'tests/run-all.ts': TS_RUN_ALL },
    {
      name: 'tstoy',
      language: 'typescript',
      layer: ['node_modules'],
      test: { command: [...NODE_TAP.slice(0, 1), '--import', 'tsx', ...NODE_TAP.slice(1), 'tests/run-all.ts'], report: { format: 'tap', from: 'file' } },
    },
    'tstoy',
  );
  const built = await buildEnvironment(env, { dataDir, runtime });
  return { ...built, layers: [{ rel: 'node_modules', host: resolve('node_modules') }] };
}

export interface ToyTask {
  task: Task;
  built: BuiltEnv;
  runtime: Runtime;
  dataDir: string;
  /** The source file holding the bug, and its right and broken contents. */
  file: string;
  right: string;
  broken: string;
}

/** A pytest environment of calc.py and tests/test_calc.py; `tests` replaces the test file's content. */
export function pythonEnv(tests = PY_TESTS): LoadedEnv {
  const base = tempDir('fn-pyenv-');
  const files: Record<string, string> = { 'calc.py': PY_SOURCE, 'tests/test_calc.py': tests, 'tests/__init__.py': '' };
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(base, 'repo', rel)), { recursive: true });
    writeFileSync(join(base, 'repo', rel), content);
  }
  const spec = validateSpec({
    schema: 'frognano.environment/v1',
    name: 'pytoy',
    language: 'python',
    source: { path: 'repo' },
    test: {
      command: ['{python}', '-m', 'pytest', '-p', 'no:cacheprovider', '-o', 'junit_family=xunit1', '--junitxml={report}', '-q', 'tests'],
      report: { format: 'junit', from: 'file' },
      env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
    },
    testPaths: ['tests/**'],
    timeoutSec: 30,
  });
  return { spec, origin: join(base, 'environment.json'), baseDir: base, builtin: false };
}

export interface ToyOptions {
  /** The failing test files are hidden from the agent. */
  hidden?: boolean;
  /** The second failing test is held back from the agent's copy of its file. */
  heldBack?: boolean;
  /** Make the graded layout (honeypots, moved pytest files) as synthesis does (default true). */
  grading?: boolean;
  runtime?: Runtime;
  /** Spec overrides for the JavaScript environment (e.g. another test command). */
  js?: Record<string, unknown>;
  /** Grade without the guard (default: with it, as synthesis checks it), to see the honeypots alone at work. */
  guard?: boolean;
}

/**
 * A task whose fix is to turn `a - b` back into `a + b`, in JavaScript or
 * Python: two failing tests of add and a passing one of mul, graded with the
 * honeypots the validator would give it.
 */
export async function toyTask(language: 'javascript' | 'typescript' | 'python', opts: ToyOptions = {}): Promise<ToyTask> {
  const runtime = opts.runtime ?? selectRuntime({ warn: () => {} });
  const js = language !== 'python';
  const dataDir = tempDir('fn-data-');
  const built =
    language === 'typescript'
      ? await typescriptEnv(dataDir, runtime)
      : await buildEnvironment(
          language === 'javascript' ? makeJsEnv({ 'src/math.js': JS_SOURCE, 'tests/math.test.js': JS_TESTS }, opts.js ?? {}) : pythonEnv(),
          { dataDir, runtime },
        );
  const env = built.env;
  const [file, right, broken] = {
    javascript: ['src/math.js', JS_SOURCE, JS_BROKEN],
    typescript: ['src/math.ts', TS_SOURCE, TS_BROKEN],
    python: ['calc.py', PY_SOURCE, PY_BROKEN],
  }[language];
  const testFile = { javascript: 'tests/math.test.js', typescript: 'tests/math.test.ts', python: 'tests/test_calc.py' }[language];
  const f2p = js ? ['toy > add sums', 'toy > add counts up from a negative'] : ['tests/test_calc.py::test_add', 'tests/test_calc.py::test_add_negative'];
  const p2p = [js ? 'toy > mul multiplies' : 'tests/test_calc.py::test_mul'];
  const bugPatch = fileDiff(file, right, broken);
  const fixPatch = fileDiff(file, broken, right);
  const grading =
    opts.grading === false
      ? undefined
      : ((await checkedLayout({ built, runtime, dataDir, bugPatch, fixPatch, f2p, p2p, reportIds: new Set([...f2p, ...p2p]), timeoutSec: 30 })) ?? undefined);
  const task: Task = {
    schema: TASK_SCHEMA,
    id: `${env.spec.name}.procedural__toy`,
    env: { name: env.spec.name, hash: built.hash, spec: env.spec },
    bugPatch,
    fixPatch,
    instruction: 'add(2, 3) returns -1 instead of 5.',
    FAIL_TO_PASS: f2p,
    PASS_TO_PASS: p2p,
    hiddenFiles: opts.hidden ? [testFile] : [],
    ...(opts.heldBack ? { heldBack: [f2p[1]!] } : {}),
    ...(grading ? { grading: opts.guard === false ? { ...grading, guard: false } : grading } : {}),
    knobs: { bugs: 1, hint: 'full', visibility: opts.hidden ? 'hidden' : 'visible', families: ['operations'] },
    provenance: { strategy: 'procedural', edits: [], seeds: [0] },
    stats: { createdAt: new Date(0).toISOString() },
  };
  return { task, built, runtime, dataDir, file, right, broken };
}

/** A task with only what stocking and probing read (no environment behind it): for tests of the curriculum's bookkeeping. */
export const bareTask = (id: string): Task =>
  ({
    id,
    env: { name: 'e' },
    bugPatch: '',
    FAIL_TO_PASS: ['t'],
    knobs: { bugs: 1, hint: 'full', visibility: 'visible', families: ['operations'] },
    provenance: { edits: [] },
  }) as unknown as Task;
