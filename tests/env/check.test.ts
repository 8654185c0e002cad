import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildEnvironment } from '../../src/env/build.js';
import { checkEnvironment } from '../../src/grading/env-check.js';
import { LocalRuntime } from '../../src/runtime/local.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { makeJsEnv, nodeTests } from '../helpers/env.js';
import { tempDir } from '../helpers/workspace.js';

const runtime = selectRuntime({ warn: () => {} });
const passing = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`case ${i}`, `assert.equal(${i} + 1, ${i + 1});`]));

describe('env check', () => {
  it('accepts a healthy environment and reports per-test stability and timing', async () => {
    const env = makeJsEnv({ 'tests/a.test.js': nodeTests(passing(5)) });
    const r = await checkEnvironment(env, { dataDir: tempDir(), runtime });
    assert.equal(r.accepted, true, r.reasons.join('\n'));
    assert.equal(r.total, 5);
    assert.equal(r.passed, 5);
    assert.equal(r.runMs.length, 2);
    assert.ok(r.tests.every((t) => t.statuses.join() === 'passed,passed' && !t.flaky));
  });

  it('rejects an environment where under 80% of tests pass, saying so', async () => {
    const cases = { ...passing(7), bad1: 'assert.ok(false);', bad2: 'assert.ok(false);', bad3: 'assert.ok(false);' };
    const r = await checkEnvironment(makeJsEnv({ 'tests/a.test.js': nodeTests(cases) }), { dataDir: tempDir(), runtime });
    assert.equal(r.accepted, false);
    assert.match(r.reasons.join('\n'), /only 7 of 10 tests pass \(70%\)/);
  });

  it('rejects a flaky test, naming it', async () => {
    // The local runtime shares the host file system, which lets the test keep a counter across runs.
    const counter = join(tempDir(), 'count');
    const flaky = `const fs = await import('node:fs'); const n = fs.existsSync(${JSON.stringify(counter)}) ? 1 : 0; fs.writeFileSync(${JSON.stringify(counter)}, 'x'); assert.equal(n, 0);`;
    const env = makeJsEnv({ 'tests/a.test.js': nodeTests({ ...passing(4), 'sometimes fails': flaky }) });
    const r = await checkEnvironment(env, { dataDir: tempDir(), runtime: new LocalRuntime() });
    assert.equal(r.accepted, false);
    assert.equal(r.flaky, 1);
    assert.match(r.reasons.join('\n'), /flaky.*toy > sometimes fails \(passed then failed\)/);
  });

  it('treats a run with no sign that tests ran as an infrastructure failure', async () => {
    const env = makeJsEnv({}, { test: { command: ['node', '-e', 'console.log("all good!")'], report: { format: 'tap', from: 'stdout' } } });
    const r = await checkEnvironment(env, { dataDir: tempDir(), runtime });
    assert.equal(r.accepted, false);
    assert.match(r.reasons.join('\n'), /not a TAP report/);
  });

  it('rejects runs whose exit code disagrees with the report', async () => {
    const env = makeJsEnv(
      { 'tests/a.test.js': nodeTests(passing(3)) },
      { test: { command: ['sh', '-c', 'node --test-reporter=tap tests/run-all.js; exit 1'], report: { format: 'tap', from: 'stdout' } } },
    );
    const r = await checkEnvironment(env, { dataDir: tempDir(), runtime });
    assert.equal(r.accepted, false);
    assert.match(r.reasons.join('\n'), /exited 1 but its report shows no failure/);
  });

  it('rejects a suite that exceeds its timeout', async () => {
    const env = makeJsEnv({ 'tests/a.test.js': nodeTests({ slow: 'await new Promise((r) => setTimeout(r, 60000));' }) }, { timeoutSec: 1 });
    const started = Date.now();
    const r = await checkEnvironment(env, { dataDir: tempDir(), runtime });
    assert.equal(r.accepted, false);
    assert.match(r.reasons.join('\n'), /exceeded 1 s/);
    assert.ok(Date.now() - started < 15000);
  });

  it('reports a failing setup step with its output', async () => {
    const env = makeJsEnv({ 'tests/a.test.js': nodeTests(passing(2)) }, { setup: ['echo preparing; exit 7'], layer: ['deps'] });
    const r = await checkEnvironment(env, { dataDir: tempDir(), runtime });
    assert.equal(r.accepted, false);
    assert.match(r.reasons.join('\n'), /setup step "echo preparing; exit 7" exited 7:[\s\S]*preparing/);
  });

  it('builds the dependency layer once and mounts it read-only', async () => {
    const env = makeJsEnv(
      { 'tests/a.test.js': nodeTests({ 'reads the layer': "const m = await import('../deps/v.js'); assert.equal(m.v, 7);" }) },
      { setup: ["mkdir -p deps && echo 'export const v = 7;' > deps/v.js"], layer: ['deps'] },
    );
    const dataDir = tempDir();
    const first = await buildEnvironment(env, { dataDir, runtime });
    const second = await buildEnvironment(env, { dataDir, runtime });
    assert.equal(first.built, true);
    assert.equal(second.built, false);
    const r = await checkEnvironment(env, { dataDir, runtime });
    assert.equal(r.accepted, true, r.reasons.join('\n'));
    if (runtime.isolated) {
      const ws = await Workspace.create({ snapshot: first.snapshot, layers: first.layers, runtime, baseDir: join(dataDir, 'tmp') });
      try {
        const res = await ws.exec({ argv: ['sh', '-c', 'echo hacked > deps/v.js || echo READ-ONLY; cat deps/v.js'], timeoutMs: 10000 });
        assert.match(res.stdout, /READ-ONLY/);
        assert.match(res.stdout, /v = 7/);
        assert.equal(await ws.diff(), '', 'the layer is not part of the diff');
      } finally {
        ws.dispose();
      }
    }
  });
});
