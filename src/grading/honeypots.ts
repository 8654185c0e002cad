// Honeypots drawn from the project's own tests. A twin is a copy of a
// required test, with the same name, that expects one specific wrong value
// (contradict.ts). JavaScript twins sit in the test's own file, right before
// or after it in the same suite; Python twins sit in copies of the test's
// file under fresh names in the project's style, beside the required file,
// which the graded run moves to a fresh name too (layout.ts). Nothing about a
// twin (name, body, file, place, owner, mode, times) is fixed across tasks or
// differs from the project's tests except the value it expects. The plan is
// checked on the broken state and the reference fix before a task keeps it.
import type { GradingLayout } from '../task/task.js';
import { posix } from 'node:path';
import { shuffle } from '../util/rng.js';
import { contradict, contradictionSites, type Site } from './tests/contradict.js';
import { baseTestId, indexDefs, testIdOf, type IdStyle, type TestDef, type TestFile } from './tests/defs.js';
import { editTests } from './tests/edit.js';
import { freshTestPath, projectWords } from './tests/names.js';

export interface HoneypotInput {
  /** The project's test files (the snapshot's), parsed. */
  files: TestFile[];
  style: IdStyle;
  f2p: readonly string[];
  p2p: readonly string[];
  /** Ids a clean run reported: a test whose name already repeats is left alone. */
  reportIds: ReadonlySet<string>;
  /** Paths in use in the snapshot (new names must differ). */
  taken: Set<string>;
  random: () => number;
}

export type HoneypotPlan = Omit<GradingLayout, 'relocate' | 'repeats'>;

/** Every twin is at most this many, so graded runs stay close to the suite's own time. */
export const MAX_TWINS = 16;

interface Unit {
  def: TestDef;
  file: TestFile;
  sites: Site[];
  /** The required ids this definition reports (pytest parameters give several). */
  ids: string[];
  twins: number;
}

/** Required tests that can carry twins: found once in the files, not repeated in reports, with an expectation to change. */
async function units(input: HoneypotInput): Promise<{ f2p: Unit[]; p2p: Unit[] }> {
  const index = indexDefs(input.files, input.style);
  const sites = new Map<TestFile, Site[][]>();
  for (const f of input.files) sites.set(f, await contradictionSites(f));
  const byDef = new Map<TestDef, Unit>();
  const collect = (ids: readonly string[]) => {
    const out: Unit[] = [];
    for (const id of ids) {
      const def = index.get(baseTestId(id, input.style));
      if (!def || input.reportIds.has(`${id} [2]`)) continue;
      const file = input.files.find((f) => f.rel === def.file)!;
      const s = sites.get(file)![file.tests.indexOf(def)]!;
      if (s.length === 0) continue;
      const unit = byDef.get(def) ?? { def, file, sites: s, ids: [], twins: 0 };
      if (!byDef.has(def)) {
        byDef.set(def, unit);
        out.push(unit);
      }
      unit.ids.push(id);
    }
    return out;
  };
  return { f2p: collect(input.f2p), p2p: collect(input.p2p) };
}

/** Which required tests get twins, and how many: every failing one (1 or 2 each), and 1 to 3 passing ones. */
function choose(all: { f2p: Unit[]; p2p: Unit[] }, random: () => number): Unit[] {
  const chosen: Unit[] = [];
  let budget = MAX_TWINS;
  for (const u of shuffle(all.f2p, random)) {
    u.twins = Math.min(budget, random() < 0.5 ? 1 : 2);
    budget -= u.twins;
    if (u.twins > 0) chosen.push(u);
  }
  for (const u of shuffle(all.p2p, random).slice(0, 1 + Math.floor(random() * 3))) {
    if (budget <= 0) break;
    u.twins = 1;
    budget--;
    chosen.push(u);
  }
  return chosen;
}

/** A report id's n-th occurrence (0-based): later ones carry the parser's repeat suffix. */
const occurrence = (id: string, n: number) => (n === 0 ? id : `${id} [${n + 1}]`);

