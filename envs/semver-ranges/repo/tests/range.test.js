import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  Comparator,
  Range,
  SemVer,
  SemVerError,
  parsePartial,
  parseComparatorSet,
  satisfies,
  validRange,
  maxSatisfying,
  minSatisfying,
  filterSatisfying,
  minVersion,
} from '../src/index.js';

const norm = (r) => new Range(r).toString();

describe('range', () => {
  it('parsePartial reads partial and wildcard versions', () => {
    assert.deepEqual(parsePartial('1.2'), { major: 1, minor: 2, patch: null, prerelease: [], build: [] });
    assert.deepEqual(parsePartial('v1.x'), { major: 1, minor: null, patch: null, prerelease: [], build: [] });
    assert.deepEqual(parsePartial('*'), { major: null, minor: null, patch: null, prerelease: [], build: [] });
    assert.deepEqual(parsePartial('1.2.3-rc.1+b'), { major: 1, minor: 2, patch: 3, prerelease: ['rc', 1], build: ['b'] });
  });

  it('parsePartial rejects malformed partials', () => {
    assert.throws(() => parsePartial('1.x.3'), /cannot follow a wildcard/);
    assert.throws(() => parsePartial('1.2.3.4'), /too many version parts/);
    assert.throws(() => parsePartial('1.2-beta'), /needs a full version/);
    assert.throws(() => parsePartial('1.02'), /leading zero/);
  });

  it('Comparator tests and prints itself', () => {
    const c = new Comparator('>=', new SemVer(1, 2, 3));
    assert.equal(c.test('1.2.3'), true);
    assert.equal(c.test('1.2.2'), false);
    assert.equal(c.toString(), '>=1.2.3');
    assert.equal(new Comparator('=', new SemVer(1, 0, 0)).toString(), '1.0.0');
    assert.equal(Comparator.any().test('0.0.0-0'), true);
    assert.equal(Comparator.any().toString(), '');
    assert.throws(() => new Comparator('~', new SemVer(1, 0, 0)), /invalid comparator operator/);
  });

  it('desugars tilde ranges', () => {
    assert.equal(norm('~1.2.3'), '>=1.2.3 <1.3.0-0');
    assert.equal(norm('~1.2'), '>=1.2.0 <1.3.0-0');
    assert.equal(norm('~1'), '>=1.0.0 <2.0.0-0');
    assert.equal(norm('~0.2.3'), '>=0.2.3 <0.3.0-0');
    assert.equal(norm('~>3.4.5'), '>=3.4.5 <3.5.0-0');
    assert.equal(norm('~1.2.3-beta.2'), '>=1.2.3-beta.2 <1.3.0-0');
    assert.equal(norm('~*'), '*');
  });

  it('desugars caret ranges', () => {
    assert.equal(norm('^1.2.3'), '>=1.2.3 <2.0.0-0');
    assert.equal(norm('^0.2.3'), '>=0.2.3 <0.3.0-0');
    assert.equal(norm('^0.0.3'), '>=0.0.3 <0.0.4-0');
    assert.equal(norm('^1.2'), '>=1.2.0 <2.0.0-0');
    assert.equal(norm('^0.0'), '>=0.0.0 <0.1.0-0');
    assert.equal(norm('^0'), '>=0.0.0 <1.0.0-0');
    assert.equal(norm('^0.1'), '>=0.1.0 <0.2.0-0');
    assert.equal(norm('^0.1.2'), '>=0.1.2 <0.2.0-0');
    assert.equal(norm('^1.2.3-beta.2'), '>=1.2.3-beta.2 <2.0.0-0');
    assert.equal(norm('^x'), '*');
  });

  it('desugars x-ranges with operators', () => {
    assert.equal(norm('1.x'), '>=1.0.0 <2.0.0-0');
    assert.equal(norm('1.2.*'), '>=1.2.0 <1.3.0-0');
    assert.equal(norm('>1'), '>=2.0.0');
    assert.equal(norm('>1.2'), '>=1.3.0');
    assert.equal(norm('>=1.2'), '>=1.2.0');
    assert.equal(norm('<1.2'), '<1.2.0-0');
    assert.equal(norm('<=1.2'), '<1.3.0-0');
    assert.equal(norm('<=1'), '<2.0.0-0');
    assert.equal(norm('=1.2.3'), '1.2.3');
    assert.equal(norm('>*'), '<0.0.0-0');
    assert.equal(norm('<*'), '<0.0.0-0');
    assert.equal(norm('>=*'), '*');
    assert.equal(norm(''), '*');
  });

  it('desugars hyphen ranges', () => {
    assert.equal(norm('1.2.3 - 2.3.4'), '>=1.2.3 <=2.3.4');
    assert.equal(norm('1.2 - 2.3.4'), '>=1.2.0 <=2.3.4');
    assert.equal(norm('1.2.3 - 2.3'), '>=1.2.3 <2.4.0-0');
    assert.equal(norm('1.2.3 - 2'), '>=1.2.3 <3.0.0-0');
    assert.equal(norm('1 - 2'), '>=1.0.0 <3.0.0-0');
    assert.equal(norm('1.2.3-beta - 1.2.3'), '>=1.2.3-beta <=1.2.3');
    assert.equal(norm('* - 2.0.0'), '<=2.0.0');
    assert.equal(norm('1.0.0 - *'), '>=1.0.0');
    assert.equal(norm('* - *'), '*');
    assert.throws(() => new Range('1 - 2 - 3'), /malformed hyphen range/);
  });

  it('joins operators separated by spaces and unions', () => {
    assert.equal(norm('>= 1.2.3   <  2'), '>=1.2.3 <2.0.0-0');
    assert.equal(norm('1.x || >=2.5.0 || 5.0.0 - 7.2.3'),
      '>=1.0.0 <2.0.0-0 || >=2.5.0 || >=5.0.0 <=7.2.3');
    assert.equal(norm('* >=1.0.0'), '>=1.0.0');
    assert.throws(() => new Range('>= '), /not followed by a version/);
    assert.throws(() => new Range('1.2.3 <'), /operator "<" is not followed by a version/);
    assert.equal(parseComparatorSet('<3 >1').length, 2);
    assert.equal(parseComparatorSet('').length, 1);
    assert.equal(parseComparatorSet('* >=1.0.0').length, 1);
    assert.equal(parseComparatorSet('1.x').length, 2);
  });

  it('rejects invalid ranges', () => {
    assert.throws(() => new Range(42), /range must be a string/);
    assert.throws(() => new Range('>=a.b.c'), SemVerError);
    assert.equal(validRange('blerg'), null);
    assert.equal(validRange('~1.2'), '>=1.2.0 <1.3.0-0');
  });

  it('satisfies plain comparators and exact versions', () => {
    assert.equal(satisfies('1.2.3', '1.2.3'), true);
    assert.equal(satisfies('1.2.4', '1.2.3'), false);
    assert.equal(satisfies('1.2.3', '>1.2.3'), false);
    assert.equal(satisfies('1.2.4', '>1.2.3'), true);
    assert.equal(satisfies('1.2.3', '<=1.2.3'), true);
    assert.equal(satisfies('1.2.3', '<1.2.3'), false);
    assert.equal(satisfies('1.2.3', '>=1.0.0 <1.2.3'), false);
  });

  it('satisfies caret and tilde boundaries', () => {
    assert.equal(satisfies('1.9.9', '^1.2.3'), true);
    assert.equal(satisfies('2.0.0', '^1.2.3'), false);
    assert.equal(satisfies('1.2.2', '^1.2.3'), false);
    assert.equal(satisfies('0.2.9', '^0.2.3'), true);
    assert.equal(satisfies('0.3.0', '^0.2.3'), false);
    assert.equal(satisfies('0.0.4', '^0.0.3'), false);
    assert.equal(satisfies('1.2.9', '~1.2.3'), true);
    assert.equal(satisfies('1.3.0', '~1.2.3'), false);
  });

  it('satisfies unions when any set matches', () => {
    const r = '<1.0.0 || >=2.0.0 <2.1.0 || 3.x';
    assert.equal(satisfies('0.9.0', r), true);
    assert.equal(satisfies('1.5.0', r), false);
    assert.equal(satisfies('2.0.5', r), true);
    assert.equal(satisfies('2.1.0', r), false);
    assert.equal(satisfies('3.7.1', r), true);
    assert.equal(satisfies('4.0.0', r), false);
  });

  it('prereleases match only a comparator on the same tuple', () => {
    assert.equal(satisfies('1.2.4-beta', '^1.2.3'), false);
    assert.equal(satisfies('1.2.3-beta.3', '^1.2.3-beta.2'), true);
    assert.equal(satisfies('1.2.3-beta.1', '^1.2.3-beta.2'), false);
    assert.equal(satisfies('1.3.0-beta', '^1.2.3-beta.2'), false);
    assert.equal(satisfies('2.0.0-alpha', '<2.0.0'), false);
    assert.equal(satisfies('1.2.4-beta', '*'), false);
  });

  it('includePrerelease lets any prerelease in range match', () => {
    const opts = { includePrerelease: true };
    assert.equal(satisfies('1.2.4-beta', '^1.2.3', opts), true);
    assert.equal(satisfies('2.0.0-alpha', '^1.2.3', opts), false);
    assert.equal(satisfies('1.0.0-rc', '*', opts), true);
    const copy = new Range(new Range('^1.0.0'), opts);
    assert.equal(copy.test('1.5.0-x'), true);
    assert.equal(copy.raw, '^1.0.0');
    assert.equal(copy.toString(), '>=1.0.0 <2.0.0-0');
    assert.equal(new Range(new Range('^1.0.0', opts)).includePrerelease, true);
  });

  it('satisfies is false for invalid versions', () => {
    assert.equal(satisfies('not.a.version', '*'), false);
    assert.equal(satisfies('1.2', '1.x'), false);
    assert.throws(() => satisfies('1.2.3', '~~1'), SemVerError);
  });

  it('maxSatisfying and minSatisfying return original items', () => {
    const list = ['1.2.3', '1.2.4', '1.3.0', '2.0.0', 'junk', '1.2.5-beta'];
    assert.equal(maxSatisfying(list, '~1.2'), '1.2.4');
    assert.equal(minSatisfying(list, '~1.2'), '1.2.3');
    assert.equal(maxSatisfying(list, '^1.2.4'), '1.3.0');
    assert.equal(minSatisfying(list, '^1.2.4'), '1.2.4');
    assert.equal(maxSatisfying(list, '*'), '2.0.0');
    assert.equal(maxSatisfying(list, '>3'), null);
    assert.equal(maxSatisfying(list, 'bad range!'), null);
    assert.equal(minSatisfying(['2.0.0', '1.0.0'], '>=1'), '1.0.0');
    assert.equal(maxSatisfying(['1.0.0', '2.0.0'], '>=1'), '2.0.0');
    assert.equal(maxSatisfying(['1.2.3+a', '1.2.3+b'], '1.2.3'), '1.2.3+a');
    assert.equal(minSatisfying(['1.2.3+a', '1.2.3+b'], '1.2.3'), '1.2.3+a');
  });

  it('filterSatisfying returns sorted matches', () => {
    assert.deepEqual(filterSatisfying(['1.4.0', '0.9.0', '1.1.0', '2.0.0', '1.0.0'], '>=1.0.0 <2'),
      ['1.0.0', '1.1.0', '1.4.0']);
    assert.deepEqual(filterSatisfying(['3.0.0'], '1.x'), []);
  });

  it('minVersion finds the lowest possible match', () => {
    assert.equal(minVersion('^1.2.3').version, '1.2.3');
    assert.equal(minVersion('>1.2.3').version, '1.2.4');
    assert.equal(minVersion('>1.2.3-beta').version, '1.2.3-beta.0');
    assert.equal(minVersion('>=2 || >=1.5.0 <1.6').version, '1.5.0');
    assert.equal(minVersion('<2').version, '0.0.0');
    assert.equal(minVersion('*').version, '0.0.0');
    assert.equal(minVersion('>=0.0.0-0 <0.0.0').version, '0.0.0-0');
    assert.equal(minVersion('>*'), null);
    assert.equal(minVersion('>2 <1'), null);
  });
});
