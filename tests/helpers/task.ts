// Hand-made tasks on tiny environments, for verifier and agent tests: the bug,
// the fix and the test labels are written out here rather than synthesized,
// so each test knows exactly what the right answer is.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildEnvironment, type BuiltEnv } from '../../src/env/build.js';
import type { LoadedEnv } from '../../src/env/load.js';
import { validateSpec } from '../../src/env/spec.js';
import { selectRuntime } from '../../src/runtime/select.js';
import type { Runtime } from '../../src/runtime/types.js';
import { TASK_SCHEMA, type Task } from '../../src/task/task.js';
import { fileDiff } from '../../src/util/diff.js';
import { makeJsEnv, nodeTests } from './env.js';
import { tempDir } from './workspace.js';

export const JS_SOURCE = 'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n';
export const JS_BROKEN = JS_SOURCE.replace('a + b', 'a - b');
const JS_TESTS = nodeTests({
  'add sums': "const { add } = await import('../src/math.js'); assert.equal(add(2, 3), 5);",
  'mul multiplies': "const { mul } = await import('../src/math.js'); assert.equal(mul(2, 3), 6);",
});

export const PY_SOURCE = 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n';
export const PY_BROKEN = PY_SOURCE.replace('a + b', 'a - b');
const PY_TESTS = 'from calc import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n';

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

function pythonEnv(): LoadedEnv {
  const base = tempDir('fn-pyenv-');
  const files: Record<string, string> = { 'calc.py': PY_SOURCE, 'tests/test_calc.py': PY_TESTS, 'tests/__init__.py': '' };
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
      canary: 'tests/test_zz_canary_{nonce}.py',
    },
    testPaths: ['tests/**'],
    timeoutSec: 30,
  });
  return { spec, origin: join(base, 'environment.json'), baseDir: base, builtin: false };
}

/** A task whose fix is to turn `a - b` back into `a + b`, in JavaScript or Python. */
export async function toyTask(language: 'javascript' | 'python', opts: { hidden?: boolean; runtime?: Runtime } = {}): Promise<ToyTask> {
  const runtime = opts.runtime ?? selectRuntime({ warn: () => {} });
  const js = language === 'javascript';
  const env = js
    ? makeJsEnv({ 'src/math.js': JS_SOURCE, 'tests/math.test.js': JS_TESTS }, { test: { command: ['node', '--test-reporter=tap', 'tests/run-all.js'], report: { format: 'tap', from: 'stdout' }, canary: 'tests/zz-canary-{nonce}.test.js' } })
    : pythonEnv();
  const dataDir = tempDir('fn-data-');
  const built = await buildEnvironment(env, { dataDir, runtime });
  const [file, right, broken] = js ? ['src/math.js', JS_SOURCE, JS_BROKEN] : ['calc.py', PY_SOURCE, PY_BROKEN];
  const testFile = js ? 'tests/math.test.js' : 'tests/test_calc.py';
  const task: Task = {
    schema: TASK_SCHEMA,
    id: `${env.spec.name}.procedural__toy`,
    env: { name: env.spec.name, hash: built.hash, spec: env.spec },
    bugPatch: fileDiff(file, right, broken),
    fixPatch: fileDiff(file, broken, right),
    instruction: 'add(2, 3) returns -1 instead of 5.',
    FAIL_TO_PASS: [js ? 'toy > add sums' : 'tests/test_calc.py::test_add'],
    PASS_TO_PASS: [js ? 'toy > mul multiplies' : 'tests/test_calc.py::test_mul'],
    hiddenFiles: opts.hidden ? [testFile] : [],
    knobs: { bugs: 1, hint: 'full', visibility: opts.hidden ? 'hidden' : 'visible', families: ['operations'] },
    provenance: { strategy: 'procedural', edits: [], seeds: [0] },
    stats: { createdAt: new Date(0).toISOString() },
  };
  return { task, built, runtime, dataDir, file, right, broken };
}
