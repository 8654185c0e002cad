// Structural helpers for JSON values: kind detection, deep equality, deep
// cloning, validation of JSON-ness and a canonical (sorted-key) serializer.

export type JsonPrimitive = null | boolean | number | string;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonKind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export function hasOwn(target: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(target, key);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return Array.isArray(value) || isPlainObject(value);
}

/** The JSON kind of a value, or 'invalid' for anything JSON cannot represent. */
export function kindOf(value: unknown): JsonKind | 'invalid' {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'string';
    case 'number':
      return Number.isFinite(value) ? 'number' : 'invalid';
    case 'object':
      return isPlainObject(value) ? 'object' : 'invalid';
    default:
      return 'invalid';
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) {
      return false;
    }
    for (let i = 0; i < a.length; i += 1) {
      if (!deepEqual(a[i], b[i])) {
        return false;
      }
    }
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    if (keysA.length !== keysB.length) {
      return false;
    }
    for (const key of keysA) {
      if (!hasOwn(b, key) || !deepEqual(a[key], b[key])) {
        return false;
      }
    }
    return true;
  }
  return false;
}

export function deepClone<T>(value: T): T {
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) {
      copy[i] = deepClone(value[i]);
    }
    return copy as T;
  }
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      copy[key] = deepClone(value[key]);
    }
    return copy as T;
  }
  if (value !== null && typeof value === 'object') {
    throw new TypeError(`Cannot clone a non-JSON object (${Object.prototype.toString.call(value)})`);
  }
  return value;
}

function escapeForPointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Returns the JSON Pointer of the first value (depth first) that JSON cannot
 * represent, or null when the whole value is valid JSON.
 */
export function findNonJson(value: unknown, base = ''): string | null {
  const kind = kindOf(value);
  if (kind === 'invalid') {
    return base;
  }
  if (kind === 'array') {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i += 1) {
      const found = findNonJson(items[i], `${base}/${i}`);
      if (found !== null) {
        return found;
      }
    }
  } else if (kind === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const found = findNonJson(record[key], `${base}/${escapeForPointer(key)}`);
      if (found !== null) {
        return found;
      }
    }
  }
  return null;
}

/** Serializes a JSON value with object keys sorted, so equal values serialize equally. */
export function canonicalize(value: unknown): string {
  const kind = kindOf(value);
  if (kind === 'invalid') {
    throw new TypeError('Cannot canonicalize a non-JSON value');
  }
  if (kind === 'array') {
    const parts = (value as unknown[]).map((item) => canonicalize(item));
    return `[${parts.join(',')}]`;
  }
  if (kind === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    let out = '';
    for (const key of keys) {
      if (out.length > 0) {
        out += ',';
      }
      out += `${JSON.stringify(key)}:${canonicalize(record[key])}`;
    }
    return `{${out}}`;
  }
  return JSON.stringify(value);
}

/** Counts the nodes of a JSON tree (every value, containers included). */
export function countNodes(value: unknown): number {
  let total = 1;
  if (Array.isArray(value)) {
    for (const item of value) {
      total += countNodes(item);
    }
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      total += countNodes(value[key]);
    }
  }
  return total;
}
