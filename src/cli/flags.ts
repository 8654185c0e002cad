// Flag values shared by the commands.
import { UserError } from '../util/errors.js';

/** An integer flag at least `min`, or the fallback when absent. */
export function intFlag(value: unknown, flag: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(n) || n < min) throw new UserError(`${flag} must be an integer >= ${min}, got "${String(value)}"`);
  return n;
}

/** A finite number flag at least `min`, or the fallback when absent. */
export function numberFlag(value: unknown, flag: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(n) || n < min) throw new UserError(`${flag} must be a number >= ${min}, got "${String(value)}"`);
  return n;
}
