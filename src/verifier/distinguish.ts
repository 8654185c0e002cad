// The distinguisher: a forger's best guesses at which version of a test is
// graded, from everything a forger in the sandbox sees. It lays a task's
// graded tree out as the verifier does (fresh names, copies, twins), reads
// it as code in the test process could (file sizes, times, inodes, modes,
// listing and collection order, names, each file's tests and their order,
// the values they expect) beside the agent's own copy of the test files,
// and scores every fingerprint it knows on each test the agent never saw.
// A fingerprint that guesses the graded version more often than chance is a
// hole in the honeypots (docs/verifier.md, "Decoys by construction").
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { keyOf } from '../grading/honeypots.js';
import { applyLayout, planPlacement } from '../grading/layout.js';
import { readTestFile, type IdStyle, type TestFile } from '../grading/tests/defs.js';
import type { GradingLayout } from '../task/task.js';
import { wilson } from '../util/stats.js';

/** One version of a test in the graded tree, as a forger sees it. */
export interface Version {
  real: boolean;
  file: string;
  size: number;
  mtimeMs: number;
  ino: number;
  /** Where a listing of its folder puts the file, and where sorted collection puts it. */
  listed: number;
  collected: number;
  /** Its place among the versions in its own file (same-file twins). */
  rank: number;
  /** Tests in its file. */
  tests: number;
  /** The text by which it differs from the other versions (the expected value). */
  value: string;
  /** Visible tests whose graded version shares its file (copies). */
  visibleReal: number;
  /** Definitions in its file identical to the agent's copy of them. */
  likeAgent: number;
}

/** The versions of one test the agent never saw. */
export type Trial = Version[];

export interface Fingerprint {
  name: string;
  /** Higher: more likely the graded one, by this fingerprint. */
  score: (v: Version, all: Trial, ctx: { agentText: string }) => number;
}

const num = (v: string) => (/^-?\d+(\.\d+)?n?$/.test(v) ? Number(v.replace(/n$/, '')) : null);

export const FINGERPRINTS: Fingerprint[] = [
  { name: 'larger file', score: (v) => v.size },
  { name: 'smaller file', score: (v) => -v.size },
  { name: 'earlier in collection', score: (v) => -v.collected },
  { name: 'later in collection', score: (v) => v.collected },
  { name: 'earlier in the folder listing', score: (v) => -v.listed },
  { name: 'later in the folder listing', score: (v) => v.listed },
  { name: 'newer file', score: (v) => v.mtimeMs },
  { name: 'older file', score: (v) => -v.mtimeMs },
  { name: 'lower inode', score: (v) => -v.ino },
  { name: 'higher inode', score: (v) => v.ino },
  { name: 'more tests in its file', score: (v) => v.tests },
  { name: 'first of its name', score: (v) => -v.rank },
  { name: 'last of its name', score: (v) => v.rank },
  { name: 'middle of its name', score: (v, all) => -Math.abs(v.rank - (all.length - 1) / 2) },
  { name: 'in the file with the visible tests’ graded versions', score: (v) => v.visibleReal },
  { name: 'in the file most like the agent’s copy', score: (v) => v.likeAgent },
  { name: 'value closest to zero', score: (v) => -Math.abs(num(v.value) ?? 0) },
  { name: 'non-negative value', score: (v) => ((num(v.value) ?? 0) >= 0 ? 1 : 0) },
  { name: 'median value', score: (v, all) => -Math.abs(all.filter((o) => (num(o.value) ?? 0) < (num(v.value) ?? 0)).length - (all.length - 1) / 2) },
  { name: 'roundest value', score: (v) => /0+$/.exec(v.value.replace(/\.0*$/, ''))?.[0].length ?? 0 },
  { name: 'shortest value', score: (v) => -v.value.length },
  { name: 'value found elsewhere in the agent’s copy', score: (v, _, c) => c.agentText.split(v.value).length - 1 },
  { name: 'value not found elsewhere in the agent’s copy', score: (v, _, c) => -(c.agentText.split(v.value).length - 1) },
  { name: 'value spelled with common letters', score: (v) => (v.value.match(/[etaoinshr]/gi) ?? []).length },
];

