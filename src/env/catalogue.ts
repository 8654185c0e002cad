// The catalogue: public repositories pinned to a commit, each with what
// `env add` needs beyond inference (usually nothing) and the figures of its
// last verification. Repositories are cloned at use, never vendored here.
// FROGNANO_CATALOGUE points at another catalogue file (a private one, or the
// tests' local fixtures).
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '../util/errors.js';
import { catalogueFile } from '../util/paths.js';
import { LANGUAGES } from './spec.js';
import { RUNNERS } from './runners/types.js';

const Verified = z.object({
  /** Day of the trial, and the snapshot's commit it ran on (the entry's own). */
  date: z.string(),
  accepted: z.boolean(),
  tests: z.number().int(),
  /** Seconds of the two reference runs of `env check`, and of the whole check with its build. */
  runSeconds: z.array(z.number()),
  checkSeconds: z.number(),
  /** Procedural synthesis: candidates tried and valid tasks. */
  candidates: z.number().int(),
  valid: z.number().int(),
  /** Valid tasks on which the reference fix earned reward 1 (scripted:oracle through the verifier). */
  referenceSolved: z.number().int(),
  notes: z.string().optional(),
});

const Entry = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/),
  /** Where to clone from, and the commit every use checks out. */
  git: z.string().min(1),
  commit: z.string().regex(/^[0-9a-f]{7,40}$/),
  language: z.enum(LANGUAGES),
  runner: z.enum(RUNNERS),
  /** What inference needs told for this repository; absent for zero-flag entries. */
  flags: z
    .object({
      testCommand: z.string().optional(),
      env: z.record(z.string(), z.string()).optional(),
      testPaths: z.array(z.string()).optional(),
    })
    .strict()
    .optional(),
  description: z.string(),
  verified: Verified.optional(),
});

const Catalogue = z.object({ schema: z.literal('frognano.catalogue/v1'), entries: z.array(Entry) });

export type CatalogueEntry = z.infer<typeof Entry>;

export function cataloguePath(): string {
  return process.env.FROGNANO_CATALOGUE || catalogueFile;
}

export function loadCatalogue(path = cataloguePath()): CatalogueEntry[] {
  if (!existsSync(path)) throw new UserError(`no catalogue at ${path}`, 'unset FROGNANO_CATALOGUE, or point it at a catalogue file');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UserError(`the catalogue ${path} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = Catalogue.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new UserError(`the catalogue ${path} is malformed: ${first ? `${first.path.join('.')}: ${first.message}` : 'unknown problem'}`);
  }
  const names = parsed.data.entries.map((e) => e.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new UserError(`the catalogue ${path} names "${twice}" twice`);
  return parsed.data.entries;
}

export function catalogueEntry(name: string, path = cataloguePath()): CatalogueEntry {
  const entries = loadCatalogue(path);
  const entry = entries.find((e) => e.name === name);
  if (!entry) {
    throw new UserError(`no catalogue entry named "${name}"`, `known: ${entries.map((e) => e.name).join(', ') || '(none)'}; frognano env catalogue lists them`);
  }
  return entry;
}

export interface CatalogueFilter {
  language?: string;
  runner?: string;
  /** Least procedural yield (valid / candidates) of the entry's verification, 0 to 1. */
  minYield?: number;
}

/** The yield of an entry's verification, or null when it has none. */
export function entryYield(e: CatalogueEntry): number | null {
  const v = e.verified;
  return v && v.candidates > 0 ? v.valid / v.candidates : null;
}

export function filterCatalogue(entries: CatalogueEntry[], f: CatalogueFilter): CatalogueEntry[] {
  return entries.filter(
    (e) =>
      (!f.language || e.language === f.language) &&
      (!f.runner || e.runner === f.runner) &&
      (f.minYield === undefined || (entryYield(e) ?? 0) >= f.minYield) &&
      (e.verified?.accepted ?? true),
  );
}
