import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RELEASE_TYPES, bumpPrerelease, increment, inc, incAll, SemVerError } from '../src/index.js';

describe('increment', () => {
  it('major resets minor and patch', () => {
    assert.equal(inc('1.2.3', 'major'), '2.0.0');
    assert.equal(inc('0.0.9', 'major'), '1.0.0');
  });

  it('major releases a pending x.0.0 prerelease', () => {
    assert.equal(inc('2.0.0-rc.1', 'major'), '2.0.0');
    assert.equal(inc('2.1.0-rc.1', 'major'), '3.0.0');
    assert.equal(inc('2.0.1-rc.1', 'major'), '3.0.0');
  });

  it('minor resets patch and releases x.y.0 prereleases', () => {
    assert.equal(inc('1.2.3', 'minor'), '1.3.0');
    assert.equal(inc('1.3.0-beta', 'minor'), '1.3.0');
    assert.equal(inc('1.3.1-beta', 'minor'), '1.4.0');
  });

  it('patch bumps or releases a prerelease', () => {
    assert.equal(inc('1.2.3', 'patch'), '1.2.4');
    assert.equal(inc('1.2.4-beta.3', 'patch'), '1.2.4');
    assert.equal(inc('1.2.3+build', 'patch'), '1.2.4');
  });

  it('pre bumps start a new prerelease series', () => {
    assert.equal(inc('1.2.3', 'premajor'), '2.0.0-0');
    assert.equal(inc('1.2.3', 'preminor', 'beta'), '1.3.0-beta.0');
    assert.equal(inc('1.2.3', 'prepatch', 'rc'), '1.2.4-rc.0');
    assert.equal(inc('1.2.3-alpha.4', 'prepatch'), '1.2.4-0');
    assert.equal(inc('1.2.3', 'premajor', 'alpha', 1), '2.0.0-alpha.1');
  });

  it('prerelease on a release bumps patch first', () => {
    assert.equal(inc('1.2.3', 'prerelease'), '1.2.4-0');
    assert.equal(inc('1.2.3', 'prerelease', 'beta'), '1.2.4-beta.0');
  });

  it('prerelease increments the last numeric identifier', () => {
    assert.equal(inc('1.2.3-4', 'prerelease'), '1.2.3-5');
    assert.equal(inc('1.2.3-beta.9', 'prerelease'), '1.2.3-beta.10');
    assert.equal(inc('1.2.3-beta.1.x', 'prerelease'), '1.2.3-beta.2.x');
    assert.equal(inc('1.2.3-beta', 'prerelease'), '1.2.3-beta.0');
    assert.equal(inc('1.2.3-beta.1', 'prerelease', 'beta'), '1.2.3-beta.2');
  });

  it('prerelease with a different name restarts the series', () => {
    assert.equal(inc('1.2.3-beta.5', 'prerelease', 'rc'), '1.2.3-rc.0');
    assert.equal(inc('1.2.3-beta.5', 'prerelease', 'rc', 1), '1.2.3-rc.1');
    assert.equal(inc('1.2.3-beta.5', 'prerelease', 'rc', false), '1.2.3-rc');
  });

  it('bumpPrerelease works on identifier arrays', () => {
    assert.deepEqual(bumpPrerelease([]), [0]);
    assert.deepEqual(bumpPrerelease([], 'dev', 1), ['dev', 1]);
    assert.deepEqual(bumpPrerelease([], null, false), [0]);
    assert.deepEqual(bumpPrerelease(['a', 3, 'b', 'c']), ['a', 4, 'b', 'c']);
    assert.deepEqual(bumpPrerelease(['a', 'b']), ['a', 'b', 0]);
    assert.deepEqual(bumpPrerelease(['a', 'b'], null, 1), ['a', 'b', 1]);
    assert.deepEqual(bumpPrerelease(['a', 'b'], 'a', false), ['a', 'b', 0]);
  });

  it('release drops the prerelease', () => {
    assert.equal(inc('3.0.0-rc.2', 'release'), '3.0.0');
    assert.throws(() => increment('3.0.0', 'release'), /is not a prerelease/);
  });

  it('increment returns a SemVer and does not touch the input', () => {
    const next = increment('1.9.9', 'minor');
    assert.equal(next.major, 1);
    assert.equal(next.minor, 10);
    assert.equal(next.patch, 0);
    assert.deepEqual(next.prerelease, []);
  });

  it('rejects unknown release types and bad identifiers', () => {
    assert.throws(() => inc('1.2.3', 'huge'), /unknown release type: huge/);
    assert.throws(() => inc('1.2.3', 'prerelease', 'be ta'), SemVerError);
    assert.throws(() => inc('1.2.3', 'prerelease', '123'), /invalid prerelease identifier/);
    assert.throws(() => inc('1.2.3', 'prerelease', '0'), /invalid prerelease identifier: 0/);
    assert.equal(inc('1.2.3', 'prerelease', ''), '1.2.4-0');
    assert.equal(inc('1.2.3', 'prerelease', 'rc0'), '1.2.4-rc0.0');
  });

  it('inc returns null for an unparsable version', () => {
    assert.equal(inc('1.2', 'patch'), null);
    assert.equal(inc(undefined, 'major'), null);
  });

  it('incAll applies bumps in order', () => {
    assert.equal(incAll('1.2.3', ['minor', 'prerelease'], 'beta'), '1.3.1-beta.0');
    assert.equal(incAll('1.2.3', ['premajor', 'prerelease', 'prerelease'], 'rc'), '2.0.0-rc.2');
    assert.equal(incAll('0.1.0', []), '0.1.0');
  });

  it('lists every release type', () => {
    assert.equal(RELEASE_TYPES.length, 8);
    for (const type of RELEASE_TYPES.filter((t) => t !== 'release')) {
      assert.notEqual(inc('1.1.1', type), '1.1.1');
    }
  });
});
