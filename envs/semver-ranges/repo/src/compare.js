// Precedence rules: comparing, sorting and diffing versions.
import { parse } from './version.js';

// Numeric identifiers sort before alphanumeric ones; numbers compare by
// value, strings by ASCII order.
export function compareIdentifiers(a, b) {
  const aNum = typeof a === 'number';
  const bNum = typeof b === 'number';
  if (aNum && !bNum) {
    return -1;
  }
  if (bNum && !aNum) {
    return 1;
  }
  if (a === b) {
    return 0;
  }
  return a < b ? -1 : 1;
}

export function rcompareIdentifiers(a, b) {
  return compareIdentifiers(b, a);
}

function compareNumbers(a, b) {
  if (a === b) {
    return 0;
  }
  return a > b ? 1 : -1;
}

export function compareMain(a, b) {
  const x = parse(a);
  const y = parse(b);
  const byMajor = compareNumbers(x.major, y.major);
  if (byMajor !== 0) {
    return byMajor;
  }
  const byMinor = compareNumbers(x.minor, y.minor);
  if (byMinor !== 0) {
    return byMinor;
  }
  return compareNumbers(x.patch, y.patch);
}

// A version without prerelease has higher precedence than one with it.
export function comparePre(a, b) {
  const x = parse(a).prerelease;
  const y = parse(b).prerelease;
  if (x.length === 0 && y.length === 0) {
    return 0;
  }
  if (x.length === 0) {
    return 1;
  }
  if (y.length === 0) {
    return -1;
  }
  const shared = Math.min(x.length, y.length);
  for (let i = 0; i < shared; i++) {
    const result = compareIdentifiers(x[i], y[i]);
    if (result !== 0) {
      return result;
    }
  }
  return compareNumbers(x.length, y.length);
}

export function compare(a, b) {
  const main = compareMain(a, b);
  return main !== 0 ? main : comparePre(a, b);
}

// Like compare, but breaks ties with build metadata so sorting is total.
export function compareBuild(a, b) {
  const result = compare(a, b);
  if (result !== 0) {
    return result;
  }
  const x = parse(a).build;
  const y = parse(b).build;
  let i = 0;
  while (i < x.length && i < y.length) {
    if (x[i] !== y[i]) {
      return x[i] < y[i] ? -1 : 1;
    }
    i += 1;
  }
  return compareNumbers(x.length, y.length);
}

export function rcompare(a, b) {
  return compare(b, a);
}

export function eq(a, b) {
  return compare(a, b) === 0;
}

export function neq(a, b) {
  return compare(a, b) !== 0;
}

export function gt(a, b) {
  return compare(a, b) > 0;
}

export function gte(a, b) {
  return compare(a, b) >= 0;
}

export function lt(a, b) {
  return compare(a, b) < 0;
}

export function lte(a, b) {
  return compare(a, b) <= 0;
}

// Compares with an operator given as a string, e.g. cmp('1.2.3', '>=', '1.0.0').
export function cmp(a, operator, b) {
  switch (operator) {
    case '':
    case '=':
    case '==':
    case '===':
      return eq(a, b);
    case '!=':
    case '!==':
      return neq(a, b);
    case '>':
      return gt(a, b);
    case '>=':
      return gte(a, b);
    case '<':
      return lt(a, b);
    case '<=':
      return lte(a, b);
    default:
      throw new TypeError(`invalid operator: ${operator}`);
  }
}

// Returns a new array sorted in ascending precedence; the input is untouched.
export function sort(list) {
  return list.slice().sort((a, b) => compareBuild(a, b));
}

export function rsort(list) {
  return list.slice().sort((a, b) => compareBuild(b, a));
}

// Names the most significant part that differs between two versions:
// 'major', 'minor', 'patch' (prefixed by 'pre' when either side is a
// prerelease), 'prerelease' when only the prerelease differs, or null.
export function diff(a, b) {
  const x = parse(a);
  const y = parse(b);
  if (compare(x, y) === 0) {
    return null;
  }
  const prefix = x.isPrerelease() || y.isPrerelease() ? 'pre' : '';
  if (x.major !== y.major) {
    return `${prefix}major`;
  }
  if (x.minor !== y.minor) {
    return `${prefix}minor`;
  }
  if (x.patch !== y.patch) {
    return `${prefix}patch`;
  }
  return 'prerelease';
}
