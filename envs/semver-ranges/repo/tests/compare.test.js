import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareIdentifiers,
  rcompareIdentifiers,
  compareMain,
  comparePre,
  compare,
  compareBuild,
  rcompare,
  eq,
  neq,
  gt,
  gte,
  lt,
  lte,
  cmp,
  sort,
  rsort,
  diff,
} from '../src/index.js';

describe('compare', () => {
  it('compareIdentifiers orders numbers before strings', () => {
    assert.equal(compareIdentifiers(1, 2), -1);
    assert.equal(compareIdentifiers(10, 2), 1);
    assert.equal(compareIdentifiers(3, 3), 0);
    assert.equal(compareIdentifiers(99, 'a'), -1);
    assert.equal(compareIdentifiers('a', 0), 1);
    assert.equal(compareIdentifiers('alpha', 'beta'), -1);
    assert.equal(compareIdentifiers('beta', 'alpha'), 1);
    assert.equal(compareIdentifiers('rc', 'rc'), 0);
    assert.equal(rcompareIdentifiers(1, 2), 1);
  });

  it('compareMain looks at each field in order', () => {
    assert.equal(compareMain('2.0.0', '1.9.9'), 1);
    assert.equal(compareMain('1.2.0', '1.10.0'), -1);
    assert.equal(compareMain('1.2.4', '1.2.3'), 1);
    assert.equal(compareMain('1.2.3', '1.2.4'), -1);
    assert.equal(compareMain('1.2.3-alpha', '1.2.3'), 0);
    assert.equal(compareMain('0.0.1', '1.0.0'), -1);
  });

  it('comparePre ranks releases above prereleases', () => {
    assert.equal(comparePre('1.0.0', '1.0.0'), 0);
    assert.equal(comparePre('1.0.0', '1.0.0-rc'), 1);
    assert.equal(comparePre('1.0.0-rc', '1.0.0'), -1);
    assert.equal(comparePre('1.0.0-alpha', '1.0.0-alpha.1'), -1);
    assert.equal(comparePre('1.0.0-alpha.1', '1.0.0-alpha'), 1);
    assert.equal(comparePre('1.0.0-beta.11', '1.0.0-beta.2'), 1);
    assert.equal(comparePre('1.0.0-a.b', '1.0.0-a.b'), 0);
  });

  it('compare combines main and prerelease, ignoring build', () => {
    assert.equal(compare('1.2.3', '1.2.3+build.5'), 0);
    assert.equal(compare('1.2.3-beta', '1.2.2'), 1);
    assert.equal(compare('1.2.3-beta', '1.2.3-alpha'), 1);
    assert.equal(compare('1.2.3', '2.0.0-0'), -1);
    assert.equal(rcompare('1.2.3', '2.0.0'), 1);
    assert.equal(rcompare('2.0.0', '2.0.0'), 0);
  });

  it('compareBuild breaks ties using build metadata', () => {
    assert.equal(compareBuild('1.0.0+a', '1.0.0+b'), -1);
    assert.equal(compareBuild('1.0.0+b', '1.0.0+a'), 1);
    assert.equal(compareBuild('1.0.0', '1.0.0+a'), -1);
    assert.equal(compareBuild('1.0.0+a.1', '1.0.0+a'), 1);
    assert.equal(compareBuild('1.0.0+x', '1.0.0+x'), 0);
    assert.equal(compareBuild('1.0.0+a.b', '1.0.0+a.c'), -1);
    assert.equal(compareBuild('1.0.1+a', '1.0.0+z'), 1);
  });

  it('boolean helpers agree with compare', () => {
    assert.equal(eq('1.0.0', '1.0.0+x'), true);
    assert.equal(eq('1.0.0', '1.0.1'), false);
    assert.equal(neq('1.0.0', '1.0.1'), true);
    assert.equal(neq('1.0.0', '1.0.0'), false);
    assert.equal(gt('1.0.1', '1.0.0'), true);
    assert.equal(gt('1.0.0', '1.0.0'), false);
    assert.equal(gte('1.0.0', '1.0.0'), true);
    assert.equal(gte('0.9.0', '1.0.0'), false);
    assert.equal(lt('1.0.0-rc', '1.0.0'), true);
    assert.equal(lt('1.0.0', '1.0.0'), false);
    assert.equal(lte('1.0.0', '1.0.0'), true);
    assert.equal(lte('1.0.1', '1.0.0'), false);
  });

  it('cmp dispatches on the operator string', () => {
    assert.equal(cmp('1.2.3', '>=', '1.2.3'), true);
    assert.equal(cmp('1.2.3', '>', '1.2.3'), false);
    assert.equal(cmp('1.2.3', '<', '1.2.4'), true);
    assert.equal(cmp('1.2.5', '<=', '1.2.4'), false);
    assert.equal(cmp('1.2.3', '', '1.2.3'), true);
    assert.equal(cmp('1.2.3', '==', '1.2.3'), true);
    assert.equal(cmp('1.2.3', '===', '1.2.4'), false);
    assert.equal(cmp('1.2.3', '!=', '1.2.4'), true);
    assert.equal(cmp('1.2.3', '!==', '1.2.3'), false);
    assert.throws(() => cmp('1.2.3', '=>', '1.2.3'), /invalid operator: =>/);
  });

  it('sort orders by SemVer precedence without mutating input', () => {
    const input = ['1.0.0', '1.0.0-rc.1', '1.0.0-alpha', '0.9.9', '1.0.0-alpha.1',
      '1.0.0-beta.11', '1.0.0-beta.2', '1.0.0-alpha.beta', '1.0.0-beta'];
    const copy = input.slice();
    assert.deepEqual(sort(input), ['0.9.9', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta',
      '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0']);
    assert.deepEqual(input, copy);
  });

  it('rsort orders descending, builds included', () => {
    assert.deepEqual(rsort(['1.0.0+b', '2.0.0', '1.0.0', '1.0.0+a', '1.10.0', '1.9.0']),
      ['2.0.0', '1.10.0', '1.9.0', '1.0.0+b', '1.0.0+a', '1.0.0']);
  });

  it('diff names the most significant change', () => {
    assert.equal(diff('1.2.3', '1.2.3'), null);
    assert.equal(diff('1.2.3', '1.2.3+build'), null);
    assert.equal(diff('1.2.3', '2.0.0'), 'major');
    assert.equal(diff('1.2.3', '1.3.0'), 'minor');
    assert.equal(diff('1.2.3', '1.2.4'), 'patch');
    assert.equal(diff('1.2.3', '2.0.0-rc'), 'premajor');
    assert.equal(diff('1.2.3-beta', '1.3.0'), 'preminor');
    assert.equal(diff('1.2.3', '1.2.4-0'), 'prepatch');
    assert.equal(diff('1.2.3-beta.1', '1.2.3-beta.2'), 'prerelease');
    assert.equal(diff('1.2.3-beta.1', '1.2.3'), 'prerelease');
  });
});
