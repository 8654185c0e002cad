// Segment tree for route matching. Each node has static children keyed by the
// segment text, an ordered list of parameter edges and at most one wildcard
// edge. Matching prefers static > parameter > wildcard and backtracks when a
// more specific branch fails further down.

import { applyConstraint, constraintKey } from './pattern.ts';
import type { ParamSegment, Params, ParsedPattern, Segment } from './pattern.ts';

interface ParamEdge<T> {
  segment: ParamSegment;
  key: string;
  node: TreeNode<T>;
}

interface WildcardEdge<T> {
  name: string;
  node: TreeNode<T>;
}

export class TreeNode<T> {
  readonly staticChildren = new Map<string, TreeNode<T>>();
  readonly paramEdges: ParamEdge<T>[] = [];
  wildcard: WildcardEdge<T> | null = null;
  value: T | undefined = undefined;
}

export interface TreeMatch<T> {
  value: T;
  params: Params;
}

export interface TreeOptions {
  caseSensitive?: boolean;
}

function paramEdgeKey(segment: ParamSegment): string {
  return `:${segment.name}${constraintKey(segment.constraint)}`;
}

export class SegmentTree<T> {
  readonly root = new TreeNode<T>();
  private readonly caseSensitive: boolean;
  private count = 0;

  constructor(options: TreeOptions = {}) {
    this.caseSensitive = options.caseSensitive ?? true;
  }

  get size(): number {
    return this.count;
  }

  private staticKey(text: string): string {
    return this.caseSensitive ? text : text.toLowerCase();
  }

  // Returns the node for one segment below `node`, creating it when needed.
  private child(node: TreeNode<T>, segment: Segment): TreeNode<T> {
    if (segment.type === 'static') {
      const key = this.staticKey(segment.value);
      let next = node.staticChildren.get(key);
      if (next === undefined) {
        next = new TreeNode<T>();
        node.staticChildren.set(key, next);
      }
      return next;
    }
    if (segment.type === 'wildcard') {
      if (node.wildcard === null) {
        node.wildcard = { name: segment.name, node: new TreeNode<T>() };
      } else if (node.wildcard.name !== segment.name) {
        throw new Error(`Wildcard "*${segment.name}" conflicts with "*${node.wildcard.name}"`);
      }
      return node.wildcard.node;
    }
    const key = paramEdgeKey(segment);
    const found = node.paramEdges.find((edge) => edge.key === key);
    if (found !== undefined) {
      return found.node;
    }
    const edge: ParamEdge<T> = { segment, key, node: new TreeNode<T>() };
    // Constrained parameters are tried before unconstrained ones; otherwise
    // insertion order is kept.
    if (segment.constraint !== null) {
      const firstPlain = node.paramEdges.findIndex((e) => e.segment.constraint === null);
      if (firstPlain >= 0) {
        node.paramEdges.splice(firstPlain, 0, edge);
        return edge.node;
      }
    }
    node.paramEdges.push(edge);
    return edge.node;
  }

  // Inserts a pattern. Optional trailing parameters make the pattern end at
  // several nodes; `create` builds the value for a node that has none, and
  // every node the pattern ends at is returned.
  insert(parsed: ParsedPattern, create: () => T): T[] {
    const ends: TreeNode<T>[] = [];
    let node = this.root;
    for (const segment of parsed.segments) {
      if (segment.type === 'param' && segment.optional) {
        ends.push(node);
      }
      node = this.child(node, segment);
    }
    ends.push(node);
    const values: T[] = [];
    for (const end of ends) {
      if (end.value === undefined) {
        end.value = create();
        this.count += 1;
      }
      values.push(end.value);
    }
    return values;
  }

  // Finds the best match for the given decoded segments. `accept` lets the
  // caller reject a value (for instance when the HTTP method is missing) so
  // that matching continues with less specific branches.
  match(segments: string[], accept: (value: T) => boolean = () => true): TreeMatch<T> | null {
    const out: TreeMatch<T>[] = [];
    this.walk(this.root, segments, 0, {}, accept, out, 1);
    return out.length > 0 ? out[0] : null;
  }

  // All matches in priority order.
  matchAll(segments: string[]): TreeMatch<T>[] {
    const out: TreeMatch<T>[] = [];
    this.walk(this.root, segments, 0, {}, () => true, out, Infinity);
    return out;
  }

  private walk(
    node: TreeNode<T>,
    segments: string[],
    index: number,
    params: Params,
    accept: (value: T) => boolean,
    out: TreeMatch<T>[],
    limit: number,
  ): void {
    if (index === segments.length) {
      if (node.value !== undefined && accept(node.value)) {
        out.push({ value: node.value, params: { ...params } });
        if (out.length >= limit) {
          return;
        }
      }
    } else {
      const text = segments[index];
      const next = node.staticChildren.get(this.staticKey(text));
      if (next !== undefined) {
        this.walk(next, segments, index + 1, params, accept, out, limit);
        if (out.length >= limit) {
          return;
        }
      }
      for (const edge of node.paramEdges) {
        const converted = applyConstraint(edge.segment.constraint, text);
        if (converted === undefined) {
          continue;
        }
        const withParam = { ...params, [edge.segment.name]: converted };
        this.walk(edge.node, segments, index + 1, withParam, accept, out, limit);
        if (out.length >= limit) {
          return;
        }
      }
    }
    const wild = node.wildcard;
    if (wild !== null && wild.node.value !== undefined && accept(wild.node.value)) {
      const rest = segments.slice(index).join('/');
      out.push({ value: wild.node.value, params: { ...params, [wild.name]: rest } });
    }
  }

  // Text dump of the tree, one node per line, for debugging and tests.
  describe(format: (value: T) => string = () => '*'): string {
    const lines: string[] = [];
    const visit = (node: TreeNode<T>, label: string, depth: number): void => {
      const mark = node.value !== undefined ? ` [${format(node.value)}]` : '';
      lines.push(`${'  '.repeat(depth)}${label}${mark}`);
      const keys = [...node.staticChildren.keys()].sort();
      for (const key of keys) {
        visit(node.staticChildren.get(key)!, key, depth + 1);
      }
      for (const edge of node.paramEdges) {
        visit(edge.node, edge.key, depth + 1);
      }
      if (node.wildcard !== null) {
        visit(node.wildcard.node, `*${node.wildcard.name}`, depth + 1);
      }
    };
    visit(this.root, '/', 0);
    return lines.join('\n');
  }
}
