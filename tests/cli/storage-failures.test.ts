// Commands against a data directory on a read-only disk, on a full disk (a
// small tmpfs) and with a damaged store: one line with the cause and a fix,
// exit status 1, no stack trace. bwrap makes the read-only bind and the
// tmpfs without privileges; the command runs from the sources through tsx.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/workspace.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = fileURLToPath(new URL('../helpers/cli-lm.ts', import.meta.url));
const bwrapMissing = spawnSync('bwrap', ['--dev-bind', '/', '/', 'true']).status === 0 ? false : 'bwrap cannot run here (.ci/run installs bubblewrap)';

/** `frognano ...args` with bwrap's `mounts` around it; `shell` runs first in the same namespace. */
function cli(mounts: string[], args: string[], shell = ''): { status: number | null; stderr: string; stdout: string } {
  const command = [process.execPath, '--import', 'tsx', ENTRY, ...args].map((w) => `'${w}'`).join(' ');
  const res = spawnSync('bwrap', ['--dev-bind', '/', '/', ...mounts, 'sh', '-c', `${shell}exec ${command}`], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
  return { status: res.status, stderr: res.stderr, stdout: res.stdout };
}

function assertOneLine(res: { status: number | null; stderr: string }, message: RegExp, fix: RegExp): void {
  assert.equal(res.status, 1, res.stderr);
  assert.match(res.stderr, message);
  assert.match(res.stderr, fix);
  assert.doesNotMatch(res.stderr, /^\s+at /m, `no stack trace:\n${res.stderr}`);
  assert.doesNotMatch(res.stderr, /internal error/);
}

const bytes = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? bytes(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);

describe('a data directory that cannot be written', { skip: bwrapMissing }, () => {
  const data = tempDir('fn-disk-');
  before(async () => {
    const made = await runCli(['env', 'list', '--data-dir', data]);
    assert.equal(made.code, 0, made.err);
  });

  it('read-only: every command that writes says so in one line, with the fix', () => {
    for (const args of [
      ['train', '--budget', '20'],
      ['synth', '--env', 'durations', '--n', '1'],
      ['env', 'check', 'durations'],
      ['gc', '--keep-runs', '0', '--yes'],
    ]) {
      const res = cli(['--ro-bind', data, data], [...args, '--data-dir', data]);
      assertOneLine(
        res,
        new RegExp(`cannot write ${data}: the file system is read-only \\(EROFS\\)`),
        /fix: pass --data-dir \(or set FROGNANO_HOME\) to a folder on a writable disk/,
      );
    }
  });

  it('full: training and checking stop with one line naming the full disk, and --debug adds the stack', () => {
    const mount = join(tempDir('fn-full-'), 'data');
    // Room for what is there and little more: the first large write fails.
    const size = bytes(data) + 64 * 1024;
    const copy = `mkdir -p '${mount}' && cp -r '${data}/.' '${mount}/' && `;
    for (const args of [
      ['train', '--budget', '20'],
      ['env', 'check', 'durations'],
    ]) {
      const res = cli(['--size', String(size), '--tmpfs', mount], [...args, '--data-dir', mount], copy);
      assertOneLine(res, new RegExp(`cannot write ${mount}\\S*: the disk is full \\((ENOSPC|SQLITE_FULL)\\)`), /fix: free space \(frognano gc/);
    }
    const debug = cli(['--size', String(size), '--tmpfs', mount], ['env', 'check', 'durations', '--data-dir', mount, '--debug'], copy);
    assert.equal(debug.status, 1);
    assert.match(debug.stderr, /^\s+at /m, 'the stack, on request');
  });

  it('no permission: a folder the user cannot write is named, with the fix', (t) => {
    // As root every folder is writable: the command then runs as nobody, for whom the data directory is read-only by its mode.
    const root = process.getuid?.() === 0;
    const drop = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
    if (root && spawnSync('setpriv', ['--version']).status !== 0) return t.skip('running as root without setpriv to drop privileges');
    if (root && spawnSync(drop[0]!, [...drop.slice(1), 'test', '-r', join(ROOT, 'package.json')]).status !== 0)
      return t.skip(`nobody cannot read the checkout at ${ROOT}`);
    const locked = tempDir('fn-denied-');
    cpSync(data, locked, { recursive: true });
    chmodSync(locked, 0o555);
    const asUser = root ? [...drop, 'env', `HOME=${tempDir('fn-home-')}`] : [];
    try {
      const [cmd, ...rest] = [...asUser, process.execPath, '--import', 'tsx', ENTRY, 'train', '--budget', '20', '--data-dir', locked];
      const res = spawnSync(cmd!, rest, { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
      assertOneLine(res, new RegExp(`cannot write ${locked}: permission denied \\(EACCES\\)`), /fix: give your user write access to .*, or pass --data-dir/);
    } finally {
      chmodSync(locked, 0o755);
    }
  });

  it('a damaged store: names the file and how to set it aside', async () => {
    const broken = tempDir('fn-broken-');
    cpSync(data, broken, { recursive: true });
    writeFileSync(join(broken, 'frognano.db'), 'this is not a database, whatever it once was'.repeat(200));
    const res = await runCli(['env', 'list', '--data-dir', broken]);
    assert.equal(res.code, 1);
    assert.match(res.err, new RegExp(`the store ${broken}/frognano\\.db is damaged \\(SQLITE_NOTADB`));
    assert.match(res.err, /fix: move it aside \(mv .*frognano\.db .*frognano\.db\.damaged\)/);
  });
});
