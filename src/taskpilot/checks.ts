// Checks the agent never saw, generated from the reference fix. The failing
// tests are copied with an input or two varied (grading/tests/variants.ts);
// one probe run of the suite on the fixed code (the snapshot: the reference
// fix restores it byte for byte) records what each equality assertion's
// actual value is there; a draft that passed and recorded one literal per
// assertion becomes a test expecting those values, written after the test it
// varies. The layout check (grading-check.ts) then keeps the checks that fail
// on the broken state and pass on the fix in its graded runs, with twins of
// their own: graded like held-back tests, never shown to the agent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuiltEnv } from '../env/build.js';
import { envWorkspace } from '../env/workspace.js';
import { runTests } from '../grading/testrun.js';
import { baseTestId, idStyle, indexDefs, readTestFile, type TestFile } from '../grading/tests/defs.js';
import { projectWords } from '../grading/tests/names.js';
import { draftValues, PROBE_OUT_ENV, probeFile, readCaptures } from '../grading/tests/probe.js';
import { projectTestFiles } from '../grading/tests/project.js';
import { draftChecks, withDrafts, type CheckDraft } from '../grading/tests/variants.js';
import type { Runtime } from '../runtime/types.js';
import { BoundedReadError, readBounded } from '../util/bounded-read.js';
import { shuffle } from '../util/rng.js';

/** Drafts probed per task, and failing tests they are drawn from. */
const MAX_DRAFTS = 8;
const DRAFTS_PER_TEST = 2;
const CAPTURE_FILE = 'frognano-probe.jsonl';
const MAX_CAPTURE_BYTES = 4 * 1024 * 1024;

export interface ChecksInput {
  built: BuiltEnv;
  runtime: Runtime;
  dataDir: string;
  f2p: readonly string[];
  timeoutSec: number;
}

export interface GeneratedChecks {
  /** The project's test files holding required tests, with the checks written in where there are any. */
  files: TestFile[];
  /** The checks' report ids. */
  ids: string[];
  /** Why there are none, where there are none. */
  none?: string;
}

/** Drafts for the failing tests that have an equality assertion and an input to vary (pytest parameters and repeated names left out). */
async function drafts(files: TestFile[], c: ChecksInput, random: () => number): Promise<CheckDraft[]> {
  const spec = c.built.env.spec;
  const style = idStyle(spec.test.report.format, spec.language);
  const index = indexDefs(files, style);
  const words = projectWords(files);
  const names = new Map(files.map((f) => [f.rel, new Set(f.tests.map((t) => t.path.at(-1)!))]));
  const out: CheckDraft[] = [];
  for (const id of shuffle([...c.f2p], random)) {
    if (out.length >= MAX_DRAFTS) break;
    if (/\[[^\]]*\]$/.test(id) || / \[\d+\]$/.test(id)) continue;
    const def = index.get(baseTestId(id, style));
    const file = def && files.find((f) => f.rel === def.file);
    if (!def || !file) continue;
    const count = Math.min(DRAFTS_PER_TEST, MAX_DRAFTS - out.length);
    out.push(...(await draftChecks(file, def, id, { count, names: names.get(file.rel)!, words, random })));
  }
  return out;
}

/** Drafts turned into checks by one run of the suite on the fixed code; null values where the run gave none. */
async function probe(files: TestFile[], all: CheckDraft[], c: ChecksInput): Promise<{ checks: { draft: CheckDraft; text: string }[]; problem?: string }> {
  const tagged = all.map((draft, tag) => ({ draft, tag }));
  const written = Object.fromEntries(
    files.flatMap((f) => {
      const mine = tagged.filter((d) => d.draft.file === f.rel);
      return mine.length ? [[f.rel, probeFile(f, mine)]] : [];
    }),
  );
  const ws = await envWorkspace(c.built, c.runtime, c.dataDir, {
    spares: false,
    prepare: (tree) => {
      for (const [rel, text] of Object.entries(written)) writeFileSync(join(tree.root, rel), text);
    },
  });
  try {
    const env = { [PROBE_OUT_ENV]: `${ws.runtime.outPath(ws.mounts)}/${CAPTURE_FILE}` };
    const run = await runTests(c.built.env.spec, ws, { timeoutSec: c.timeoutSec, env });
    if (run.outcome !== 'completed') return { checks: [], problem: `the probe run on the fix did not complete: ${run.reason ?? run.outcome}` };
    let text = '';
    try {
      text = readBounded(join(ws.mounts.outDir, CAPTURE_FILE), MAX_CAPTURE_BYTES).toString('utf8');
    } catch (err) {
      if (!(err instanceof BoundedReadError)) throw err;
    }
    const captures = readCaptures(text);
    const checks = tagged.flatMap(({ draft, tag }) => {
      const values = run.tests.get(draft.id)?.status === 'passed' ? draftValues(draft, tag, captures) : null;
      return values ? [{ draft, text: draft.final(values) }] : [];
    });
    return { checks };
  } finally {
    ws.dispose();
  }
}

/** The checks for a task's failing tests, written into their files (nothing is written where none survived the probe). */
export async function generateChecks(c: ChecksInput, random: () => number): Promise<GeneratedChecks> {
  const spec = c.built.env.spec;
  const files = await projectTestFiles(c.built.snapshot, spec, c.f2p);
  const all = await drafts(files, c, random);
  if (all.length === 0) return { files, ids: [], none: 'no failing test has an equality assertion with an input to vary' };
  const { checks, problem } = await probe(files, all, c);
  if (checks.length === 0) return { files, ids: [], none: problem ?? 'no varied test passed on the fix with a literal expected value' };
  const augmented = await Promise.all(
    files.map(async (f) => {
      const mine = checks.filter((k) => k.draft.file === f.rel);
      if (!mine.length) return f;
      return (
        (await readTestFile(
          f.rel,
          withDrafts(
            f,
            mine.map((k) => ({ after: k.draft.after, text: k.text })),
          ),
        )) ?? f
      );
    }),
  );
  return { files: augmented, ids: checks.map((k) => k.draft.id) };
}
