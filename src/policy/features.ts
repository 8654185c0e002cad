// Features of one candidate repair given what the policy observed (where failing traces point, names the tests and
// instruction use, naturalness, the kind of edit), as sparse vectors: dense slots, then hashed edit-kind slots.
// PRIOR lives beside the features it weighs: changing either means a new FEATURE_VERSION.
// See docs/decisions/2026-12-02-policy-features-and-prior.md.
import { createHash } from 'node:crypto';
import type { Repair } from './candidates.js';
import { occurrences, type Corpus } from './naturalness.js';
import { stemOf, TEST_PATH, words, type Failure, type Frame } from './observe.js';

export interface Sparse {
  idx: number[];
  val: number[];
}

export interface FeatureContext {
  frames: Frame[];
  failures: Failure[];
  /** Words of the failing tests: names, quoted lines, the test code read around them. */
  testWords: Set<string>;
  /** Words of the exact test lines the failing tests stopped at (the calls under test). */
  failLineWords?: Set<string>;
  instructionWords: Set<string>;
  /** `file:line` of repairs tried and undone. */
  tried: Set<string>;
  /** No failing test is visible (hidden tests): only the instruction guides. */
  blind: boolean;
  /** Stems of the failing tests' files ("lru" for tests/lru.test.js). */
  testedStems: Set<string>;
  /** The source read so far, for the naturalness features (none: those features are 0). */
  corpus?: Corpus;
}

/** The dense features, in slot order. */
export const DENSE_FEATURES = [
  'inFrame',
  'near',
  'fileInFrames',
  'depthScore',
  'fnInTests',
  'fnInInstr',
  'lineTestOverlap',
  'lineInstrOverlap',
  'tried',
  'blindFnInInstr',
  'fnInMessage',
  'fnInTestsNear',
  'testedStem',
  // Shares of failing tests whose trace passes within 1 / 3 lines, whose innermost source frame is within 3 lines,
  // whose trace passes through the candidate's function; the function is called on a line a failing test stopped at.
  'cov1',
  'cov3',
  'innermost',
  'fnOnStack',
  'fnCalled',
  // How common the repaired token sequence is in the code read, and that less how common the replaced one is
  // (naturalness.ts): which edit, in terms that hold in any code base.
  'natAfter',
  'natGain',
] as const;
export type DenseFeature = (typeof DENSE_FEATURES)[number];
export const slotOf = (name: DenseFeature): number => DENSE_FEATURES.indexOf(name);

/**
 * The untrained policy's weights: where a person would look first, nothing about which edit to make. Without them the
 * policy would almost never solve a task, so never learn. Training moves these and learns the rest from zero.
 */
export const PRIOR: Partial<Record<DenseFeature, number>> = {
  cov1: 2,
  cov3: 1,
  innermost: 1,
  fnOnStack: 1.5,
  fnCalled: 2,
  fnInTests: 1,
  fnInInstr: 1.5,
  testedStem: 1,
  tried: -1,
};

// No per-operator slots: an operator's own weight learned the curriculum's operator mix rather than a skill.
export const HASH_BASE = DENSE_FEATURES.length;
const HASH_SLOTS = 512;
export const FEATURE_DIM = HASH_BASE + HASH_SLOTS;
export const FEATURE_VERSION = 4;

/** The prior as a weight vector. */
export function priorWeights(): Float64Array {
  const w = new Float64Array(FEATURE_DIM);
  for (const name of DENSE_FEATURES) w[slotOf(name)] = PRIOR[name] ?? 0;
  return w;
}

const slots = new Map<string, number>();

/** Memoized: a decision hashes three keys per candidate, and candidates recur across decisions and rollouts. */
function hashSlot(key: string): number {
  let slot = slots.get(key);
  if (slot === undefined) {
    if (slots.size >= 100_000) slots.clear();
    slots.set(key, (slot = HASH_BASE + (createHash('md5').update(key).digest().readUInt32LE(0) % HASH_SLOTS)));
  }
  return slot;
}

