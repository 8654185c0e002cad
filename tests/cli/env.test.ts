import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/workspace.js';

/** A small Python repository `env add` can infer, named my-lib. */
function repo(): string {
  const dir = join(tempDir('fn-repo-'), 'my-lib');
  for (const rel of ['setup.py', 'pkg/__init__.py', 'tests/test_a.py']) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), '');
  }
  return dir;
}

async function listed(data: string, name: string): Promise<Record<string, unknown>> {
  const r = await runCli(['--data-dir', data, '--json', 'env', 'list']);
  assert.equal(r.code, 0, r.err);
  const env = (JSON.parse(r.out) as Record<string, unknown>[]).find((e) => e.name === name);
  assert.ok(env, `${name} is listed`);
  return env;
}

describe('frognano env add', () => {
  it('refuses to add the same repository twice without --force, naming the existing one and the fix', async () => {
    const data = tempDir();
    const dir = repo();
    const first = await runCli(['--data-dir', data, 'env', 'add', dir]);
    assert.equal(first.code, 0, first.err);
    assert.match(first.out, /registered "my-lib"\. Next: frognano env check my-lib/);

    const again = await runCli(['--data-dir', data, 'env', 'add', dir, '--test-paths', 'other/**']);
    assert.equal(again.code, 2);
    assert.match(again.err, /^frognano env: an environment named "my-lib" is already registered \(added by `env add .*my-lib` at /);
    assert.match(again.err, /fix: pass --force to replace it, or --name <another-name>/);
    assert.match(again.err, /^Usage: frognano env add <path\|git-url> \[--name N\] \[--force\]/m);
    assert.deepEqual((await listed(data, 'my-lib')).testPaths, ['tests/**'], 'the first registration is intact');

    const forced = await runCli(['--data-dir', data, 'env', 'add', dir, '--test-paths', 'other/**', '--force']);
    assert.equal(forced.code, 0, forced.err);
    assert.match(forced.out, /replaced "my-lib" \(was added by `env add .*my-lib`\)\. Next: frognano env check my-lib/);
    assert.deepEqual((await listed(data, 'my-lib')).testPaths, ['other/**']);

    const other = await runCli(['--data-dir', data, 'env', 'add', dir, '--name', 'my-lib-2']);
    assert.equal(other.code, 0, other.err);
    assert.equal((await listed(data, 'my-lib')).name, 'my-lib', '--name registers beside it');
  });

  it('keeps stdout the spec alone with --json, the note on stderr', async () => {
    const data = tempDir();
    const dir = repo();
    assert.equal((await runCli(['--data-dir', data, 'env', 'add', dir])).code, 0);
    const r = await runCli(['--data-dir', data, '--json', 'env', 'add', dir, '--force']);
    assert.equal(r.code, 0, r.err);
    assert.equal((JSON.parse(r.out) as { name: string }).name, 'my-lib');
    assert.match(r.err, /replaced "my-lib"/);
  });

  it("refuses a starter environment's name, even with --force", async () => {
    const data = tempDir();
    for (const force of [[], ['--force']]) {
      const r = await runCli(['--data-dir', data, 'env', 'add', repo(), '--name', 'lru-cache', ...force]);
      assert.equal(r.code, 2);
      assert.match(r.err, /^frognano env: "lru-cache" is the name of a starter environment/);
      assert.match(r.err, /fix: pass --name <another-name>/);
    }
  });
});
