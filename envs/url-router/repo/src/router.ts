// HTTP router: method dispatch over the segment tree, 405 detection,
// trailing-slash redirects and reverse routing by route name.

import { buildPath, compareSpecificity, parsePattern } from './pattern.ts';
import type { Params, ParsedPattern } from './pattern.ts';
import { joinPaths, normalizePath, splitPath, splitUrl } from './path.ts';
import { parseQuery, withQuery } from './query.ts';
import type { BuildableValue, Query } from './query.ts';
import { SegmentTree } from './tree.ts';

export const ANY_METHOD = '*';

export interface Route<H> {
  method: string;
  pattern: string;
  parsed: ParsedPattern;
  handler: H;
  name: string | null;
}

export interface RouteOptions {
  name?: string;
}

export interface RouterOptions {
  caseSensitive?: boolean;
  // 'ignore' matches '/a/' like '/a'; 'redirect' answers with a redirect to
  // the canonical path instead.
  trailingSlash?: 'ignore' | 'redirect';
}

export type MatchResult<H> =
  | { status: 'found'; route: Route<H>; params: Params; query: Query; path: string }
  | { status: 'method-not-allowed'; allowed: string[]; path: string }
  | { status: 'not-found'; path: string }
  | { status: 'redirect'; location: string; path: string };

interface PathEntry<H> {
  methods: Map<string, Route<H>>;
}

export class RouteConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RouteConflictError';
  }
}

export function normalizeMethod(method: string): string {
  if (method === ANY_METHOD) {
    return method;
  }
  const upper = method.trim().toUpperCase();
  if (!/^[A-Z]+$/.test(upper)) {
    throw new TypeError(`Invalid HTTP method "${method}"`);
  }
  return upper;
}

export class Router<H> {
  private readonly tree: SegmentTree<PathEntry<H>>;
  private readonly named = new Map<string, Route<H>>();
  private readonly all: Route<H>[] = [];
  private readonly prefixes: string[] = [];
  private readonly trailingSlash: 'ignore' | 'redirect';

  constructor(options: RouterOptions = {}) {
    this.tree = new SegmentTree<PathEntry<H>>({ caseSensitive: options.caseSensitive ?? true });
    this.trailingSlash = options.trailingSlash ?? 'ignore';
  }

  get size(): number {
    return this.all.length;
  }

  add(methods: string | string[], pattern: string, handler: H, options: RouteOptions = {}): Route<H>[] {
    const list = (Array.isArray(methods) ? methods : [methods]).map(normalizeMethod);
    if (list.length === 0) {
      throw new TypeError('At least one method is required');
    }
    const full = this.prefixes.length > 0 ? joinPaths(...this.prefixes, pattern) : pattern;
    const parsed = parsePattern(full);
    if (options.name !== undefined && this.named.has(options.name)) {
      throw new RouteConflictError(`Duplicate route name "${options.name}"`);
    }
    const entries = this.tree.insert(parsed, () => ({ methods: new Map() }));
    for (const method of list) {
      for (const entry of entries) {
        const existing = entry.methods.get(method);
        if (existing !== undefined) {
          throw new RouteConflictError(`${method} ${full} conflicts with ${existing.method} ${existing.pattern}`);
        }
      }
    }
    const created: Route<H>[] = [];
    for (const method of list) {
      const route: Route<H> = { method, pattern: full, parsed, handler, name: options.name ?? null };
      for (const entry of entries) {
        entry.methods.set(method, route);
      }
      created.push(route);
      this.all.push(route);
    }
    if (options.name !== undefined) {
      this.named.set(options.name, created[0]);
    }
    return created;
  }

  get(pattern: string, handler: H, options?: RouteOptions): Route<H>[] {
    return this.add('GET', pattern, handler, options);
  }

  post(pattern: string, handler: H, options?: RouteOptions): Route<H>[] {
    return this.add('POST', pattern, handler, options);
  }

  put(pattern: string, handler: H, options?: RouteOptions): Route<H>[] {
    return this.add('PUT', pattern, handler, options);
  }

  delete(pattern: string, handler: H, options?: RouteOptions): Route<H>[] {
    return this.add('DELETE', pattern, handler, options);
  }

  any(pattern: string, handler: H, options?: RouteOptions): Route<H>[] {
    return this.add(ANY_METHOD, pattern, handler, options);
  }

  // Registers the routes added by `fn` under a common path prefix.
  group(prefix: string, fn: (router: this) => void): this {
    this.prefixes.push(prefix);
    try {
      fn(this);
    } finally {
      this.prefixes.pop();
    }
    return this;
  }

  private pick(entry: PathEntry<H>, method: string): Route<H> | undefined {
    const exact = entry.methods.get(method);
    if (exact !== undefined) {
      return exact;
    }
    if (method === 'HEAD') {
      const get = entry.methods.get('GET');
      if (get !== undefined) {
        return get;
      }
    }
    return entry.methods.get(ANY_METHOD);
  }

  match(method: string, url: string): MatchResult<H> {
    const verb = normalizeMethod(method);
    const parts = splitUrl(url);
    const path = normalizePath(parts.path);
    const segments = splitPath(path);
    const found = this.tree.match(segments, (entry) => this.pick(entry, verb) !== undefined);
    if (found !== null) {
      if (this.trailingSlash === 'redirect' && path !== parts.path) {
        const location = parts.query === '' ? path : `${path}?${parts.query}`;
        return { status: 'redirect', location, path };
      }
      const route = this.pick(found.value, verb)!;
      return { status: 'found', route, params: found.params, query: parseQuery(parts.query), path };
    }
    const allowed = this.allowedFor(segments);
    if (allowed.length > 0) {
      return { status: 'method-not-allowed', allowed, path };
    }
    return { status: 'not-found', path };
  }

  private allowedFor(segments: string[]): string[] {
    const methods = new Set<string>();
    for (const m of this.tree.matchAll(segments)) {
      for (const method of m.value.methods.keys()) {
        methods.add(method);
      }
    }
    if (methods.has('GET')) {
      methods.add('HEAD');
    }
    return [...methods].sort();
  }

  // Methods that some route accepts for the URL, sorted.
  allowedMethods(url: string): string[] {
    const path = normalizePath(splitUrl(url).path);
    return this.allowedFor(splitPath(path));
  }

  hasRoute(name: string): boolean {
    return this.named.has(name);
  }

  // Reverse routing: the URL of a named route for the given parameters.
  url(name: string, params: Record<string, unknown> = {}, query: Record<string, BuildableValue> = {}): string {
    const route = this.named.get(name);
    if (route === undefined) {
      throw new RangeError(`Unknown route name "${name}"`);
    }
    return withQuery(buildPath(route.parsed, params), query, { sort: true });
  }

  // Every route, most specific pattern first, then by method.
  routes(): Route<H>[] {
    return this.all.slice().sort((a, b) => {
      const bySpecificity = compareSpecificity(a.parsed, b.parsed);
      if (bySpecificity !== 0) {
        return bySpecificity;
      }
      return a.method < b.method ? -1 : a.method > b.method ? 1 : 0;
    });
  }

  describe(): string {
    return this.tree.describe((entry) => [...entry.methods.keys()].sort().join(','));
  }
}
