// Path normalization and URL splitting.

export type TrailingSlashPolicy = 'keep' | 'strip' | 'add';

export interface NormalizeOptions {
  trailingSlash?: TrailingSlashPolicy;
  lowercase?: boolean;
}

export interface SplitUrl {
  path: string;
  query: string;
  hash: string;
}

const SCHEME_AND_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

// Splits a URL (absolute or path-only) into its path, query and fragment.
// The query and hash are returned without their leading '?' and '#'.
export function splitUrl(url: string): SplitUrl {
  let rest = url.replace(SCHEME_AND_AUTHORITY, '');
  let hash = '';
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    hash = rest.slice(hashAt + 1);
    rest = rest.slice(0, hashAt);
  }
  let query = '';
  const queryAt = rest.indexOf('?');
  if (queryAt >= 0) {
    query = rest.slice(queryAt + 1);
    rest = rest.slice(0, queryAt);
  }
  return { path: rest === '' ? '/' : rest, query, hash };
}

// decodeURIComponent that leaves malformed escapes untouched instead of
// throwing.
export function safeDecode(text: string): string {
  if (!text.includes('%')) {
    return text;
  }
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9A-Fa-f]{2})/g, (whole, hex: string) => {
      const code = parseInt(hex, 16);
      return code < 0x80 ? String.fromCharCode(code) : whole;
    });
  }
}

// Collapses repeated slashes, resolves '.' and '..' segments (never above the
// root) and applies the trailing-slash policy.
export function normalizePath(path: string, options: NormalizeOptions = {}): string {
  const policy = options.trailingSlash ?? 'strip';
  const raw = options.lowercase ? path.toLowerCase() : path;
  const input = raw.startsWith('/') ? raw : '/' + raw;
  const out: string[] = [];
  const pieces = input.split('/');
  let endsWithSlash = input.endsWith('/');
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i];
    const isLast = i === pieces.length - 1;
    if (piece === '' || piece === '.') {
      if (isLast && piece === '.') {
        endsWithSlash = true;
      }
      continue;
    }
    if (piece === '..') {
      out.pop();
      if (isLast) {
        endsWithSlash = true;
      }
      continue;
    }
    out.push(piece);
  }
  if (out.length === 0) {
    return '/';
  }
  const joined = '/' + out.join('/');
  if (policy === 'add') {
    return joined + '/';
  }
  if (policy === 'keep' && endsWithSlash) {
    return joined + '/';
  }
  return joined;
}

// Splits a path into decoded segments; '/a/b%20c/' gives ['a', 'b c'].
export function splitPath(path: string): string[] {
  const segments: string[] = [];
  for (const piece of path.split('/')) {
    if (piece !== '') {
      segments.push(safeDecode(piece));
    }
  }
  return segments;
}

export function hasTrailingSlash(path: string): boolean {
  return path.length > 1 && path.endsWith('/');
}

// Joins path fragments with exactly one slash between them.
export function joinPaths(...parts: string[]): string {
  let result = '';
  for (const part of parts) {
    const trimmed = part.replace(/^\/+|\/+$/g, '');
    if (trimmed.length > 0) {
      result += '/' + trimmed;
    }
  }
  if (result !== '' && hasTrailingSlash(parts[parts.length - 1])) {
    result += '/';
  }
  return result === '' ? '/' : result;
}
