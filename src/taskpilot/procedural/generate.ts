// Procedural bug candidates: one operator applied at one site of one source
// file, chosen by a seed. Every candidate parses and differs from the original.
import type { BugEdit } from '../../task/task.js';
import { fileDiff } from '../../util/diff.js';
import { deriveSeed, rng } from '../../util/rng.js';
import type { SourceFile } from '../sources.js';
import { parse, parsesCleanly, type Node } from '../../util/syntax.js';
import { operatorsFor, type Family, type Operator } from './index.js';

export interface ProceduralAttempt {
  operator: string;
  family: Family;
  seed: number;
  /** Set when the operator produced a parseable change. */
  candidate?: { patch: string; edit: BugEdit; files: Record<string, { before: string; after: string }> };
  /** Why nothing was produced: no site, or the result did not parse. */
  failure?: 'no-site' | 'unparseable' | 'no-change';
}

interface SiteIndex {
  op: Operator;
  sites: { file: SourceFile; node: Node }[];
}

/** All sites of every operator over the files, parsed once. */
async function indexSites(files: SourceFile[], only?: string[]): Promise<SiteIndex[]> {
  const byOp = new Map<Operator, SiteIndex>();
  for (const file of files) {
    const tree = await parse(file.text, file.lang);
    for (const op of operatorsFor(file.lang)) {
      if (only && !only.includes(op.name) && !only.includes(op.family)) continue;
      const entry = byOp.get(op) ?? { op, sites: [] };
      for (const node of op.sites(tree.rootNode)) entry.sites.push({ file, node });
      byOp.set(op, entry);
    }
  }
  return [...byOp.values()];
}

function position(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

/** Applies one operator at one site; null when the result is not a parseable change. */
export async function applyAt(
  op: Operator,
  file: SourceFile,
  node: Node,
  random: () => number,
): Promise<ProceduralAttempt['candidate'] | 'unparseable' | 'no-change'> {
  let edit;
  try {
    edit = op.apply(node, file.text, random);
  } catch {
    return 'no-change'; // an operator that cannot handle this site never stops a run
  }
  if (!edit) return 'no-change';
  const after = file.text.slice(0, edit.start) + edit.text + file.text.slice(edit.end);
  if (after === file.text) return 'no-change';
  if (!(await parsesCleanly(after, file.lang))) return 'unparseable';
  const pos = position(file.text, edit.start);
  return {
    patch: fileDiff(file.rel, file.text, after),
    edit: { operator: op.name, family: op.family, file: file.rel, ...pos },
    files: { [file.rel]: { before: file.text, after } },
  };
}

export interface ProceduralOptions {
  n: number;
  seed: number;
  /** Salt for seeds, e.g. the environment name, so environments differ. */
  salt: string;
  /** Restrict to these operator names or families. */
  operators?: string[];
  /** Picks made before (operator, file, place), shared by calls that must not repeat one; updated here. */
  taken?: Set<string>;
}

/** Draws for one attempt before it picks among the sites no attempt took. */
const REDRAWS = 8;

/**
 * n attempts. Each picks an operator uniformly among those with a site here,
 * then a site uniformly, from its own derived seed (recorded for replay). A
 * pick an earlier attempt of this run made (same operator, file and place)
 * is drawn again from a seed derived from the first, up to REDRAWS times,
 * then from the untaken picks alone:
 * the same bug twice was one validation's worth of nothing (issue 53).
 * Once every pick is taken, no more attempts are made.
 */
export async function* proceduralAttempts(files: SourceFile[], opts: ProceduralOptions): AsyncGenerator<ProceduralAttempt> {
  const index = (await indexSites(files, opts.operators)).filter((e) => e.sites.length > 0);
  if (index.length === 0) return;
  const taken = opts.taken ?? new Set<string>();
  const sites = index.reduce((sum, e) => sum + e.sites.length, 0);
  for (let i = 0; i < opts.n; i++) {
    if (taken.size >= sites) return; // every pick made: more attempts would only repeat bugs
    const first = deriveSeed(opts.seed, opts.salt, i);
    let pick: { seed: number; random: () => number; entry: SiteIndex; site: SiteIndex['sites'][number] } | undefined;
    const keyOf = (entry: SiteIndex, site: SiteIndex['sites'][number]) => `${entry.op.name}\0${site.file.rel}\0${site.node.startIndex}`;
    for (let k = 0; k <= REDRAWS; k++) {
      const seed = k === 0 ? first : deriveSeed(first, 'redraw', k);
      const random = rng(seed);
      const entry = index[Math.floor(random() * index.length)]!;
      const site = entry.sites[Math.floor(random() * entry.sites.length)]!;
      pick = { seed, random, entry, site };
      if (!taken.has(keyOf(entry, site))) break;
      if (k === REDRAWS) {
        // Few picks left: one of them, drawn uniformly, instead of a repeat.
        const left = index.flatMap((e) => e.sites.filter((s) => !taken.has(keyOf(e, s))).map((s) => ({ entry: e, site: s })));
        pick = { ...pick, ...left[Math.floor(random() * left.length)]! };
      }
    }
    taken.add(keyOf(pick!.entry, pick!.site));
    const { seed, random, entry, site } = pick!;
    const base = { operator: entry.op.name, family: entry.op.family, seed };
    const result = await applyAt(entry.op, site.file, site.node, random);
    if (typeof result === 'string') yield { ...base, failure: result };
    else yield { ...base, candidate: result };
  }
}
