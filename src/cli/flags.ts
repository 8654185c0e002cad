// Flag values shared by the commands.
import { UserError } from '../util/errors.js';
import { defaultWorkers, describeWorkers } from '../util/machine.js';

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
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(n) || n < min)
    throw new UserError(`${flag} must be a number >= ${min}, got "${String(value)}"`);
  return n;
}

/** A string option's value; parseCommandLine has already refused one given without a value. */
export function stringFlag(flags: Record<string, string | boolean | string[] | undefined>, name: string): string | undefined {
  const value = flags[name];
  if (typeof value === 'boolean') throw new Error(`--${name} was parsed as a boolean, but it takes a value`);
  return Array.isArray(value) ? value.at(-1) : value;
}

/** A flag that may be given several times (`--env A=1 --env B=2`), as a list. */
export function listFlag(flags: Record<string, string | boolean | string[] | undefined>, name: string): string[] {
  const value = flags[name];
  if (typeof value === 'boolean') throw new Error(`--${name} was parsed as a boolean, but it takes a value`);
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** --workers, by default sized from this machine's cores and memory; the count is printed either way. */
export function workersFlag(value: unknown, say: (line: string) => void): number {
  const n = intFlag(value, '--workers', defaultWorkers(), 1);
  say(describeWorkers(n, value !== undefined));
  return n;
}

/** The command as the user typed it (`frognano ...`), less the boolean flags in `drop`: to name a lock's holder, or the command that resumes. */
export function commandLine(ctx: { argv?: string[] }, drop: string[] = []): string {
  const words = (ctx.argv ?? []).filter((w) => !drop.some((d) => w === `--${d}`));
  return ['frognano', ...words.map((w) => (/^[\w./:=,@+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`))].join(' ');
}