const FN_RE =
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|function\*?|class)\s+([A-Za-z_$][\w$]*)|^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)|^\s*(?:(?:public|private|protected|static|async|get|set|readonly)\s+)*([A-Za-z_$][\w$]*)\s*(?:=\s*(?:async\s*)?\([^)]*\)\s*=>|\([^)]*\)\s*(?::\s*[^{]+)?\{)/;

const fnCache = new Map<string, string[]>();

/** The name of the function or class each line belongs to (nearest definition above). */
export function enclosingNames(text: string): string[] {
  const hit = fnCache.get(text);
  if (hit) return hit;
  const out: string[] = [];
  let current = '';
  for (const line of linesOf(text)) {
    const m = FN_RE.exec(line);
    const name = m?.[1] ?? m?.[2] ?? m?.[3];
    if (name && !['if', 'for', 'while', 'switch', 'catch', 'return', 'function'].includes(name)) current = name;
    out.push(current);
  }
  if (fnCache.size > 500) fnCache.clear();
  fnCache.set(text, out);
  return out;
}

/**
 * An edit's text with names and literals abstracted ("'expire', node" reads
 * "s, a"; small integers stay): edit kinds that carry over between code bases.
 */
export function shapeOf(code: string): string {
  return code
    .replace(/(['"`])(?:\\.|(?!\1).)*\1/g, 's')
    .replace(/\b(?:0|1|2|-1)\b|\b\d+(?:\.\d+)?\b/g, (n) => (['0', '1', '2'].includes(n) ? n : 'n'))
    .replace(/\b(?!s\b|n\b)[A-Za-z_$][\w$]*\b/g, (w) =>
      ['true', 'false', 'null', 'undefined', 'None', 'True', 'False', 'not', 'and', 'or', 'in', 'is'].includes(w) ? w : 'a',
    )
    .replace(/\s+/g, ' ');
}

const linesCache = new Map<string, string[]>();
function linesOf(text: string): string[] {
  let hit = linesCache.get(text);
  if (!hit) {
    if (linesCache.size > 500) linesCache.clear();
    linesCache.set(text, (hit = text.split('\n')));
  }
  return hit;
}

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0) return 0;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / a.size;
}

/** What every candidate of one decision reads from the context, computed once per context rather than per candidate. */
const derivedCache = new WeakMap<FeatureContext, { traces: Frame[][]; messages: string }>();
function derived(ctx: FeatureContext): { traces: Frame[][]; messages: string } {
  let d = derivedCache.get(ctx);
  if (!d) {
    const by = new Map<number, Frame[]>();
    for (const f of ctx.frames) {
      if (TEST_PATH.test(f.file)) continue;
      const k = f.failure ?? 0;
      const trace = by.get(k);
      if (trace) trace.push(f);
      else by.set(k, [f]);
    }
    derivedCache.set(ctx, (d = { traces: [...by.values()], messages: ctx.failures.map((f) => f.message).join('\n') }));
  }
  return d;
}

/** Shares of failing tests whose traces pass near the candidate (see DENSE_FEATURES). */
function coverage(r: Repair, fnOf: string[], ctx: FeatureContext): { cov1: number; cov3: number; innermost: number; fnOnStack: number } {
  const fn = fnOf[r.line - 1] ?? '';
  let cov1 = 0,
    cov3 = 0,
    innermost = 0,
    fnOnStack = 0;
  const all = derived(ctx).traces;
  for (const trace of all) {
    let d = Infinity,
      onStack = false;
    trace.forEach((f, i) => {
      if (f.file !== r.file) return;
      const dist = Math.abs(f.line - r.line);
      d = Math.min(d, dist);
      if (i === 0 && dist <= 3) innermost++;
      if (fn && fnOf[f.line - 1] === fn) onStack = true;
    });
    if (d <= 1) cov1++;
    if (d <= 3) cov3++;
    if (onStack) fnOnStack++;
  }
  const n = Math.max(1, all.length);
  return { cov1: cov1 / n, cov3: cov3 / n, innermost: innermost / n, fnOnStack: fnOnStack / n };
}

/** What a candidate's features read from its own file, the same in every context (candidates are cached per file text). */
interface Own {
  text: string;
  fn: string;
  fnWords: Set<string>;
  lineWords: Set<string>;
  shape: string;
  /** Hashed edit-kind slots by the failures' error type. */
  slots: Map<string, number[]>;
}
const own = new WeakMap<Repair, Own>();

function ownOf(r: Repair, text: string): Own {
  const hit = own.get(r);
  if (hit?.text === text) return hit;
  const fn = enclosingNames(text)[r.line - 1] ?? '';
  const o = {
    text,
    fn,
    fnWords: fn ? words(fn) : new Set<string>(),
    lineWords: words(linesOf(text)[r.line - 1] ?? ''),
    shape: `${shapeOf(r.before)}\u2192${shapeOf(r.after)}`,
    slots: new Map<string, number[]>(),
  };
  own.set(r, o);
  return o;
}

export function featurize(r: Repair, text: string, ctx: FeatureContext): Sparse {
  const fnOf = enclosingNames(text);
  const mine = ownOf(r, text);
  const { fn, fnWords, lineWords } = mine;
  let inFrame = 0,
    near = 0,
    fileInFrames = 0,
    depthScore = 0;
  for (const f of ctx.frames) {
    if (f.file !== r.file) continue;
    fileInFrames = 1;
    const d = Math.abs(f.line - r.line);
    if (d === 0) {
      inFrame = 1;
      depthScore = Math.max(depthScore, 1 / (1 + f.depth));
    }
    near = Math.max(near, Math.exp(-d / 3));
  }
  const fnInTests = fn && (ctx.testWords.has(fn.toLowerCase()) || overlap(fnWords, ctx.testWords) >= 0.5) ? 1 : 0;
  const fnInInstr = fn && (ctx.instructionWords.has(fn.toLowerCase()) || overlap(fnWords, ctx.instructionWords) >= 0.5) ? 1 : 0;
  const fnInMessage = fn && derived(ctx).messages.includes(fn) ? 1 : 0;
  const fnCalled = fn && ctx.failLineWords?.has(fn.toLowerCase()) ? 1 : 0;
  const cov = coverage(r, fnOf, ctx);
  const seen = ctx.corpus ? occurrences(text, r.start, r.end, r.text, ctx.corpus) : { before: 0, after: 0 };
  const natAfter = Math.log1p(seen.after);
  const values: Record<DenseFeature, number> = {
    inFrame,
    near,
    fileInFrames,
    depthScore,
    fnInTests,
    fnInInstr,
    lineTestOverlap: overlap(lineWords, ctx.testWords),
    lineInstrOverlap: overlap(lineWords, ctx.instructionWords),
    tried: ctx.tried.has(`${r.file}:${r.line}`) ? 1 : 0,
    blindFnInInstr: ctx.blind ? fnInInstr : 0,
    fnInMessage,
    fnInTestsNear: ctx.blind ? 0 : fnInTests * near,
    testedStem: ctx.testedStems.has(stemOf(r.file)) ? 1 : 0,
    ...cov,
    fnCalled,
    natAfter,
    natGain: ctx.corpus ? natAfter - Math.log1p(Math.max(0, seen.before - 1)) : 0,
  };
  const idx: number[] = [];
  const val: number[] = [];
  DENSE_FEATURES.forEach((name, i) => {
    const v = values[name];
    if (v) {
      idx.push(i);
      val.push(v);
    }
  });
  const errorType = ctx.failures[0]?.errorType ?? 'none';
  let kinds = mine.slots.get(errorType);
  if (!kinds) {
    const keys = [`s:${r.operator}:${mine.shape}`, `e:${r.operator}:${errorType}`, `se:${mine.shape}:${errorType}`];
    mine.slots.set(errorType, (kinds = keys.map(hashSlot)));
  }
  for (const slot of kinds) {
    const at = idx.indexOf(slot);
    if (at >= 0) val[at]! += 1;
    else {
      idx.push(slot);
      val.push(1);
    }
  }
  return { idx, val };
}
