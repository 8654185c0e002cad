// Query string parsing and building.

import { safeDecode } from './path.ts';

export type QueryValue = string | string[];
export type Query = Record<string, QueryValue>;

export type ArrayFormat = 'repeat' | 'brackets' | 'comma';

export interface ParseQueryOptions {
  // Maximum number of key/value pairs read; later pairs are ignored.
  limit?: number;
  // Split values on ',' into arrays.
  comma?: boolean;
}

export interface BuildQueryOptions {
  arrayFormat?: ArrayFormat;
  sort?: boolean;
}

export type BuildableValue = string | number | boolean | null | undefined | Array<string | number | boolean>;

function decodeComponent(text: string): string {
  return safeDecode(text.replace(/\+/g, ' '));
}

function addValue(query: Query, key: string, value: string, forceArray: boolean): void {
  const existing = query[key];
  if (existing === undefined) {
    query[key] = forceArray ? [value] : value;
  } else if (Array.isArray(existing)) {
    existing.push(value);
  } else {
    query[key] = [existing, value];
  }
}

export function parseQuery(input: string, options: ParseQueryOptions = {}): Query {
  const limit = options.limit ?? 1000;
  const query: Query = Object.create(null);
  const text = input.startsWith('?') ? input.slice(1) : input;
  let count = 0;
  for (const pair of text.split('&')) {
    if (pair.length === 0) {
      continue;
    }
    if (count >= limit) {
      break;
    }
    count += 1;
    const eq = pair.indexOf('=');
    let key = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    let forceArray = false;
    if (key.endsWith('[]')) {
      key = key.slice(0, -2);
      forceArray = true;
    }
    if (key.length === 0) {
      continue;
    }
    if (options.comma && rawValue.includes(',')) {
      for (const part of rawValue.split(',')) {
        addValue(query, key, decodeComponent(part), true);
      }
    } else {
      addValue(query, key, decodeComponent(rawValue), forceArray);
    }
  }
  return query;
}

function encodeComponent(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+');
}

export function buildQuery(params: Record<string, BuildableValue>, options: BuildQueryOptions = {}): string {
  const format = options.arrayFormat ?? 'repeat';
  const keys = Object.keys(params);
  if (options.sort) {
    keys.sort();
  }
  const parts: string[] = [];
  for (const key of keys) {
    const value = params[key];
    if (value === undefined || value === null) {
      continue;
    }
    const name = encodeComponent(key);
    if (!Array.isArray(value)) {
      parts.push(`${name}=${encodeComponent(String(value))}`);
      continue;
    }
    if (value.length === 0) {
      continue;
    }
    if (format === 'comma') {
      parts.push(`${name}=${value.map((v) => encodeComponent(String(v))).join(',')}`);
    } else {
      const suffix = format === 'brackets' ? '%5B%5D' : '';
      for (const item of value) {
        parts.push(`${name}${suffix}=${encodeComponent(String(item))}`);
      }
    }
  }
  return parts.join('&');
}

// Returns `path` with the query appended, merging with any query it has.
export function withQuery(path: string, params: Record<string, BuildableValue>, options: BuildQueryOptions = {}): string {
  const built = buildQuery(params, options);
  if (built === '') {
    return path;
  }
  const hashAt = path.indexOf('#');
  const base = hashAt >= 0 ? path.slice(0, hashAt) : path;
  const hash = hashAt >= 0 ? path.slice(hashAt) : '';
  const sep = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return base + sep + built + hash;
}

// First value of a key, or the fallback when absent.
export function getFirst(query: Query, key: string, fallback = ''): string {
  const value = query[key];
  if (value === undefined) {
    return fallback;
  }
  if (Array.isArray(value)) {
    return value.length > 0 ? value[0] : fallback;
  }
  return value;
}

// Integer value of a key, clamped to [min, max]; the fallback when absent or
// not an integer.
export function getInt(query: Query, key: string, fallback: number, min = -Infinity, max = Infinity): number {
  const text = getFirst(query, key).trim();
  if (!/^[+-]?\d+$/.test(text)) {
    return fallback;
  }
  let n = parseInt(text, 10);
  if (n < min) {
    n = min;
  } else if (n > max) {
    n = max;
  }
  return n;
}

export function getAll(query: Query, key: string): string[] {
  const value = query[key];
  if (value === undefined) {
    return [];
  }
  return Array.isArray(value) ? value.slice() : [value];
}
