// Sparse weight rows, the AdamW step and the checkpoint format of the tiny model. A table row that
// was never written is all zeros and is not stored; Adam's moments exist only
// for rows that have had a gradient. The step is the dense AdamW's, exactly:
// a row without moments moves only by weight decay, which is nothing when the
// row is zero, so skipping absent rows changes no number.
import type { AdamParams } from '../tinker/types.js';

/** Row index -> its V weights. */
export type SparseRows = Map<number, Float64Array>;

export function copyRows(rows: SparseRows): SparseRows {
  return new Map([...rows].map(([row, values]) => [row, Float64Array.from(values)]));
}

/** The row, created (zeros) when absent. */
export function rowOf(rows: SparseRows, row: number, width: number): Float64Array {
  let values = rows.get(row);
  if (!values) {
    values = new Float64Array(width);
    rows.set(row, values);
  }
  return values;
}

/**
 * Rows as JSON data: [row, base64 of the row's little-endian float64s] pairs
 * in row order, all-zero rows left out. Base64 keeps every bit and is about a
 * third the size of decimal text (a full 8192 x 300 table is ~26 MB).
 */
export function rowsToJson(rows: SparseRows): [number, string][] {
  return [...rows]
    .filter(([, values]) => values.some((v) => v !== 0))
    .sort(([a], [b]) => a - b)
    .map(([row, values]) => {
      const bytes = Buffer.alloc(values.length * 8);
      values.forEach((v, j) => bytes.writeDoubleLE(v, j * 8));
      return [row, bytes.toString('base64')];
    });
}

/** Reads rowsToJson's output back, checking every row index and value; `what` names the field in errors. */
export function rowsFromJson(data: unknown, what: string, rowCount: number, width: number): SparseRows {
  if (!Array.isArray(data)) throw new Error(`${what} must be an array of [row, base64 values] pairs`);
  const rows: SparseRows = new Map();
  for (const entry of data) {
    if (!Array.isArray(entry) || entry.length !== 2) throw new Error(`${what}: each entry must be a [row, base64 values] pair`);
    const [row, encoded]: unknown[] = entry;
    if (typeof row !== 'number' || !Number.isInteger(row) || row < 0 || row >= rowCount) {
      throw new Error(`${what}: row index ${String(row)} is not an integer in [0, ${rowCount})`);
    }
    if (rows.has(row)) throw new Error(`${what}: row ${row} appears twice`);
    const bytes = typeof encoded === 'string' ? Buffer.from(encoded, 'base64') : undefined;
    if (!bytes || bytes.length !== width * 8) throw new Error(`${what}: row ${row} must be base64 of ${width} float64 values`);
    const values = new Float64Array(width);
    for (let j = 0; j < width; j++) {
      values[j] = bytes.readDoubleLE(j * 8);
      if (!Number.isFinite(values[j])) throw new Error(`${what}: row ${row} has a non-finite value at ${j}`);
    }
    rows.set(row, values);
  }
  return rows;
}

export interface AdamState {
  /** Steps taken; bias correction uses it. */
  step: number;
  m: SparseRows;
  v: SparseRows;
}

export function emptyAdamState(): AdamState {
  return { step: 0, m: new Map(), v: new Map() };
}

export function copyAdamState(state: AdamState): AdamState {
  return { step: state.step, m: copyRows(state.m), v: copyRows(state.v) };
}

function checkParams(p: AdamParams): void {
  const ok =
    Number.isFinite(p.learning_rate) &&
    p.learning_rate >= 0 &&
    p.beta1 >= 0 &&
    p.beta1 < 1 &&
    p.beta2 >= 0 &&
    p.beta2 < 1 &&
    p.eps > 0 &&
    Number.isFinite(p.weight_decay) &&
    p.weight_decay >= 0;
  if (!ok) throw new Error(`invalid adam_params ${JSON.stringify(p)}: need learning_rate >= 0, 0 <= beta1, beta2 < 1, eps > 0, weight_decay >= 0`);
}

/**
 * One AdamW step (decoupled weight decay, as optax.adamw in SkyRL's JAX
 * backend and torch AdamW in skyrl_train): m = b1 m + (1-b1) g,
 * v = b2 v + (1-b2) g², w -= lr (m̂ / (sqrt(v̂) + eps) + wd w) with m̂ = m/(1-b1^t),
 * v̂ = v/(1-b2^t). Returns the gradient's global L2 norm.
 */
