// Features of one candidate repair in the context of what the policy has
// observed: where the failing tests' stack frames point, which functions the
// failing tests and the instruction name, the error type, and the kind of
// edit (operator, and the text it turns into what). Sparse vectors over a
// fixed dimension: dense slots first, then hashed edit-kind slots.
import { createHash } from 'node:crypto';
import { OPERATORS } from '../taskpilot/procedural/index.js';
import type { Repair } from './candidates.js';
import { stemOf, words, type Failure, type Frame } from './observe.js';

export interface Sparse {
  idx: number[];
  val: number[];
}

export interface FeatureContext {
  frames: Frame[];
  failures: Failure[];
  /** Words of the failing tests: names, quoted lines, the test code read around them. */
  testWords: Set<string>;
  instructionWords: Set<string>;
  /** `file:line` of repairs tried and undone. */
  tried: Set<string>;
  /** No failing test is visible (hidden tests): only the instruction guides. */
  blind: boolean;
  /** Stems of the failing tests' files ("lru" for tests/lru.test.js). */
  testedStems: Set<string>;
}

const OPS = OPERATORS.map((o) => o.name);
const NOPS = OPS.length;
const DENSE = 13;
const OP_BASE = DENSE;
const OP_FRAME = OP_BASE + NOPS;
const OP_TESTFN = OP_FRAME + NOPS;
const HASH_BASE = OP_TESTFN + NOPS;
const HASH_SLOTS = 512;
export const FEATURE_DIM = HASH_BASE + HASH_SLOTS;
export const FEATURE_VERSION = 1;

function hashSlot(key: string): number {
  return HASH_BASE + (createHash('md5').update(key).digest().readUInt32LE(0) % HASH_SLOTS);
}

const FN_RE = /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|function\*?|class)\s+([A-Za-z_$][\w$]*)|^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)|^\s*(?:(?:public|private|protected|static|async|get|set|readonly)\s+)*([A-Za-z_$][\w$]*)\s*(?:=\s*(?:async\s*)?\([^)]*\)\s*=>|\([^)]*\)\s*(?::\s*[^{]+)?\{)/;

const fnCache = new Map<string, string[]>();

/** The name of the function or class each line belongs to (nearest definition above). */
export function enclosingNames(text: string): string[] {
  const hit = fnCache.get(text);
  if (hit) return hit;
  const out: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    const m = FN_RE.exec(line);
    const name = m?.[1] ?? m?.[2] ?? m?.[3];
    if (name && !['if', 'for', 'while', 'switch', 'catch', 'return', 'function'].includes(name)) current = name;
    out.push(current);
  }
  if (fnCache.size > 500) fnCache.clear();
  fnCache.set(text, out);
  return out;
}

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0) return 0;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / a.size;
}

export function featurize(r: Repair, text: string, ctx: FeatureContext): Sparse {
  const lines = text.split('\n');
  const fn = enclosingNames(text)[r.line - 1] ?? '';
  const fnWords = fn ? words(fn) : new Set<string>();
  const lineWords = words(lines[r.line - 1] ?? '');
  let inFrame = 0, near = 0, fileInFrames = 0, depthScore = 0;
  for (const f of ctx.frames) {
    if (f.file !== r.file) continue;
    fileInFrames = 1;
    const d = Math.abs(f.line - r.line);
    if (d === 0) { inFrame = 1; depthScore = Math.max(depthScore, 1 / (1 + f.depth)); }
    near = Math.max(near, Math.exp(-d / 3));
  }
  const fnInTests = fn && (ctx.testWords.has(fn.toLowerCase()) || overlap(fnWords, ctx.testWords) >= 0.5) ? 1 : 0;
  const fnInInstr = fn && (ctx.instructionWords.has(fn.toLowerCase()) || overlap(fnWords, ctx.instructionWords) >= 0.5) ? 1 : 0;
  const messages = ctx.failures.map((f) => f.message).join('\n');
  const fnInMessage = fn && messages.includes(fn) ? 1 : 0;
  const dense = [
    inFrame, near, fileInFrames, depthScore, fnInTests, fnInInstr,
    overlap(lineWords, ctx.testWords), overlap(lineWords, ctx.instructionWords),
    ctx.tried.has(`${r.file}:${r.line}`) ? 1 : 0, ctx.blind ? fnInInstr : 0, fnInMessage, ctx.blind ? 0 : fnInTests * near,
    ctx.testedStems.has(stemOf(r.file)) ? 1 : 0,
  ];
  const idx: number[] = [];
  const val: number[] = [];
  dense.forEach((v, i) => { if (v) { idx.push(i); val.push(v); } });
  const op = OPS.indexOf(r.operator);
  if (op >= 0) {
    idx.push(OP_BASE + op); val.push(1);
    if (inFrame || near > 0.5) { idx.push(OP_FRAME + op); val.push(Math.max(inFrame, near)); }
    if (fnInTests || fnInInstr) { idx.push(OP_TESTFN + op); val.push(1); }
  }
  const kind = `${r.before}\u2192${r.after}`;
  const errorType = ctx.failures[0]?.errorType ?? 'none';
  for (const key of [`k:${r.operator}:${kind}`, `e:${r.operator}:${errorType}`, `ke:${kind}:${errorType}`]) {
    const slot = hashSlot(key);
    const at = idx.indexOf(slot);
    if (at >= 0) val[at]! += 1;
    else { idx.push(slot); val.push(1); }
  }
  return { idx, val };
}
