// RFC 6901 JSON Pointer: parsing, escaping, compiling and resolution
// (get / has / set / insert / remove) against plain JSON documents.

import { hasOwn, isPlainObject } from './equal.ts';

export class PointerError extends Error {
  readonly pointer: string;

  constructor(message: string, pointer: string) {
    super(message);
    this.name = 'PointerError';
    this.pointer = pointer;
  }
}

const INDEX_PATTERN = /^(?:0|[1-9][0-9]*)$/;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function escapeToken(token: string): string {
  let out = '';
  for (const ch of token) {
    if (ch === '~') {
      out += '~0';
    } else if (ch === '/') {
      out += '~1';
    } else {
      out += ch;
    }
  }
  return out;
}

export function unescapeToken(token: string, pointer: string = token): string {
  let out = '';
  for (let i = 0; i < token.length; i += 1) {
    const ch = token[i];
    if (ch !== '~') {
      out += ch;
      continue;
    }
    const next = token[i + 1];
    if (next === '0') {
      out += '~';
    } else if (next === '1') {
      out += '/';
    } else {
      throw new PointerError(`Invalid escape sequence at offset ${i} in token "${token}"`, pointer);
    }
    i += 1;
  }
  return out;
}

/** Parses a JSON Pointer (or a URI fragment starting with '#') into tokens. */
export function parse(pointer: string): string[] {
  if (pointer.startsWith('#')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pointer.slice(1));
    } catch {
      throw new PointerError(`Malformed URI fragment "${pointer}"`, pointer);
    }
    return parse(decoded);
  }
  if (pointer === '') {
    return [];
  }
  if (pointer[0] !== '/') {
    throw new PointerError(`A JSON Pointer must be empty or start with "/": "${pointer}"`, pointer);
  }
  return pointer.slice(1).split('/').map((token) => unescapeToken(token, pointer));
}

export function compile(tokens: readonly (string | number)[]): string {
  let out = '';
  for (const token of tokens) {
    out += '/' + escapeToken(String(token));
  }
  return out;
}

/** Renders a pointer as a URI fragment identifier ('#/a%20b/0'). */
export function toFragment(pointer: string): string {
  const tokens = parse(pointer);
  let out = '#';
  for (const token of tokens) {
    out += '/' + encodeURIComponent(escapeToken(token));
  }
  return out;
}

export function append(pointer: string, ...tokens: (string | number)[]): string {
  return compile([...parse(pointer), ...tokens]);
}

export function parent(pointer: string): string {
  const tokens = parse(pointer);
  if (tokens.length === 0) {
    throw new PointerError('The root pointer has no parent', pointer);
  }
  return compile(tokens.slice(0, -1));
}

export function lastToken(pointer: string): string | undefined {
  const tokens = parse(pointer);
  return tokens.length > 0 ? tokens[tokens.length - 1] : undefined;
}

/** True when `prefix` designates `pointer` or one of its ancestors (only ancestors if `proper`). */
export function isPrefixOf(prefix: string, pointer: string, proper = false): boolean {
  const a = parse(prefix);
  const b = parse(pointer);
  if (a.length > b.length || (proper && a.length === b.length)) {
    return false;
  }
  for (let i = 0; i < a.length; i += 1) {
    if (a[i] !== b[i]) {
      return false;
    }
  }
  return true;
}

export function isArrayIndex(token: string): boolean {
  return INDEX_PATTERN.test(token);
}

/**
 * Resolves an array token to a numeric index. With `allowEnd`, the token "-"
 * and the index equal to the length both designate the position past the end.
 */
