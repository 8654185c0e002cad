// TaskPilot's difficulty knobs and the ladder the controller climbs, easiest to hardest. The order across axes is a
// guess; the controller only needs it roughly monotone, since it moves on observed pass rates.
import type { HintLevel, TestVisibility } from '../task/task.js';
import type { Family } from '../taskpilot/procedural/types.js';

/** Procedural operator families the controller chooses among. */
export type OperatorFamily = Exclude<Family, 'llm'>;
export const OPERATOR_FAMILIES: readonly OperatorFamily[] = ['operations', 'control', 'removal', 'class'];

/** One difficulty setting, without the operator family. */
export interface Rung {
  bugs: number; // 1..4 validated bugs merged into one task
  hint: HintLevel;
  visibility: TestVisibility;
}

export interface Knobs extends Rung {
  family: OperatorFamily;
}

const r = (bugs: number, hint: HintLevel, visibility: TestVisibility): Rung => Object.freeze({ bugs, hint, visibility });

export const LADDER: readonly Rung[] = Object.freeze([
  r(1, 'full', 'visible'),
  r(1, 'symptom', 'visible'),
  r(1, 'symptom', 'hidden'),
  r(1, 'minimal', 'hidden'),
  r(2, 'full', 'visible'),
  r(2, 'symptom', 'hidden'),
  r(2, 'minimal', 'hidden'),
  r(3, 'symptom', 'hidden'),
  r(3, 'minimal', 'hidden'),
  r(4, 'symptom', 'hidden'),
  r(4, 'minimal', 'hidden'),
]);

export function rungKey(k: Rung): string {
  return `b${k.bugs}/${k.hint}/${k.visibility}`;
}

/** A stable string for a knob setting, e.g. "operations/b2/symptom/hidden" (part of a family key). */
export function knobKey(k: Knobs): string {
  return `${k.family}/${rungKey(k)}`;
}

/** The ladder index of a setting, or -1 when it is not on the ladder. */
export function rungOf(k: Rung, ladder: readonly Rung[] = LADDER): number {
  const key = rungKey(k);
  return ladder.findIndex((x) => rungKey(x) === key);
}
