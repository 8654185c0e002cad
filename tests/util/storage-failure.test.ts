// Which errors stop a whole command as the data directory's disk failing, and
// which stay one rollout's or one candidate's failure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStorageFailure, storageFailure } from '../../src/util/storage-failure.js';
import { tempDir } from '../helpers/workspace.js';

const sysError = (code: string, fields: Record<string, string> = {}) => Object.assign(new Error(`${code}: failed`), { code, ...fields });

describe('storage failures', () => {
  const data = tempDir('fn-data-');

  it('a full or read-only disk under the data directory, or the store, stops the command', () => {
    assert.equal(isStorageFailure(sysError('ENOSPC', { path: `${data}/runs/x/state.json.tmp-1` }), data), true);
    assert.equal(isStorageFailure(sysError('EROFS', { path: data }), data), true);
    assert.equal(
      isStorageFailure(sysError('ENOSPC', { path: '/envs/a/src/x.js', dest: `${data}/snapshots/a/x.js` }), data),
      true,
      'a copy names its destination',
    );
    assert.equal(isStorageFailure(sysError('SQLITE_FULL'), data), true, "the store's errors name no path");
  });

  it("an agent's own workspace filling up, or files it made unreadable, stay one rollout's failure", () => {
    assert.equal(isStorageFailure(sysError('ENOSPC', { path: '/dev/shm/frognano-ws/ws-1-abc/big.bin' }), data), false);
    assert.equal(isStorageFailure(sysError('ENOSPC', { path: `${data}-other/x` }), data), false, 'a sibling folder with the same prefix is outside');
    assert.equal(isStorageFailure(sysError('EACCES', { path: `${data}/runs/x` }), data), false);
    assert.equal(isStorageFailure(new Error('plain'), data), false);
  });

  it('tells the user which disk to free', () => {
    const inData = storageFailure(sysError('ENOSPC', { path: `${data}/frognano.db-wal` }), data, `${data}/frognano.db`);
    assert.match(inData?.hint ?? '', /frognano gc --keep-runs N/);
    const elsewhere = storageFailure(sysError('ENOSPC', { path: '/dev/shm/frognano-ws/x' }), data, `${data}/frognano.db`);
    assert.equal(elsewhere?.message, 'cannot write /dev/shm/frognano-ws/x: the disk is full (ENOSPC)');
    assert.equal(elsewhere?.hint, 'free space on the file system holding /dev/shm/frognano-ws/x');
  });
});
