// Parsing, validation and formatting of semantic versions (SemVer 2.0.0).

export const MAX_LENGTH = 256;

export class SemVerError extends Error {
  constructor(message, input) {
    super(message);
    this.name = 'SemVerError';
    this.input = input;
  }
}

const IDENTIFIER = /^[0-9A-Za-z-]+$/;
const DIGITS = /^[0-9]+$/;

function isDigit(ch) {
  return ch >= '0' && ch <= '9';
}

// Parses one numeric field (major, minor, patch or a numeric prerelease part).
export function parseNumber(text, label, input) {
  if (text.length === 0) {
    throw new SemVerError(`missing ${label} number`, input);
  }
  if (!DIGITS.test(text)) {
    throw new SemVerError(`${label} must be numeric, got "${text}"`, input);
  }
  if (text.length > 1 && text[0] === '0') {
    throw new SemVerError(`${label} has a leading zero: "${text}"`, input);
  }
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new SemVerError(`${label} is too large: "${text}"`, input);
  }
  return value;
}

// Splits a dot-separated prerelease or build string into identifiers.
// Numeric prerelease identifiers become numbers; build identifiers stay strings.
export function parseIdentifiers(text, kind, input) {
  const result = [];
  for (const part of text.split('.')) {
    if (part.length === 0) {
      throw new SemVerError(`empty ${kind} identifier`, input);
    }
    if (!IDENTIFIER.test(part)) {
      throw new SemVerError(`invalid ${kind} identifier "${part}"`, input);
    }
    if (kind === 'prerelease' && DIGITS.test(part)) {
      result.push(parseNumber(part, 'prerelease identifier', input));
    } else {
      result.push(part);
    }
  }
  return result;
}

// Removes leading '=', 'v' and spaces, as written in "v1.2.3" or "= 1.2.3".
export function stripPrefix(text) {
  let start = 0;
  while (start < text.length) {
    const ch = text[start];
    if (ch === '=' || ch === 'v' || ch === 'V' || ch === ' ') {
      start += 1;
    } else {
      break;
    }
  }
  return text.slice(start);
}

function checkField(value, label) {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new SemVerError(`${label} must be a non-negative integer`, value);
  }
}

export class SemVer {
  constructor(major, minor, patch, prerelease = [], build = []) {
    checkField(major, 'major');
    checkField(minor, 'minor');
    checkField(patch, 'patch');
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.prerelease = prerelease.slice();
    this.build = build.slice();
  }

  get version() {
    let out = `${this.major}.${this.minor}.${this.patch}`;
    if (this.prerelease.length > 0) {
      out += `-${this.prerelease.join('.')}`;
    }
    return out;
  }

  format(includeBuild = false) {
    let out = this.version;
    if (includeBuild && this.build.length > 0) {
      out += `+${this.build.join('.')}`;
    }
    return out;
  }

  toString() {
    return this.version;
  }

  isPrerelease() {
    return this.prerelease.length > 0;
  }

  withPrerelease(prerelease) {
    return new SemVer(this.major, this.minor, this.patch, prerelease, []);
  }

  clone() {
    return new SemVer(this.major, this.minor, this.patch, this.prerelease, this.build);
  }
}

// Parses a version string. With { loose: true } a leading "v" or "=" is allowed.
export function parse(input, options = {}) {
  if (input instanceof SemVer) {
    return input;
  }
  if (typeof input !== 'string') {
    throw new SemVerError('version must be a string', input);
  }
  if (input.length > MAX_LENGTH) {
    throw new SemVerError(`version is longer than ${MAX_LENGTH} characters`, input);
  }
  let text = input.trim();
  if (options.loose === true) {
    text = stripPrefix(text);
  }
  let build = [];
  const plus = text.indexOf('+');
  if (plus >= 0) {
    build = parseIdentifiers(text.slice(plus + 1), 'build', input);
    text = text.slice(0, plus);
  }
  let prerelease = [];
  const dash = text.indexOf('-');
  if (dash >= 0) {
    prerelease = parseIdentifiers(text.slice(dash + 1), 'prerelease', input);
    text = text.slice(0, dash);
  }
  const core = text.split('.');
  if (core.length !== 3) {
    throw new SemVerError(`expected MAJOR.MINOR.PATCH, got "${text}"`, input);
  }
  const major = parseNumber(core[0], 'major', input);
  const minor = parseNumber(core[1], 'minor', input);
  const patch = parseNumber(core[2], 'patch', input);
  return new SemVer(major, minor, patch, prerelease, build);
}

export function tryParse(input, options = {}) {
  try {
    return parse(input, options);
  } catch (err) {
    if (err instanceof SemVerError) {
      return null;
    }
    throw err;
  }
}

export function valid(input, options = {}) {
  const v = tryParse(input, options);
  return v === null ? null : v.version;
}

export function clean(input) {
  if (typeof input !== 'string') {
    return null;
  }
  const v = tryParse(input.trim(), { loose: true });
  return v === null ? null : v.version;
}

export function major(input) {
  return parse(input).major;
}

export function minor(input) {
  return parse(input).minor;
}

export function patch(input) {
  return parse(input).patch;
}

export function prerelease(input) {
  const v = tryParse(input);
  if (v === null || v.prerelease.length === 0) {
    return null;
  }
  return v.prerelease.slice();
}

// Finds the first version-like run of digits in any text: "v2" -> 2.0.0,
// "release 1.4.7.9" -> 1.4.7. Missing parts become zero.
export function coerce(input) {
  if (input instanceof SemVer) {
    return input;
  }
  const text = typeof input === 'number' ? String(input) : input;
  if (typeof text !== 'string') {
    return null;
  }
  let i = 0;
  while (i < text.length && !isDigit(text[i])) {
    i += 1;
  }
  if (i >= text.length) {
    return null;
  }
  const parts = [];
  while (parts.length < 3) {
    let j = i;
    while (j < text.length && isDigit(text[j])) {
      j += 1;
    }
    if (j === i) {
      break;
    }
    parts.push(Number(text.slice(i, j)));
    if (text[j] !== '.') {
      break;
    }
    i = j + 1;
  }
  while (parts.length < 3) {
    parts.push(0);
  }
  if (!parts.every((n) => Number.isSafeInteger(n))) {
    return null;
  }
  return new SemVer(parts[0], parts[1], parts[2]);
}
