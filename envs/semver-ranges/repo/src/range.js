// Range matching: comparators, hyphen ranges, x-ranges, tilde and caret
// ranges, and unions joined with "||".
import { SemVer, SemVerError, parse, tryParse, parseNumber, parseIdentifiers, stripPrefix } from './version.js';
import { cmp, compare } from './compare.js';

const COMPARATOR_OPERATORS = ['=', '<', '<=', '>', '>='];
// Longest first, so that ">=" is not read as ">" followed by "=".
const RANGE_OPERATORS = ['~>', '>=', '<=', '>', '<', '=', '~', '^'];
const FIELD_NAMES = ['major', 'minor', 'patch'];

function ver(major, minor, patch, prerelease = []) {
  return new SemVer(major, minor, patch, prerelease);
}

export class Comparator {
  // A null semver stands for "any version".
  constructor(operator, semver) {
    if (!COMPARATOR_OPERATORS.includes(operator)) {
      throw new SemVerError(`invalid comparator operator: ${operator}`, operator);
    }
    this.operator = operator;
    this.semver = semver;
  }

  static any() {
    return new Comparator('>=', null);
  }

  isAny() {
    return this.semver === null;
  }

  test(version) {
    if (this.semver === null) {
      return true;
    }
    return cmp(version, this.operator, this.semver);
  }

  toString() {
    if (this.semver === null) {
      return '';
    }
    const op = this.operator === '=' ? '' : this.operator;
    return op + this.semver.version;
  }
}

function isWildcard(part) {
  return part === '' || part === '*' || part === 'x' || part === 'X';
}

// Reads "1", "1.2", "1.x", "1.2.3-beta+build"; missing or wildcard fields are null.
export function parsePartial(text, input = text) {
  let rest = stripPrefix(text);
  let build = [];
  let prerelease = [];
  const plus = rest.indexOf('+');
  if (plus >= 0) {
    build = parseIdentifiers(rest.slice(plus + 1), 'build', input);
    rest = rest.slice(0, plus);
  }
  const dash = rest.indexOf('-');
  if (dash >= 0) {
    prerelease = parseIdentifiers(rest.slice(dash + 1), 'prerelease', input);
    rest = rest.slice(0, dash);
  }
  const parts = rest.split('.');
  if (parts.length > 3) {
    throw new SemVerError(`too many version parts in "${text}"`, input);
  }
  const fields = [null, null, null];
  let sawWildcard = false;
  for (let i = 0; i < 3; i++) {
    const part = i < parts.length ? parts[i] : '';
    if (isWildcard(part)) {
      sawWildcard = true;
      continue;
    }
    if (sawWildcard) {
      throw new SemVerError(`a number cannot follow a wildcard in "${text}"`, input);
    }
    fields[i] = parseNumber(part, FIELD_NAMES[i], input);
  }
  if (prerelease.length > 0 && fields[2] === null) {
    throw new SemVerError(`a prerelease needs a full version in "${text}"`, input);
  }
  return { major: fields[0], minor: fields[1], patch: fields[2], prerelease, build };
}

function splitOperator(token) {
  for (const op of RANGE_OPERATORS) {
    if (token.startsWith(op)) {
      return [op, token.slice(op.length)];
    }
  }
  return ['', token];
}

// ~1.2.3 := >=1.2.3 <1.3.0-0, ~1.2 := >=1.2.0 <1.3.0-0, ~1 := >=1.0.0 <2.0.0-0
function tildeRange(p) {
  if (p.major === null) {
    return [Comparator.any()];
  }
  if (p.minor === null) {
    return [new Comparator('>=', ver(p.major, 0, 0)), new Comparator('<', ver(p.major + 1, 0, 0, [0]))];
  }
  const lower = p.patch === null ? ver(p.major, p.minor, 0) : ver(p.major, p.minor, p.patch, p.prerelease);
  return [new Comparator('>=', lower), new Comparator('<', ver(p.major, p.minor + 1, 0, [0]))];
}