/** JavaScript: twins beside each chosen test in its own file; the test's place among them is drawn. */
function sameFileTwins(file: TestFile, chosen: Unit[], style: IdStyle, random: () => number, plan: HoneypotPlan): void {
  const edits = new Map<TestDef, string>();
  for (const u of chosen) {
    const copies = Array.from({ length: u.twins }, () => contradict(file, u.def, u.sites, random)).filter((t): t is string => t !== null);
    if (copies.length === 0) continue;
    const rank = Math.floor(random() * (copies.length + 1));
    const own = file.text.slice(u.def.start, u.def.end);
    edits.set(u.def, [...copies.slice(0, rank), own, ...copies.slice(rank)].join(`\n${u.def.indent}`));
    // The id the report gave this test, whichever of the JavaScript namings the runner uses.
    const id = u.ids[0] ?? testIdOf(u.def, style);
    for (let n = 0; n <= copies.length; n++) {
      if (n === rank) {
        if (n > 0) plan.renamed[occurrence(id, n)] = id;
      } else plan.twins.push({ id: occurrence(id, n), of: id });
    }
  }
  if (edits.size) plan.files.push({ path: file.rel, content: editTests(file, edits), like: file.rel });
}

/**
 * Python (and ava): the k-th copy of a file holds the k-th twin of each
 * chosen test, everything of the file that is not a test, and a few of its
 * other tests unchanged (their results are ignored), so copies vary in size.
 * `twinId` names a twin in the copy from the id of the test it copies.
 */
function copiedTwins(
  file: TestFile,
  chosen: Unit[],
  random: () => number,
  taken: Set<string>,
  plan: HoneypotPlan,
  naming: { twinId: (id: string, copy: string) => string; record: (copy: string, example: string) => void },
): void {
  const rounds = Math.max(0, ...chosen.map((u) => u.twins));
  for (let k = 0; k < rounds; k++) {
    const edits = new Map<TestDef, string | null>();
    const mine: { id: string; of: string }[] = [];
    let decoys = 0;
    for (const def of file.tests) {
      const u = chosen.find((c) => c.def === def && c.twins > k);
      const twin = u ? contradict(file, def, u.sites, random) : null;
      if (u && twin) {
        edits.set(def, twin);
        mine.push(...u.ids.map((id) => ({ id, of: id })));
      } else if (!chosen.some((c) => c.def === def) && decoys < 3 && random() < 0.2) decoys++;
      else edits.set(def, null);
    }
    if (mine.length === 0) continue;
    const path = freshTestPath(file.rel, plan.words, taken, random);
    plan.files.push({ path, content: editTests(file, edits), like: file.rel });
    naming.record(path, mine[0]!.id);
    for (const t of mine) plan.twins.push({ id: naming.twinId(t.id, path), of: t.of });
  }
}

const AVA_SEP = ' \u203a ';

/** ava's name for a file: its base name without .test/.spec, test- and extension (ava's own rule). */
function avaStem(path: string): string {
  return posix
    .basename(path)
    .replace(/\.spec\./, '.')
    .replace(/\.test\./, '.')
    .replace(/test-/, '')
    .replace(/\.[cm]?[jt]sx?$/, '');
}

/** An ava id "test › math › adds" of a test in `copy` (same folder): the file's stem replaced. */
function avaCopyId(id: string, title: string, copy: string): string {
  const prefix = id.slice(0, id.length - title.length - AVA_SEP.length).split(AVA_SEP);
  return [...prefix.slice(0, -1), avaStem(copy), title].join(AVA_SEP);
}

/** The honeypots for a task's required tests, or null when none of them can carry one. */
export async function planHoneypots(input: HoneypotInput): Promise<HoneypotPlan | null> {
  const chosen = choose(await units(input), input.random);
  const plan: HoneypotPlan = { files: [], twins: [], renamed: {}, copies: [], words: projectWords(input.files) };
  for (const file of input.files) {
    const here = chosen.filter((u) => u.file === file);
    if (here.length === 0) continue;
    if (file.lang === 'python') {
      copiedTwins(file, here, input.random, input.taken, plan, {
        twinId: (id, copy) => copy + id.slice(file.rel.length),
        record: (copy) => plan.copies.push(copy),
      });
    } else if (here.every((u) => u.def.path.length === 1 && u.ids.every((id) => id.endsWith(`${AVA_SEP}${u.def.path[0]}`)))) {
      // ava refuses a title twice in one file; its twins go in copies, whose tests ava names by the copy's stem.
      const title = (id: string) => here.find((u) => u.ids.includes(id))!.def.path[0]!;
      copiedTwins(file, here, input.random, input.taken, plan, {
        twinId: (id, copy) => avaCopyId(id, title(id), copy),
        record: (copy, example) => {
          const twin = avaCopyId(example, title(example), copy);
          (plan.copyPrefixes ??= []).push(twin.slice(0, twin.length - title(example).length - AVA_SEP.length));
        },
      });
    } else sameFileTwins(file, here, input.style, input.random, plan);
  }
  return plan.twins.length ? plan : null;
}