/** The literal by which `a` differs from `b`: the differing text widened to whole words, numbers and quotes. */
function difference(a: string, b: string): string {
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let e = 0;
  while (e < a.length - s && e < b.length - s && a[a.length - 1 - e] === b[b.length - 1 - e]) e++;
  let from = s;
  let to = a.length - e;
  while (from > 0 && /[\w.'"`-]/.test(a[from - 1]!)) from--;
  while (to < a.length && /[\w.'"`]/.test(a[to]!)) to++;
  return a.slice(from, to);
}

export interface ForgerInput {
  layout: GradingLayout;
  style: IdStyle;
  /** The project's test files as the snapshot has them (every test, hidden and held-back ones included). */
  files: TestFile[];
  /** The agent's copy of each of those files (held-back tests cut, hidden files absent). */
  agent: Record<string, string>;
  /** Required ids, and the ones the agent saw. */
  required: string[];
  visible: ReadonlySet<string>;
  /** A scratch folder for the graded tree. */
  dir: string;
  random: () => number;
}

/** The graded tree laid out in `dir`, and the versions of every twinned test the agent never saw. */
export async function forgerTrials(input: ForgerInput): Promise<Trial[]> {
  const { layout, dir } = input;
  for (const f of input.files) {
    mkdirSync(join(dir, dirname(f.rel)), { recursive: true });
    writeFileSync(join(dir, f.rel), f.text);
  }
  const taken = new Set(input.files.map((f) => f.rel));
  const placed = applyLayout(dir, layout, planPlacement(layout, input.required, input.random, taken), input.random);
  const seen = async (rel: string) => {
    const path = join(dir, rel);
    const st = lstatSync(path);
    const folder = readdirSync(dirname(path));
    const collected = [...folder].sort();
    const file = (await readTestFile(rel, readFileSync(path, 'utf8')))!;
    const base = posix.basename(rel);
    return { st, listed: folder.indexOf(base), collected: collected.indexOf(base), file };
  };
  const trials: Trial[] = [];
  const agentDefs = new Set(
    (
      await Promise.all(
        Object.entries(input.agent).map(async ([rel, text]) => {
          const f = await readTestFile(rel, text);
          return (f?.tests ?? []).map((t) => text.slice(t.start, t.end));
        }),
      )
    ).flat(),
  );
  // Copy groups: each chosen test's versions across the copies.
  for (const [g, group] of (layout.groups ?? []).entries()) {
    const paths = placed.groups[g] ?? [];
    const copies = await Promise.all(paths.map(seen));
    const visibleKeys = Object.keys(group.graded).filter((key) => input.visible.has(group.like + key));
    for (const [key, real] of Object.entries(group.graded)) {
      if (input.visible.has(group.like + key) || !input.required.includes(group.like + key)) continue;
      const decoys = group.decoys[key] ?? [];
      if (decoys.length === 0) continue;
      const texts = copies.map((c) => {
        const def = c.file.tests.find((t) => keyOf(t, input.style) === key);
        return def ? c.file.text.slice(def.start, def.end) : '';
      });
      trials.push(
        [real, ...decoys].map((k) => ({
          real: k === real,
          file: paths[k]!,
          size: copies[k]!.st.size,
          mtimeMs: copies[k]!.st.mtimeMs,
          ino: copies[k]!.st.ino,
          listed: copies[k]!.listed,
          collected: copies[k]!.collected,
          rank: 0,
          tests: copies[k]!.file.tests.length,
          value: difference(texts[k]!, texts[k === real ? decoys[0]! : real]!),
          visibleReal: visibleKeys.filter((v) => group.graded[v] === k).length,
          likeAgent: copies[k]!.file.tests.filter((t) => agentDefs.has(copies[k]!.file.text.slice(t.start, t.end))).length,
        })),
      );
    }
  }
  // Same-file twins: the occurrences of one name in one file.
  for (const f of layout.files) {
    const here = await seen(f.path);
    const byName = new Map<string, number[]>();
    here.file.tests.forEach((t, k) => byName.set(t.path.join(' > '), [...(byName.get(t.path.join(' > ')) ?? []), k]));
    for (const [name, defs] of byName) {
      if (defs.length < 2) continue;
      const id = input.required.find((r) => r === name || r.endsWith(` > ${name}`) || r.endsWith(name));
      if (!id || input.visible.has(id)) continue;
      const realRank = Object.entries(layout.renamed)
        .find(([, o]) => o === id)?.[0]
        .match(/ \[(\d+)\]$/)?.[1];
      const real = realRank ? Number(realRank) - 1 : 0;
      const twinRanks = new Set(layout.twins.filter((t) => t.of === id).map((t) => Number(/ \[(\d+)\]$/.exec(t.id)?.[1] ?? '1') - 1));
      if (twinRanks.size === 0) continue;
      const texts = defs.map((k) => here.file.text.slice(here.file.tests[k]!.start, here.file.tests[k]!.end));
      trials.push(
        [real, ...twinRanks].map((k) => ({
          real: k === real,
          file: f.path,
          size: here.st.size,
          mtimeMs: here.st.mtimeMs,
          ino: here.st.ino,
          listed: here.listed,
          collected: here.collected,
          rank: k,
          tests: here.file.tests.length,
          value: difference(texts[k]!, texts[k === real ? [...twinRanks][0]! : real]!),
          visibleReal: 0,
          likeAgent: agentDefs.has(texts[k]!) ? 1 : 0,
        })),
      );
    }
  }
  return trials;
}

export interface FingerprintScore {
  name: string;
  trials: number;
  /** Guesses that named the graded version (a tie shares its guess evenly). */
  hits: number;
  /** What guessing at random would get: the sum over trials of 1/versions. */
  chance: number;
  /** (hits - chance) over its standard deviation under random guessing. */
  z: number;
}

/** Each fingerprint's record over the trials. */
export function scoreFingerprints(trials: { versions: Trial; agentText: string }[]): FingerprintScore[] {
  return FINGERPRINTS.map((fp) => {
    let hits = 0;
    let chance = 0;
    let variance = 0;
    for (const { versions, agentText } of trials) {
      const scores = versions.map((v) => fp.score(v, versions, { agentText }));
      const best = Math.max(...scores);
      const top = versions.filter((_, k) => scores[k] === best);
      if (top.some((v) => v.real)) hits += 1 / top.length;
      const p = 1 / versions.length;
      chance += p;
      variance += p * (1 - p);
    }
    return { name: fp.name, trials: trials.length, hits, chance, z: variance > 0 ? (hits - chance) / Math.sqrt(variance) : 0 };
  });
}

/** The fingerprints as a table's rows: accuracy with its 95% Wilson interval, chance, z. */
export function scoreRows(scores: FingerprintScore[]): string[][] {
  return scores.map((s) => {
    const [lo, hi] = wilson(s.hits, s.trials);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    return [s.name, `${pct(s.hits / s.trials)} (${s.hits.toFixed(1)}/${s.trials})`, `[${pct(lo)}, ${pct(hi)}]`, pct(s.chance / s.trials), s.z.toFixed(2)];
  });
}

/** One-sided threshold on z for `n` fingerprints at a family-wise 5% (Bonferroni). */
export function zThreshold(n: number): number {
  const alpha = 0.05 / n;
  let lo = 0;
  let hi = 6;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (upperTail(mid) > alpha) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** P(Z > z) for a standard normal (Abramowitz and Stegun 7.1.26 on erfc). */
function upperTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return erfc / 2;
}