// ^ allows changes that do not modify the left-most non-zero field.
function caretRange(p) {
  if (p.major === null) {
    return [Comparator.any()];
  }
  const minor = p.minor === null ? 0 : p.minor;
  const patch = p.patch === null ? 0 : p.patch;
  const lower = ver(p.major, minor, patch, p.patch === null ? [] : p.prerelease);
  let upper;
  if (p.major > 0 || p.minor === null) {
    upper = ver(p.major + 1, 0, 0, [0]);
  } else if (p.minor > 0 || p.patch === null) {
    upper = ver(0, p.minor + 1, 0, [0]);
  } else {
    upper = ver(0, 0, p.patch + 1, [0]);
  }
  return [new Comparator('>=', lower), new Comparator('<', upper)];
}

// Plain comparators and x-ranges: "1.2.3", ">=1.2", "<1", "1.x", "*".
function xRange(op, p) {
  if (p.major === null) {
    // ">*" and "<*" can never match; any other wildcard matches everything
    if (op === '>' || op === '<') {
      return [new Comparator('<', ver(0, 0, 0, [0]))];
    }
    return [Comparator.any()];
  }
  if (p.patch !== null) {
    const exact = new SemVer(p.major, p.minor, p.patch, p.prerelease, p.build);
    return [new Comparator(op === '' ? '=' : op, exact)];
  }
  const minor = p.minor === null ? 0 : p.minor;
  const next = p.minor === null ? ver(p.major + 1, 0, 0, [0]) : ver(p.major, p.minor + 1, 0, [0]);
  switch (op) {
    case '>':
      return [new Comparator('>=', next.withPrerelease([]))];
    case '>=':
      return [new Comparator('>=', ver(p.major, minor, 0))];
    case '<':
      return [new Comparator('<', ver(p.major, minor, 0, [0]))];
    case '<=':
      return [new Comparator('<', next)];
    default:
      return [new Comparator('>=', ver(p.major, minor, 0)), new Comparator('<', next)];
  }
}

// "1.2 - 2.3.4" := >=1.2.0 <=2.3.4, "1.2.3 - 2" := >=1.2.3 <3.0.0-0
function hyphenRange(fromText, toText, input) {
  const from = parsePartial(fromText, input);
  const to = parsePartial(toText, input);
  const set = [];
  if (from.major !== null) {
    const pre = from.patch === null ? [] : from.prerelease;
    set.push(new Comparator('>=', ver(from.major, from.minor ?? 0, from.patch ?? 0, pre)));
  }
  if (to.major !== null) {
    if (to.patch !== null) {
      set.push(new Comparator('<=', ver(to.major, to.minor, to.patch, to.prerelease)));
    } else if (to.minor !== null) {
      set.push(new Comparator('<', ver(to.major, to.minor + 1, 0, [0])));
    } else {
      set.push(new Comparator('<', ver(to.major + 1, 0, 0, [0])));
    }
  }
  if (set.length === 0) {
    set.push(Comparator.any());
  }
  return set;
}

// Splits on whitespace, gluing a lone operator to the version after it.
function tokenize(text, input) {
  const tokens = [];
  let pending = '';
  for (const word of text.split(/\s+/)) {
    if (word.length === 0) {
      continue;
    }
    if (RANGE_OPERATORS.includes(word)) {
      pending += word;
      continue;
    }
    tokens.push(pending + word);
    pending = '';
  }
  if (pending.length > 0) {
    throw new SemVerError(`operator "${pending}" is not followed by a version`, input);
  }
  return tokens;
}

export function parseComparatorSet(text, input = text) {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const hyphen = words.indexOf('-');
  if (hyphen >= 0) {
    if (hyphen !== 1 || words.length !== 3) {
      throw new SemVerError(`malformed hyphen range "${text}"`, input);
    }
    return hyphenRange(words[0], words[2], input);
  }
  const set = [];
  for (const token of tokenize(text, input)) {
    const [op, rest] = splitOperator(token);
    const partial = parsePartial(rest, input);
    let comparators;
    if (op === '~' || op === '~>') {
      comparators = tildeRange(partial);
    } else if (op === '^') {
      comparators = caretRange(partial);
    } else {
      comparators = xRange(op, partial);
    }
    set.push(...comparators);
  }
  // "any" adds nothing next to a real comparator
  const real = set.filter((c) => !c.isAny());
  return real.length > 0 ? real : [Comparator.any()];
}

