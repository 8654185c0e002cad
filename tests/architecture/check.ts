// The layer checker: builds the import graph of a source tree with the
// TypeScript compiler API and reports imports that go up (or sideways)
// between layers, and import cycles among files. Pure functions over a graph,
// so tests can feed it synthetic graphs as well as the real src/ tree.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** File (relative to the root, '/'-separated) -> the files it imports (same form). */
export type ImportGraph = Map<string, string[]>;

export interface Graph {
  edges: ImportGraph;
  /** Relative specifiers that resolve to no file: `from` file and the specifier. */
  unresolved: { from: string; specifier: string }[];
}

function listTs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listTs(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function toKey(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** Resolves a relative specifier the way NodeNext does for our sources (`.js` -> `.ts`, `dir/index.js`). */
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base.replace(/\.cjs$/, '.cts'), base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** Every import of every .ts file under `root`: static, `import type`, re-exports, dynamic `import()`. */
export function buildGraph(root: string): Graph {
  const edges: ImportGraph = new Map();
  const unresolved: Graph['unresolved'] = [];
  for (const file of listTs(root).sort()) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue; // packages and node: builtins
      const target = resolveSpecifier(file, fileName);
      if (target === undefined) unresolved.push({ from: toKey(root, file), specifier: fileName });
      else if (target.endsWith('.ts')) targets.add(toKey(root, target));
    }
    edges.set(toKey(root, file), [...targets].sort());
  }
  return { edges, unresolved };
}

/** The top-level folder of a file ('' for files directly in the root). */
export function folderOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? '' : file.slice(0, slash);
}

export interface LayerViolation {
  from: string;
  to: string;
  fromRank: number;
  toRank: number;
  message: string;
}

/** Imports into another folder whose rank is not lower than the importer's. */
export function layerViolations(edges: ImportGraph, layers: Readonly<Record<string, number>>): LayerViolation[] {
  const out: LayerViolation[] = [];
  for (const [from, targets] of edges) {
    const fromFolder = folderOf(from);
    const fromRank = layers[fromFolder];
    for (const to of targets) {
      const toFolder = folderOf(to);
      if (toFolder === fromFolder) continue;
      const toRank = layers[toFolder];
      if (fromRank === undefined || toRank === undefined) continue; // reported by unrankedFolders
      if (toRank < fromRank) continue;
      const how = toRank === fromRank ? 'the same rank' : 'a higher rank';
      out.push({
        from,
        to,
        fromRank,
        toRank,
        message: `${from} (${fromFolder}, rank ${fromRank}) imports ${to} (${toFolder}, rank ${toRank}): ${how}`,
      });
    }
  }
  return out;
}

/** Top-level folders (and root files, as '') that have no rank in the table. */
export function unrankedFolders(edges: ImportGraph, layers: Readonly<Record<string, number>>): string[] {
  const folders = new Set([...edges.keys()].map(folderOf));
  return [...folders].filter((f) => layers[f] === undefined).sort();
}

/**
 * One cycle per strongly connected component that has one, each as a path
 * `a -> b -> ... -> a` (Tarjan's algorithm, then a walk inside the component).
 */
export function findCycles(edges: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;

  const targetsOf = (n: string): string[] => edges.get(n) ?? [];
  // Iterative Tarjan, so deep graphs do not overflow the call stack.
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = targetsOf(frame.node);
      if (frame.i < targets.length) {
        const t = targets[frame.i++]!;
        if (!index.has(t)) {
          index.set(t, next);
          low.set(t, next++);
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, i: 0 });
        } else if (onStack.has(t)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(t)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== frame.node);
        const selfLoop = component.length === 1 && targetsOf(component[0]!).includes(component[0]!);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((c) => cycleIn(edges, new Set(c)));
}

/** A shortest cycle through the first (sorted) member of a strongly connected component. */
function cycleIn(edges: ImportGraph, members: Set<string>): string[] {
  const start = [...members].sort()[0]!;
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const n = queue.shift()!;
    for (const t of edges.get(n) ?? []) {
      if (!members.has(t)) continue;
      if (t === start) {
        const path = [n];
        while (path[0] !== start) path.unshift(prev.get(path[0]!)!);
        return [...path, start];
      }
      if (!prev.has(t)) {
        prev.set(t, n);
        queue.push(t);
      }
    }
  }
  return [start, start];
}
