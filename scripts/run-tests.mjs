// Runs the tests through Node's built-in runner (via tsx): test files run in
// parallel processes, each file's tests in order. Node 20's `--test` does not
// expand globs or find .ts files, so the files are listed here.
//
//   node scripts/run-tests.mjs [--e2e | --all] [--concurrency N] [FILTER]
//
// By default it runs every file but the end-to-end ones below (npm test);
// --e2e runs only those (npm run test:e2e), --all both. CI runs both.
import { availableParallelism } from 'node:os';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

/** The slowest end-to-end files: whole training runs on a real queue, in a browser, through the evidence protocol or a language-model engine, and a real npm install of every test runner. */
export const E2E = [
  'tests/serve/dashboard-e2e.test.ts',
  'tests/env/runners-real.test.ts',
  'tests/queue/train-queue.test.ts',
  'tests/queue/workers.test.ts',
  'tests/queue/lm-queue.test.ts',
  'tests/cli/evidence.test.ts',
  'tests/evidence/failures.test.ts',
  'tests/evidence/lm-evidence.test.ts',
  'tests/lm/train-tinker.test.ts',
  'tests/cli/lm.test.ts',
];

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const { values, positionals } = parseArgs({
  options: { e2e: { type: 'boolean' }, all: { type: 'boolean' }, concurrency: { type: 'string' } },
  allowPositionals: true,
});
const filter = positionals[0];
// Most of a test's time is spent waiting on sandboxed processes: one more file than cores keeps both busy.
const concurrency = Number(values.concurrency ?? process.env.FROGNANO_TEST_CONCURRENCY ?? availableParallelism() + 1);
const files = find('tests')
  .filter((f) => values.all || filter || (values.e2e ? E2E.includes(f) : !E2E.includes(f)))
  .filter((f) => !filter || f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`run-tests: no test file matches ${JSON.stringify(filter)}`);
  process.exit(1);
}
const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
