import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { makeJsEnv, nodeTests } from './helpers/env.js';
import { tempDir } from './helpers/workspace.js';

describe('frognano CLI', () => {
  it('prints help and version', async () => {
    assert.match((await runCli(['--help'])).out, /env list \| add \| check/);
    assert.match((await runCli(['--version'])).out, /^\d+\.\d+\.\d+$/);
  });

  it('exits 2 with a message on unknown commands and flags', async () => {
    const a = await runCli(['fly']);
    assert.equal(a.code, 2);
    assert.match(a.err, /unknown command "fly"/);
    const b = await runCli(['env', 'list', '--bogus']);
    assert.equal(b.code, 2);
    assert.match(b.err, /bogus/);
  });

  it('lists the starter environments', async () => {
    const r = await runCli(['env', 'list', '--data-dir', tempDir()]);
    assert.equal(r.code, 0);
    assert.match(r.out, /lru-cache\s+javascript\s+starter\s+unchecked/);
  });

  it('adds, checks and then lists an environment as accepted', async () => {
    const data = tempDir();
    const env = makeJsEnv({ 'tests/a.test.js': nodeTests({ one: 'assert.ok(true);', two: 'assert.equal(2, 2);' }) });
    const repo = join(env.baseDir, 'repo');
    const added = await runCli([
      'env',
      'add',
      repo,
      '--name',
      'toy-cli',
      '--test-command',
      'node --test-reporter=tap tests/run-all.js',
      '--report',
      'tap',
      '--data-dir',
      data,
    ]);
    assert.equal(added.code, 0, added.err);
    const checked = await runCli(['env', 'check', 'toy-cli', '--data-dir', data]);
    assert.equal(checked.code, 0, checked.out + checked.err);
    assert.match(checked.out, /toy-cli\s+ACCEPTED\s+2\s+2\s+0\s+0\s+0/);
    const listed = await runCli(['env', 'list', '--data-dir', data]);
    assert.match(listed.out, /toy-cli\s+javascript\s+added\s+accepted/);
  });

  it('names the field and fix of a malformed spec', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'environment.json'),
      JSON.stringify({
        schema: 'frognano.environment/v1',
        name: 'x',
        language: 'python',
        source: { path: '.' },
        test: { command: ['npm', 'test'], report: { format: 'tap', from: 'stdout' } },
        testPaths: ['tests/**'],
      }),
    );
    const r = await runCli(['env', 'add', dir, '--data-dir', tempDir()]);
    assert.equal(r.code, 2);
    assert.match(r.err, /test\.command: runs a package script.*Fix: call the test runner directly/);
  });

  it('explains a missing environment and lists the known ones', async () => {
    const r = await runCli(['env', 'check', 'nope', '--data-dir', tempDir()]);
    assert.equal(r.code, 2);
    assert.match(r.err, /no environment named "nope"/);
    assert.match(r.err, /lru-cache/);
  });
});
