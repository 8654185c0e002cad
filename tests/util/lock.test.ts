// A run's lock: held against a second taker, released, and taken over when its
// holder is gone, also when the pid it names now belongs to this process (a
// restarted container) or the machine restarted.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { acquireLock, LOCK_FILE, LockHeldError, liveHolder } from '../../src/util/lock.js';
import { tempDir } from '../helpers/workspace.js';

const leave = (dir: string, fields: Record<string, unknown>) =>
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ host: hostname(), command: 'frognano train', since: '2026-12-01 10:00:00', ...fields }));

describe('the run lock', () => {
  it('refuses a second taker while held, and frees the folder on release', () => {
    const dir = tempDir('fn-lock-');
    const lock = acquireLock(dir, 'run "a"', 'frognano train');
    assert.throws(() => acquireLock(dir, 'run "a"', 'frognano train'), LockHeldError);
    assert.equal(liveHolder(dir)?.pid, process.pid);
    lock.release();
    assert.equal(existsSync(join(dir, LOCK_FILE)), false);
    assert.deepEqual(readdirSync(dir), [], 'no temporary file left');
  });

  it('takes over a lock naming this pid that this process does not hold (a restarted container)', () => {
    const dir = tempDir('fn-lock-');
    leave(dir, { pid: process.pid });
    assert.equal(liveHolder(dir), null);
    const said: string[] = [];
    acquireLock(dir, 'run "a"', 'frognano train', (l) => said.push(l)).release();
    assert.match(said.join('\n'), new RegExp(`took over a stale lock \\(it was left by an earlier process with this pid, ${process.pid}`));
  });

  it('takes over a lock from before the machine restarted', (t) => {
    if (!existsSync('/proc/sys/kernel/random/boot_id')) return t.skip('no boot id on this system');
    const dir = tempDir('fn-lock-');
    leave(dir, { pid: process.ppid, boot: 'another-boot' });
    const said: string[] = [];
    acquireLock(dir, 'run "a"', 'frognano train', (l) => said.push(l)).release();
    assert.match(said.join('\n'), /the machine has restarted since it was taken/);
  });

  it('holds for a live pid only while its start matches the one recorded', (t) => {
    const dir = tempDir('fn-lock-');
    leave(dir, { pid: process.ppid });
    assert.equal(liveHolder(dir)?.pid, process.ppid, 'a live holder without a recorded start holds');
    if (!existsSync(`/proc/${process.ppid}/stat`)) return t.skip('no /proc to read a start from');
    leave(dir, { pid: process.ppid, start: '1' });
    assert.equal(liveHolder(dir), null, 'a pid now started at another time is not the holder');
  });
});
