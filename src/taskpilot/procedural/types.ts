import type { BugFamily } from '../../task/task.js';
import type { Node, SyntaxLanguage } from '../../util/syntax.js';

export type Family = BugFamily;

/** One text replacement in a file: [start, end) in string indices. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

export interface Operator {
  /** Stable name recorded in a task's provenance, e.g. "op_change". */
  name: string;
  family: Family;
  languages: SyntaxLanguage[];
  /** Nodes where the operator can apply. */
  sites(root: Node): Node[];
  /** The edit for one site, or null when this site turns out not to fit. */
  apply(site: Node, source: string, rng: () => number): Edit | null;
}

export const JS_LIKE: SyntaxLanguage[] = ['javascript', 'typescript', 'tsx'];
export const ALL: SyntaxLanguage[] = [...JS_LIKE, 'python'];
