import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { NODE_LLAMA_CPP } from '../../src/model/llama-runtime.js';

const missing = await import(NODE_LLAMA_CPP).then(
  () => undefined,
  () => 'node-llama-cpp is not installed (the default install leaves it out)',
);

describe('the node-llama-cpp API surface declared in src/model/llama-api.ts', { skip: missing }, () => {
  it('is what the installed package provides (tsc on tests/model/llama-api/conformance.ts)', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', 'tests/model/llama-api'], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
