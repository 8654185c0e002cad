import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  SemVer,
  SemVerError,
  parse,
  tryParse,
  valid,
  clean,
  coerce,
  major,
  minor,
  patch,
  prerelease,
} from '../src/index.js';
import { parseNumber, parseIdentifiers, stripPrefix } from '../src/version.js';

describe('version', () => {
  it('parses major, minor and patch', () => {
    const v = parse('10.20.30');
    assert.equal(v.major, 10);
    assert.equal(v.minor, 20);
    assert.equal(v.patch, 30);
    assert.deepEqual(v.prerelease, []);
    assert.deepEqual(v.build, []);
  });

  it('parses prerelease identifiers, numbers as numbers', () => {
    const v = parse('1.0.0-alpha.7.x-y');
    assert.deepEqual(v.prerelease, ['alpha', 7, 'x-y']);
    assert.equal(v.version, '1.0.0-alpha.7.x-y');
  });

  it('parses build metadata and keeps it out of version', () => {
    const v = parse('1.2.3-rc.1+build.007.sha-5114f85');
    assert.deepEqual(v.prerelease, ['rc', 1]);
    assert.deepEqual(v.build, ['build', '007', 'sha-5114f85']);
    assert.equal(v.version, '1.2.3-rc.1');
    assert.equal(v.format(true), '1.2.3-rc.1+build.007.sha-5114f85');
    assert.equal(v.format(), '1.2.3-rc.1');
    assert.equal(String(v), '1.2.3-rc.1');
  });

  it('trims surrounding whitespace', () => {
    assert.equal(parse('  4.5.6\n').version, '4.5.6');
  });

  it('rejects versions with the wrong number of parts', () => {
    assert.throws(() => parse('1.2'), SemVerError);
    assert.throws(() => parse('1.2.3.4'), /expected MAJOR.MINOR.PATCH/);
  });

  it('rejects leading zeros in numbers but not in build', () => {
    assert.throws(() => parse('01.2.3'), /leading zero/);
    assert.throws(() => parse('1.2.3-beta.01'), /leading zero/);
    assert.equal(parse('1.2.3-beta.0').prerelease[1], 0);
    assert.deepEqual(parse('1.2.3+001').build, ['001']);
  });

  it('rejects empty and invalid identifiers', () => {
    assert.throws(() => parse('1.2.3-'), /empty prerelease identifier/);
    assert.throws(() => parse('1.2.3-a..b'), /empty prerelease/);
    assert.throws(() => parse('1.2.3+a_b'), /invalid build identifier/);
    assert.throws(() => parse('1.2.x'), /patch must be numeric/);
  });

  it('errors carry their name and input', () => {
    try {
      parse('1.2.3-01');
      assert.fail('expected an error');
    } catch (err) {
      assert.ok(err instanceof SemVerError);
      assert.equal(err.name, 'SemVerError');
      assert.equal(err.input, '1.2.3-01');
      assert.equal(err.message, 'prerelease identifier has a leading zero: "01"');
    }
  });

  it('rejects non-strings and overly long input', () => {
    assert.throws(() => parse(123), /must be a string/);
    assert.throws(() => parse('1.2.' + '3'.repeat(256)), /longer than 256/);
    assert.equal(parse('1.2.' + '3'.repeat(10)).patch, 3333333333);
    const longest = '1.2.3-' + 'a'.repeat(250);
    assert.equal(parse(longest).version, longest);
    assert.throws(() => parse(longest + 'b'), /longer than 256/);
  });

  it('rejects numbers beyond the safe integer range', () => {
    assert.throws(() => parse('9007199254740992.0.0'), /too large/);
    assert.equal(parse('9007199254740991.0.0').major, 9007199254740991);
  });

  it('accepts a v prefix only in loose mode', () => {
    assert.throws(() => parse('v1.2.3'), SemVerError);
    assert.equal(parse('v1.2.3', { loose: true }).version, '1.2.3');
    assert.equal(parse('=v 1.2.3', { loose: true }).version, '1.2.3');
  });

  it('returns a SemVer unchanged', () => {
    const v = new SemVer(1, 2, 3, ['a']);
    assert.equal(parse(v), v);
  });

  it('validates constructor fields', () => {
    assert.throws(() => new SemVer(-1, 0, 0), /major must be a non-negative integer/);
    assert.throws(() => new SemVer(0, 1.5, 0), /minor/);
    assert.throws(() => new SemVer(0, 0, NaN), /patch/);
    assert.equal(new SemVer(0, 0, 0).version, '0.0.0');
  });

  it('copies prerelease arrays and clones', () => {
    const pre = ['beta', 1];
    const v = new SemVer(1, 0, 0, pre, ['b1']);
    pre.push(9);
    assert.deepEqual(v.prerelease, ['beta', 1]);
    const c = v.clone();
    assert.notEqual(c, v);
    assert.equal(c.format(true), '1.0.0-beta.1+b1');
    assert.equal(v.withPrerelease(['rc']).format(true), '1.0.0-rc');
    assert.equal(v.isPrerelease(), true);
    assert.equal(v.withPrerelease([]).isPrerelease(), false);
  });

  it('valid and tryParse return null on bad input', () => {
    assert.equal(valid('1.2.3-beta+x'), '1.2.3-beta');
    assert.equal(valid('1.2'), null);
    assert.equal(valid('v1.2.3'), null);
    assert.equal(valid('v1.2.3', { loose: true }), '1.2.3');
    assert.equal(tryParse('nope'), null);
    assert.equal(tryParse(null), null);
    assert.equal(tryParse('1.2.3-x').prerelease[0], 'x');
  });

  it('clean strips prefixes and whitespace', () => {
    assert.equal(clean('  =v1.2.3  '), '1.2.3');
    assert.equal(clean('~1.2.3'), null);
    assert.equal(clean(42), null);
  });

  it('field accessors', () => {
    assert.equal(major('3.4.5'), 3);
    assert.equal(minor('3.4.5'), 4);
    assert.equal(patch('3.4.5'), 5);
    assert.deepEqual(prerelease('1.2.3-alpha.1'), ['alpha', 1]);
    assert.equal(prerelease('1.2.3'), null);
    assert.equal(prerelease('garbage'), null);
  });

  it('parseNumber, parseIdentifiers and stripPrefix', () => {
    assert.equal(parseNumber('0', 'major', ''), 0);
    assert.equal(parseNumber('907', 'major', ''), 907);
    assert.throws(() => parseNumber('', 'minor', ''), /missing minor number/);
    assert.deepEqual(parseIdentifiers('1.a.22', 'prerelease', ''), [1, 'a', 22]);
    assert.deepEqual(parseIdentifiers('1.a.22', 'build', ''), ['1', 'a', '22']);
    assert.equal(stripPrefix('==vV 2'), '2');
    assert.equal(stripPrefix('1.v'), '1.v');
  });

  it('coerce finds a version in arbitrary text', () => {
    assert.equal(coerce('v2').version, '2.0.0');
    assert.equal(coerce('release 1.4.7.9').version, '1.4.7');
    assert.equal(coerce('version 3.1 final').version, '3.1.0');
    assert.equal(coerce('1.2.').version, '1.2.0');
    assert.equal(coerce(42).version, '42.0.0');
    assert.equal(coerce('007.8').version, '7.8.0');
    assert.equal(coerce('v9').version, '9.0.0');
    assert.equal(coerce('v0.10').version, '0.10.0');
    assert.equal(coerce('1..5').version, '1.0.0');
    assert.equal(coerce('1-2.3').version, '1.0.0');
  });

  it('coerce returns null when there is nothing to find', () => {
    assert.equal(coerce('no digits here'), null);
    assert.equal(coerce(''), null);
    assert.equal(coerce(undefined), null);
    assert.equal(coerce('99999999999999999999'), null);
    const v = new SemVer(5, 0, 0);
    assert.equal(coerce(v), v);
  });
});