export function resolveIndex(token: string, length: number, allowEnd: boolean, pointer: string): number {
  if (token === '-') {
    if (allowEnd) {
      return length;
    }
    throw new PointerError('"-" designates a nonexistent array element', pointer);
  }
  if (!isArrayIndex(token)) {
    throw new PointerError(`Invalid array index "${token}"`, pointer);
  }
  const index = Number(token);
  const limit = allowEnd ? length : length - 1;
  if (index > limit) {
    throw new PointerError(`Array index ${index} is out of bounds (length ${length})`, pointer);
  }
  return index;
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

function step(current: unknown, token: string, pointer: string): unknown {
  if (Array.isArray(current)) {
    return current[resolveIndex(token, current.length, false, pointer)];
  }
  if (isPlainObject(current)) {
    if (!hasOwn(current, token)) {
      throw new PointerError(`Missing member "${token}"`, pointer);
    }
    return current[token];
  }
  throw new PointerError(`Cannot look up "${token}" in a ${describe(current)}`, pointer);
}

function assertSafeKey(key: string, pointer: string): void {
  if (UNSAFE_KEYS.has(key)) {
    throw new PointerError(`Refusing to write the unsafe member "${key}"`, pointer);
  }
}

export function get(document: unknown, pointer: string | readonly string[]): unknown {
  const tokens = typeof pointer === 'string' ? parse(pointer) : pointer;
  const text = typeof pointer === 'string' ? pointer : compile(pointer);
  let current = document;
  for (const token of tokens) {
    current = step(current, token, text);
  }
  return current;
}

export function has(document: unknown, pointer: string): boolean {
  try {
    get(document, pointer);
    return true;
  } catch (err) {
    if (err instanceof PointerError) {
      return false;
    }
    throw err;
  }
}

interface Location {
  container: Record<string, unknown> | unknown[];
  key: string;
}

function locate(document: unknown, tokens: string[], pointer: string, createMissing: boolean): Location {
  let current = document;
  for (let i = 0; i < tokens.length - 1; i += 1) {
    const token = tokens[i];
    if (createMissing && isPlainObject(current) && !hasOwn(current, token)) {
      assertSafeKey(token, pointer);
      const next = tokens[i + 1];
      current[token] = isArrayIndex(next) || next === '-' ? [] : {};
    }
    current = step(current, token, pointer);
  }
  if (!Array.isArray(current) && !isPlainObject(current)) {
    throw new PointerError(`The parent of "${pointer}" is a ${describe(current)}, not a container`, pointer);
  }
  return { container: current, key: tokens[tokens.length - 1] };
}

export interface SetOptions {
  /** Create missing intermediate objects/arrays instead of failing. */
  createMissing?: boolean;
}

/**
 * Writes `value` at `pointer`, overwriting an existing array element or member
 * (the position past the end of an array appends). Returns the new root.
 */
export function set(document: unknown, pointer: string, value: unknown, options: SetOptions = {}): unknown {
  const tokens = parse(pointer);
  if (tokens.length === 0) {
    return value;
  }
  const { container, key } = locate(document, tokens, pointer, options.createMissing === true);
  if (Array.isArray(container)) {
    const index = resolveIndex(key, container.length, true, pointer);
    container[index] = value;
  } else {
    assertSafeKey(key, pointer);
    container[key] = value;
  }
  return document;
}

/** Like `set`, but array targets shift later elements right (RFC 6902 "add"). */
export function insert(document: unknown, pointer: string, value: unknown): unknown {
  const tokens = parse(pointer);
  if (tokens.length === 0) {
    return value;
  }
  const { container, key } = locate(document, tokens, pointer, false);
  if (Array.isArray(container)) {
    const index = resolveIndex(key, container.length, true, pointer);
    container.splice(index, 0, value);
  } else {
    assertSafeKey(key, pointer);
    container[key] = value;
  }
  return document;
}

/** Removes the value at `pointer` and returns it. */
export function remove(document: unknown, pointer: string): unknown {
  const tokens = parse(pointer);
  if (tokens.length === 0) {
    throw new PointerError('Cannot remove the document root', pointer);
  }
  const { container, key } = locate(document, tokens, pointer, false);
  if (Array.isArray(container)) {
    const index = resolveIndex(key, container.length, false, pointer);
    return container.splice(index, 1)[0];
  }
  if (!hasOwn(container, key)) {
    throw new PointerError(`Missing member "${key}"`, pointer);
  }
  const removed = container[key];
  delete container[key];
  return removed;
}

/** Lists [pointer, value] for every leaf (scalar or empty container), depth first. */
export function leaves(document: unknown, base = ''): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (Array.isArray(document) && document.length > 0) {
    document.forEach((item, i) => {
      out.push(...leaves(item, `${base}/${i}`));
    });
  } else if (isPlainObject(document) && Object.keys(document).length > 0) {
    for (const key of Object.keys(document)) {
      out.push(...leaves(document[key], `${base}/${escapeToken(key)}`));
    }
  } else {
    out.push([base, document]);
  }
  return out;
}