export function adamwStep(weights: SparseRows, grads: SparseRows, state: AdamState, p: AdamParams, width: number): number {
  checkParams(p);
  state.step += 1;
  const bc1 = 1 - p.beta1 ** state.step;
  const bc2 = 1 - p.beta2 ** state.step;
  let sq = 0;
  for (const [row, g] of grads) {
    const m = rowOf(state.m, row, width);
    const v = rowOf(state.v, row, width);
    for (let j = 0; j < width; j++) {
      sq += g[j]! * g[j]!;
      m[j] = p.beta1 * m[j]! + (1 - p.beta1) * g[j]!;
      v[j] = p.beta2 * v[j]! + (1 - p.beta2) * g[j]! * g[j]!;
    }
  }
  // Rows with moments but no gradient this step still decay their moments, as dense Adam's zero gradient would.
  for (const [row, m] of state.m) {
    if (grads.has(row)) continue;
    const v = state.v.get(row)!;
    for (let j = 0; j < width; j++) {
      m[j] = p.beta1 * m[j]!;
      v[j] = p.beta2 * v[j]!;
    }
  }
  const touched = new Set<number>(state.m.keys());
  if (p.weight_decay > 0) for (const row of weights.keys()) touched.add(row);
  for (const row of touched) {
    const w = rowOf(weights, row, width);
    const m = state.m.get(row);
    const v = state.v.get(row);
    for (let j = 0; j < width; j++) {
      const adam = m && v ? m[j]! / bc1 / (Math.sqrt(v[j]! / bc2) + p.eps) : 0;
      w[j] = w[j]! - p.learning_rate * (adam + p.weight_decay * w[j]!);
    }
  }
  return Math.sqrt(sq);
}

const CHECKPOINT_FORMAT = 'frognano-tiny-model/1';

/** What a checkpoint must match to load. */
export interface ModelShape {
  vocabSize: number;
  buckets: number;
  specialIds: readonly number[];
}

function asRecord(x: unknown, what: string): Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) throw new Error(`${what} must be an object`);
  return Object.fromEntries(Object.entries(x));
}

/** The model as JSON data; the optimizer state only when given. Pending gradients are not saved (nor are they by Tinker). */
export function encodeCheckpoint(shape: ModelShape, weights: SparseRows, adam: AdamState | undefined): Record<string, unknown> {
  const state: Record<string, unknown> = { format: CHECKPOINT_FORMAT, ...shape, specialIds: [...shape.specialIds], weights: rowsToJson(weights) };
  if (adam) state.optimizer = { step: adam.step, m: rowsToJson(adam.m), v: rowsToJson(adam.v) };
  return state;
}

/** encodeCheckpoint's output back, checked whole before anything is used; without withOptimizer the optimizer starts afresh. */
export function decodeCheckpoint(state: unknown, shape: ModelShape, withOptimizer: boolean): { weights: SparseRows; adam: AdamState } {
  const s = asRecord(state, 'checkpoint');
  if (s.format !== CHECKPOINT_FORMAT) throw new Error(`checkpoint format ${JSON.stringify(s.format)} is not ${CHECKPOINT_FORMAT}`);
  const sameSpecials = Array.isArray(s.specialIds) && s.specialIds.join(',') === shape.specialIds.join(',');
  if (s.vocabSize !== shape.vocabSize || s.buckets !== shape.buckets || !sameSpecials) {
    const mine = `vocabSize ${shape.vocabSize}, buckets ${shape.buckets}, specialIds [${shape.specialIds.join(',')}]`;
    throw new Error(`checkpoint was saved by a model of another shape (this model: ${mine})`);
  }
  const { buckets, vocabSize } = shape;
  const weights = rowsFromJson(s.weights, 'checkpoint weights', buckets, vocabSize);
  if (!withOptimizer) return { weights, adam: emptyAdamState() };
  if (s.optimizer === undefined) throw new Error('checkpoint has no optimizer state');
  const o = asRecord(s.optimizer, 'checkpoint optimizer');
  if (typeof o.step !== 'number' || !Number.isInteger(o.step) || o.step < 0) throw new Error('checkpoint optimizer.step must be an integer >= 0');
  const adam = { step: o.step, m: rowsFromJson(o.m, 'optimizer.m', buckets, vocabSize), v: rowsFromJson(o.v, 'optimizer.v', buckets, vocabSize) };
  // All-zero moment rows are left out on save: give every row both moments again.
  for (const row of [...adam.m.keys(), ...adam.v.keys()]) {
    rowOf(adam.m, row, vocabSize);
    rowOf(adam.v, row, vocabSize);
  }
  return { weights, adam };
}