// A prerelease only matches a set naming a prerelease of the same
// major.minor.patch, unless includePrerelease is on.
function testSet(set, version, includePrerelease) {
  for (const comparator of set) {
    if (!comparator.test(version)) {
      return false;
    }
  }
  if (version.prerelease.length === 0 || includePrerelease) {
    return true;
  }
  for (const comparator of set) {
    const s = comparator.semver;
    if (s === null || s.prerelease.length === 0) {
      continue;
    }
    if (s.major === version.major && s.minor === version.minor && s.patch === version.patch) {
      return true;
    }
  }
  return false;
}

export class Range {
  constructor(text, options = {}) {
    if (text instanceof Range) {
      this.raw = text.raw;
      this.set = text.set;
      this.includePrerelease = options.includePrerelease ?? text.includePrerelease;
      return;
    }
    if (typeof text !== 'string') {
      throw new SemVerError('range must be a string', text);
    }
    this.raw = text;
    this.includePrerelease = options.includePrerelease === true;
    this.set = text.split('||').map((part) => parseComparatorSet(part.trim(), text));
  }

  test(version) {
    const v = tryParse(version);
    if (v === null) {
      return false;
    }
    return this.set.some((set) => testSet(set, v, this.includePrerelease));
  }

  toString() {
    return this.set
      .map((set) => set.map((c) => c.toString()).join(' ') || '*')
      .join(' || ');
  }
}

function toRange(range, options) {
  return range instanceof Range && options === undefined ? range : new Range(range, options);
}

export function satisfies(version, range, options) {
  return toRange(range, options).test(version);
}

export function validRange(range, options) {
  try {
    return toRange(range, options).toString();
  } catch (err) {
    return null;
  }
}

// Picks the highest (direction 1) or lowest (direction -1) matching item.
function pickSatisfying(versions, range, options, direction) {
  let r;
  try {
    r = toRange(range, options);
  } catch (err) {
    return null;
  }
  let best = null;
  let bestVersion = null;
  for (const item of versions) {
    const v = tryParse(item);
    if (v === null || !r.test(v)) {
      continue;
    }
    if (bestVersion === null || compare(v, bestVersion) * direction > 0) {
      best = item;
      bestVersion = v;
    }
  }
  return best;
}

export function maxSatisfying(versions, range, options) {
  return pickSatisfying(versions, range, options, 1);
}

export function minSatisfying(versions, range, options) {
  return pickSatisfying(versions, range, options, -1);
}

// The matching items in ascending order.
export function filterSatisfying(versions, range, options) {
  const r = toRange(range, options);
  const matching = versions.filter((item) => r.test(item));
  return matching.sort((a, b) => compare(a, b));
}

// The lowest version that can satisfy the range, or null if none can.
export function minVersion(range, options) {
  const r = toRange(range, options);
  const zero = ver(0, 0, 0);
  if (r.test(zero)) {
    return zero;
  }
  let best = null;
  for (const set of r.set) {
    let candidate = null;
    for (const comparator of set) {
      const s = comparator.semver;
      let bound = null;
      if (s === null) {
        continue;
      }
      if (comparator.operator === '>') {
        bound = s.prerelease.length > 0 ? s.withPrerelease([...s.prerelease, 0]) : ver(s.major, s.minor, s.patch + 1);
      } else if (comparator.operator === '>=' || comparator.operator === '=') {
        bound = s;
      }
      if (bound !== null && (candidate === null || compare(bound, candidate) > 0)) {
        candidate = bound;
      }
    }
    if (candidate === null || !testSet(set, candidate, true)) {
      continue;
    }
    if (best === null || compare(candidate, best) < 0) {
      best = candidate;
    }
  }
  return best === null ? null : parse(best.version);
}
