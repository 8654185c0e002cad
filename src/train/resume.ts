// Which settings of a saved run a resumed invocation may change: how far to
// go (steps, budget, time limit) and how many rollouts run at once (a run is
// the same whatever their number: docs/decisions/2026-12-04-same-seed-same-run.md).
// Every other difference is named, with the flag that sets it.
import { isRecord } from '../util/guards.js';
import { TRAIN_DEFAULTS, type TrainConfig } from './config.js';

const FREE: ReadonlySet<string> = new Set(['timeLimitMin', 'steps', 'budget', 'workers']);
/** Settings whose flag is not their name in kebab case. */
const FLAGS: Record<string, string> = { evalRollouts: '--eval-attempts', timeLimitMin: '--time-limit' };

const flagOf = (key: string) => FLAGS[key] ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
const shown = (v: unknown) => (v === undefined ? 'unset' : Array.isArray(v) ? v.join(',') || 'none' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** The differences between a saved run's settings (missing ones take today's defaults) and this invocation's, one phrase each. */
export function settingsDiffer(saved: Partial<TrainConfig>, now: TrainConfig): string[] {
  const before: Record<string, unknown> = { ...TRAIN_DEFAULTS, ...saved };
  const after: Record<string, unknown> = { ...now };
  const out: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (FREE.has(key) || JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    const a = before[key];
    const b = after[key];
    if (isRecord(a) && isRecord(b)) {
      // A nested group (the language model's options): name the field inside it.
      for (const sub of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (JSON.stringify(a[sub]) !== JSON.stringify(b[sub])) out.push(`${flagOf(sub)} was ${shown(a[sub])}, now ${shown(b[sub])}`);
      }
      continue;
    }
    out.push(`${flagOf(key)} was ${shown(a)}, now ${shown(b)}`);
  }
  return out;
}
