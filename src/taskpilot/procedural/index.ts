import type { SyntaxLanguage } from '../../util/syntax.js';
import { classRmBase, classRmFuncs } from './classes.js';
import { ctrlInvertIf, ctrlShuffle } from './control.js';
import { argSwap, augAssignSwap, opBreakChains, opChange, opChangeConst, opFlip, opSwap, removeTernary, ternarySwap } from './operations.js';
import { removeAssign, removeCond, removeLoop, removeWrapper } from './removal.js';
import type { Family, Operator } from './types.js';

export type { Edit, Family, Operator } from './types.js';

/** Every procedural operator, in a stable order. */
export const OPERATORS: Operator[] = [
  opChange,
  opFlip,
  opSwap,
  opBreakChains,
  opChangeConst,
  augAssignSwap,
  ternarySwap,
  argSwap,
  removeTernary,
  ctrlInvertIf,
  ctrlShuffle,
  removeLoop,
  removeCond,
  removeAssign,
  removeWrapper,
  classRmBase,
  classRmFuncs,
];

export function operatorsFor(lang: SyntaxLanguage): Operator[] {
  return OPERATORS.filter((op) => op.languages.includes(lang));
}

/** Operator families with at least one operator for the language (the class family is Python's only). */
export function familiesFor(lang: SyntaxLanguage): Family[] {
  return [...new Set(operatorsFor(lang).map((op) => op.family))];
}

export function operatorByName(name: string): Operator {
  const op = OPERATORS.find((o) => o.name === name);
  if (!op) throw new Error(`unknown operator "${name}"; known: ${OPERATORS.map((o) => o.name).join(', ')}`);
  return op;
}
