// Route pattern parsing, parameter constraints and reverse path building.
//
// Pattern syntax:
//   /users/:id            named parameter (one non-empty segment)
//   /users/:id<int>       integer parameter, value converted to a number
//   /pages/:n<int:1..50>  integer parameter with an inclusive range
//   /posts/:slug([a-z-]+) parameter constrained by a regular expression
//   /archive/:year?       optional parameter (only trailing parameters)
//   /files/*path          wildcard capturing the rest of the path

export interface IntConstraint {
  kind: 'int';
  min: number | null;
  max: number | null;
}

export interface RegexConstraint {
  kind: 'regex';
  source: string;
  re: RegExp;
}

export type Constraint = IntConstraint | RegexConstraint;

export interface StaticSegment {
  type: 'static';
  value: string;
}

export interface ParamSegment {
  type: 'param';
  name: string;
  optional: boolean;
  constraint: Constraint | null;
}

export interface WildcardSegment {
  type: 'wildcard';
  name: string;
}

export type Segment = StaticSegment | ParamSegment | WildcardSegment;

export interface ParsedPattern {
  source: string;
  segments: Segment[];
  paramNames: string[];
  trailingSlash: boolean;
}

export type ParamValue = string | number;
export type Params = Record<string, ParamValue>;

export class PatternError extends Error {
  readonly pattern: string;
  readonly position: number;

  constructor(message: string, pattern: string, position: number) {
    super(`${message} in pattern "${pattern}" at ${position}`);
    this.name = 'PatternError';
    this.pattern = pattern;
    this.position = position;
  }
}

const NAME_CHAR = /[A-Za-z0-9_]/;

function readName(raw: string, start: number): number {
  let end = start;
  while (end < raw.length && NAME_CHAR.test(raw[end])) {
    end += 1;
  }
  return end;
}

// Finds the index of the parenthesis closing the one at `open`, honouring
// nesting and backslash escapes. Returns -1 when it is unbalanced.
function findClosingParen(raw: string, open: number): number {
  let depth = 0;
  for (let i = open; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '\\') {
      i += 1;
      continue;
    }
    if (ch === '(') {
      depth += 1;
    } else if (ch === ')') {
      depth -= 1;
      if (depth === 0) {
        return i;
      }
    }
  }
  return -1;
}

export function parseIntConstraint(spec: string, pattern: string, position: number): IntConstraint {
  if (spec === 'int') {
    return { kind: 'int', min: null, max: null };
  }
  const m = /^int:(-?\d*)\.\.(-?\d*)$/.exec(spec);
  if (m === null) {
    throw new PatternError(`Unknown constraint "<${spec}>"`, pattern, position);
  }
  const min = m[1] === '' ? null : Number(m[1]);
  const max = m[2] === '' ? null : Number(m[2]);
  if (min !== null && max !== null && min > max) {
    throw new PatternError(`Empty range ${min}..${max}`, pattern, position);
  }
  return { kind: 'int', min, max };
}

function parseParam(raw: string, pattern: string, offset: number): ParamSegment {
  const nameEnd = readName(raw, 1);
  const name = raw.slice(1, nameEnd);
  if (name.length === 0) {
    throw new PatternError('Missing parameter name', pattern, offset);
  }
  let rest = nameEnd;
  let constraint: Constraint | null = null;
  if (raw[rest] === '<') {
    const close = raw.indexOf('>', rest);
    if (close < 0) {
      throw new PatternError('Unclosed "<"', pattern, offset + rest);
    }
    constraint = parseIntConstraint(raw.slice(rest + 1, close), pattern, offset + rest);
    rest = close + 1;
  } else if (raw[rest] === '(') {
    const close = findClosingParen(raw, rest);
    if (close < 0) {
      throw new PatternError('Unbalanced "("', pattern, offset + rest);
    }
    const source = raw.slice(rest + 1, close);
    try {
      constraint = { kind: 'regex', source, re: new RegExp(`^(?:${source})$`) };
    } catch {
      throw new PatternError(`Invalid regular expression /${source}/`, pattern, offset + rest);
    }
    rest = close + 1;
  }
  let optional = false;
  if (raw[rest] === '?') {
    optional = true;
    rest += 1;
  }
  if (rest !== raw.length) {
    throw new PatternError(`Unexpected "${raw.slice(rest)}"`, pattern, offset + rest);
  }
  return { type: 'param', name, optional, constraint };
}

