// How long a fresh cell takes to reach its first checkpoint (task banks, the untrained policy's evaluation, step 1),
// read from the cells already run, so that a chunk does not start a cell it could only save by overrunning its hours.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../util/guards.js';
import { cellDir, type Cell } from './protocol.js';

/** The first metrics line is about 2 KB; more than this is not a metrics file of ours. */
const FIRST_LINE_MAX = 64 * 1024;

/** Minutes from a run's start to the end of its step 1 (its first checkpoint); null when it has none yet. */
export function firstStepMinutesOf(runDir: string): number | null {
  let text: string;
  try {
    const fd = openSync(join(runDir, 'metrics.jsonl'), 'r');
    try {
      const buf = Buffer.alloc(FIRST_LINE_MAX);
      text = buf.subarray(0, readSync(fd, buf, 0, FIRST_LINE_MAX, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const end = text.indexOf('\n');
  if (end < 0) return null;
  try {
    const m: unknown = JSON.parse(text.slice(0, end));
    return isRecord(m) && m.step === 1 && typeof m.elapsedMs === 'number' ? m.elapsedMs / 60_000 : null;
  } catch {
    return null;
  }
}

export interface FirstStepEstimate {
  minutes: number;
  /** The cell it was measured on. */
  from: string;
}

/**
 * The longest first step among cells of the same curriculum, from the nearest tier that has one: the same held-out
 * environment, then one of the same language, then any. The first cell of a group also builds its held-out bank, so
 * the estimate errs long for the cells after it. Null before any cell of the curriculum has run.
 */
export function firstStepEstimate(
  cell: Cell,
  cells: readonly Cell[],
  runDirOf: (c: Cell) => string,
  languageOf: (env: string) => string | undefined,
): FirstStepEstimate | null {
  const seen = cells
    .filter((c) => c.id !== cell.id && c.arm.curriculum === cell.arm.curriculum)
    .map((c) => ({ c, minutes: firstStepMinutesOf(runDirOf(c)) }))
    .filter((x): x is { c: Cell; minutes: number } => x.minutes !== null);
  const language = languageOf(cell.group.heldOut);
  const tiers = [
    seen.filter((x) => x.c.group.heldOut === cell.group.heldOut),
    seen.filter((x) => language !== undefined && languageOf(x.c.group.heldOut) === language),
    seen,
  ];
  const tier = tiers.find((t) => t.length > 0);
  if (!tier) return null;
  const longest = tier.reduce((a, b) => (b.minutes > a.minutes ? b : a));
  return { minutes: longest.minutes, from: longest.c.id };
}

/**
 * Why a chunk with `minutesLeft` should not start `cell` (null: start it). A fresh cell is saved only at the end of its
 * step 1, so one that cannot get there in the time left waits for the next chunk; a resumed one saves after a step.
 */
export function waitsForNextChunk(
  cell: Cell,
  cells: readonly Cell[],
  outDir: string,
  languageOf: (env: string) => string | undefined,
  minutesLeft: number,
): string | null {
  const runDirOf = (c: Cell) => cellDir(outDir, c.id);
  if (existsSync(join(runDirOf(cell), 'state.json'))) return null;
  const need = firstStepEstimate(cell, cells, runDirOf, languageOf);
  if (!need || need.minutes <= minutesLeft) return null;
  return `stopping with ${minutesLeft.toFixed(1)} min left: ${cell.id} would need about ${need.minutes.toFixed(1)} min to its first checkpoint (as ${need.from} took); rerun to continue`;
}
