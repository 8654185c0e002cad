import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LoadedEnv } from '../../src/env/load.js';
import { validateSpec } from '../../src/env/spec.js';
import { tempDir } from './workspace.js';

export const RUN_ALL = `import { readdirSync } from 'node:fs';
const here = new URL('.', import.meta.url);
for (const f of readdirSync(here).filter((f) => f.endsWith('.test.js')).sort()) await import(new URL(f, here).href);
`;

/** node:test's TAP to stdout (what the agent sees) and to the report file (what grading reads), as the starters run it. */
export const NODE_TAP = ['node', '--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=tap', '--test-reporter-destination={report}'];

/** node:test cases: name → body (a statement that throws to fail). */
export function nodeTests(cases: Record<string, string>, suite = 'toy'): string {
  const body = Object.entries(cases)
    .map(([name, code]) => `  it(${JSON.stringify(name)}, async () => { ${code} });`)
    .join('\n');
  return `import { describe, it } from 'node:test';\nimport assert from 'node:assert/strict';\ndescribe(${JSON.stringify(suite)}, () => {\n${body}\n});\n`;
}

/** A JavaScript environment on disk, built from files and spec overrides. */
export function makeJsEnv(files: Record<string, string>, overrides: Record<string, unknown> = {}, name = 'toy'): LoadedEnv {
  const base = tempDir('fn-env-');
  const all = { 'package.json': '{"type":"module","private":true}\n', 'tests/run-all.js': RUN_ALL, ...files };
  for (const [rel, content] of Object.entries(all)) {
    mkdirSync(dirname(join(base, 'repo', rel)), { recursive: true });
    writeFileSync(join(base, 'repo', rel), content);
  }
  const spec = validateSpec({
    schema: 'frognano.environment/v1',
    name,
    language: 'javascript',
    source: { path: 'repo' },
    test: { command: [...NODE_TAP, 'tests/run-all.js'], report: { format: 'tap', from: 'file' } },
    testPaths: ['tests/**'],
    timeoutSec: 30,
    ...overrides,
  });
  return { spec, origin: join(base, 'environment.json'), baseDir: base, builtin: false };
}
