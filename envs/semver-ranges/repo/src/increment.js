// Producing the next version: major, minor, patch and prerelease bumps.
import { SemVer, SemVerError, parse } from './version.js';

export const RELEASE_TYPES = [
  'major',
  'minor',
  'patch',
  'premajor',
  'preminor',
  'prepatch',
  'prerelease',
  'release',
];

const IDENTIFIER = /^[0-9A-Za-z-]+$/;

function checkIdentifier(identifier) {
  if (identifier === undefined || identifier === null || identifier === '') {
    return null;
  }
  if (!IDENTIFIER.test(identifier) || /^[0-9]+$/.test(identifier)) {
    throw new SemVerError(`invalid prerelease identifier: ${identifier}`, identifier);
  }
  return identifier;
}

// The prerelease that starts a fresh series: ['beta', 0], or [0] without a name.
// base is the first number (0 or 1); false leaves the number off.
function initialPrerelease(identifier, base) {
  if (identifier === null) {
    return [base === false ? 0 : base];
  }
  return base === false ? [identifier] : [identifier, base];
}

// Advances an existing prerelease: the last numeric identifier is increased,
// or the base number appended when there is none. A different name restarts it.
export function bumpPrerelease(current, identifier = null, base = 0) {
  if (current.length === 0) {
    return initialPrerelease(identifier, base);
  }
  if (identifier !== null && current[0] !== identifier) {
    return initialPrerelease(identifier, base);
  }
  const next = current.slice();
  let index = next.length - 1;
  while (index >= 0 && typeof next[index] !== 'number') {
    index -= 1;
  }
  if (index >= 0) {
    next[index] += 1;
  } else {
    next.push(base === false ? 0 : base);
  }
  return next;
}

// Returns the incremented SemVer; throws on an unknown release type.
export function increment(version, release, identifier, base = 0) {
  const v = parse(version);
  const name = checkIdentifier(identifier);
  const hasPre = v.prerelease.length > 0;
  let { major, minor, patch } = v;
  switch (release) {
    case 'major':
      // 1.0.0-rc.1 is released as 1.0.0; otherwise 1.4.2 becomes 2.0.0
      if (!hasPre || minor !== 0 || patch !== 0) {
        major += 1;
      }
      return new SemVer(major, 0, 0);
    case 'minor':
      if (!hasPre || patch !== 0) {
        minor += 1;
      }
      return new SemVer(major, minor, 0);
    case 'patch':
      if (!hasPre) {
        patch += 1;
      }
      return new SemVer(major, minor, patch);
    case 'premajor':
      return new SemVer(major + 1, 0, 0, initialPrerelease(name, base));
    case 'preminor':
      return new SemVer(major, minor + 1, 0, initialPrerelease(name, base));
    case 'prepatch':
      return new SemVer(major, minor, patch + 1, initialPrerelease(name, base));
    case 'prerelease':
      if (!hasPre) {
        return new SemVer(major, minor, patch + 1, initialPrerelease(name, base));
      }
      return new SemVer(major, minor, patch, bumpPrerelease(v.prerelease, name, base));
    case 'release':
      if (!hasPre) {
        throw new SemVerError(`${v.version} is not a prerelease`, version);
      }
      return new SemVer(major, minor, patch);
    default:
      throw new SemVerError(`unknown release type: ${release}`, release);
  }
}

// String form of increment; returns null when the version cannot be parsed.
export function inc(version, release, identifier, base = 0) {
  let v;
  try {
    v = parse(version);
  } catch (err) {
    return null;
  }
  return increment(v, release, identifier, base).version;
}

// Applies several bumps in a row, e.g. ['minor', 'prerelease'].
export function incAll(version, releases, identifier) {
  let current = parse(version);
  for (const release of releases) {
    current = increment(current, release, identifier);
  }
  return current.version;
}