export function parsePattern(source: string): ParsedPattern {
  if (!source.startsWith('/')) {
    throw new PatternError('Pattern must start with "/"', source, 0);
  }
  const trailingSlash = source.length > 1 && source.endsWith('/');
  const body = trailingSlash ? source.slice(1, -1) : source.slice(1);
  const segments: Segment[] = [];
  const paramNames: string[] = [];
  if (body.length === 0) {
    return { source, segments, paramNames, trailingSlash: false };
  }
  const raws = body.split('/');
  let offset = 1;
  let sawOptional = false;
  for (let i = 0; i < raws.length; i++) {
    const raw = raws[i];
    if (raw.length === 0) {
      throw new PatternError('Empty segment', source, offset);
    }
    let segment: Segment;
    if (raw[0] === '*') {
      if (i !== raws.length - 1) {
        throw new PatternError('Wildcard must be the last segment', source, offset);
      }
      const nameEnd = readName(raw, 1);
      if (nameEnd !== raw.length) {
        throw new PatternError('Invalid wildcard name', source, offset);
      }
      segment = { type: 'wildcard', name: nameEnd > 1 ? raw.slice(1) : 'wildcard' };
    } else if (raw[0] === ':') {
      segment = parseParam(raw, source, offset);
      if (segment.optional) {
        sawOptional = true;
      } else if (sawOptional) {
        throw new PatternError('Required parameter after optional one', source, offset);
      }
    } else {
      if (sawOptional) {
        throw new PatternError('Static segment after optional parameter', source, offset);
      }
      segment = { type: 'static', value: raw };
    }
    if (segment.type !== 'static') {
      if (paramNames.includes(segment.name)) {
        throw new PatternError(`Duplicate parameter "${segment.name}"`, source, offset);
      }
      paramNames.push(segment.name);
    }
    segments.push(segment);
    offset += raw.length + 1;
  }
  return { source, segments, paramNames, trailingSlash };
}

// Checks `value` against a constraint. Returns the converted value (a number
// for int constraints) or undefined when the value is rejected.
export function applyConstraint(constraint: Constraint | null, value: string): ParamValue | undefined {
  if (constraint === null) {
    return value;
  }
  if (constraint.kind === 'regex') {
    return constraint.re.test(value) ? value : undefined;
  }
  if (!/^-?\d+$/.test(value)) {
    return undefined;
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n)) {
    return undefined;
  }
  if (constraint.min !== null && n < constraint.min) {
    return undefined;
  }
  if (constraint.max !== null && n > constraint.max) {
    return undefined;
  }
  return n;
}

export function constraintKey(constraint: Constraint | null): string {
  if (constraint === null) {
    return '';
  }
  if (constraint.kind === 'regex') {
    return `(${constraint.source})`;
  }
  if (constraint.min === null && constraint.max === null) {
    return '<int>';
  }
  return `<int:${constraint.min ?? ''}..${constraint.max ?? ''}>`;
}

// Specificity score used to order routes: more static segments first, then
// constrained parameters, then plain parameters; wildcards rank last.
export function specificity(parsed: ParsedPattern): number {
  let score = 0;
  for (const segment of parsed.segments) {
    if (segment.type === 'static') {
      score += 100;
    } else if (segment.type === 'param') {
      score += segment.constraint !== null ? 20 : 10;
      if (segment.optional) {
        score -= 5;
      }
    } else {
      score += 1;
    }
  }
  return score;
}

export function compareSpecificity(a: ParsedPattern, b: ParsedPattern): number {
  const diff = specificity(b) - specificity(a);
  if (diff !== 0) {
    return diff;
  }
  if (a.segments.length !== b.segments.length) {
    return b.segments.length - a.segments.length;
  }
  return a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
}

function encodeSegment(value: string): string {
  return encodeURIComponent(value).replace(/%40/g, '@').replace(/%3A/gi, ':');
}

// Builds a concrete path from a parsed pattern. Missing optional parameters
// end the path; missing required ones, or values violating a constraint, throw.
export function buildPath(parsed: ParsedPattern, params: Record<string, unknown> = {}): string {
  const parts: string[] = [];
  for (const segment of parsed.segments) {
    if (segment.type === 'static') {
      parts.push(segment.value);
      continue;
    }
    const value = params[segment.name];
    if (segment.type === 'wildcard') {
      const pieces = Array.isArray(value) ? value.map(String) : value === undefined ? [] : String(value).split('/');
      for (const piece of pieces) {
        if (piece !== '') {
          parts.push(encodeSegment(piece));
        }
      }
      break;
    }
    if (value === undefined || value === null || value === '') {
      if (segment.optional) {
        break;
      }
      throw new TypeError(`Missing parameter "${segment.name}" for "${parsed.source}"`);
    }
    const text = String(value);
    if (applyConstraint(segment.constraint, text) === undefined) {
      throw new TypeError(`Parameter "${segment.name}" does not satisfy ${constraintKey(segment.constraint)}: "${text}"`);
    }
    parts.push(encodeSegment(text));
  }
  const path = '/' + parts.join('/');
  return parsed.trailingSlash && parts.length > 0 ? path + '/' : path;
}
