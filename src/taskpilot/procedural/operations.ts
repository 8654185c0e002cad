// Operation operators: change an operator within its family, flip a
// comparison or boolean operator, swap operands, drop part of a chain, and
// move an integer constant by one. JS/TS also: augmented-assignment swap,
// ternary swap, argument swap, remove a ternary.
import type { Node } from '../../util/syntax.js';
import { nodesOfType, operatorToken, pick, swapEdit } from './edits.js';
import { ALL, JS_LIKE, type Operator } from './types.js';

const BINARY = ['binary_expression', 'binary_operator'];
const BOOLEAN_PY = ['boolean_operator'];

// Operators that may replace each other (arithmetic and bitwise families).
const CHANGE_FAMILIES: string[][] = [
  ['+', '-'],
  ['*', '/', '%', '//'],
  ['&', '|', '^'],
  ['<<', '>>', '>>>'],
  ['**', '*'],
];

const FLIPS: Record<string, string> = {
  '<': '>',
  '>': '<',
  '<=': '>=',
  '>=': '<=',
  '==': '!=',
  '!=': '==',
  '===': '!==',
  '!==': '===',
  '&&': '||',
  '||': '&&',
  and: 'or',
  or: 'and',
  in: 'not in',
  'not in': 'in',
  is: 'is not',
  'is not': 'is',
};

function alternatives(op: string, python: boolean): string[] {
  const out = new Set<string>();
  for (const fam of CHANGE_FAMILIES) {
    if (!fam.includes(op)) continue;
    for (const o of fam) {
      if (o === op) continue;
      if (o === '//' && !python) continue;
      if (o === '>>>' && python) continue;
      out.add(o);
    }
  }
  return [...out];
}

function isPython(node: Node): boolean {
  return node.type === 'binary_operator'; // JS and TS call it binary_expression
}

export const opChange: Operator = {
  name: 'op_change',
  family: 'operations',
  languages: ALL,
  sites: (root) => nodesOfType(root, BINARY).filter((n) => alternatives(operatorToken(n)?.type ?? '', isPython(n)).length > 0),
  apply(site, _source, rng) {
    const tok = operatorToken(site);
    if (!tok) return null;
    const to = pick(alternatives(tok.type, isPython(site)), rng);
    return to ? { start: tok.startIndex, end: tok.endIndex, text: to } : null;
  },
};

/** Comparison and boolean operator tokens of a node, joining Python's two-word operators. */
function flipTokens(node: Node): { start: number; end: number; op: string }[] {
  const toks = node.children.filter((c): c is Node => Boolean(c) && !c!.isNamed);
  const out: { start: number; end: number; op: string }[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    const next = toks[i + 1];
    if (next && ((t.type === 'not' && next.type === 'in') || (t.type === 'is' && next.type === 'not'))) {
      out.push({ start: t.startIndex, end: next.endIndex, op: `${t.type} ${next.type}` });
      i++;
    } else if (t.type in FLIPS) out.push({ start: t.startIndex, end: t.endIndex, op: t.type });
  }
  return out;
}

export const opFlip: Operator = {
  name: 'op_flip',
  family: 'operations',
  languages: ALL,
  sites: (root) => nodesOfType(root, [...BINARY, 'comparison_operator', ...BOOLEAN_PY]).filter((n) => flipTokens(n).length > 0),
  apply(site, _source, rng) {
    const tok = pick(flipTokens(site), rng);
    return tok ? { start: tok.start, end: tok.end, text: FLIPS[tok.op]! } : null;
  },
};

function operands(node: Node): [Node, Node] | null {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  return left && right ? [left, right] : null;
}

export const opSwap: Operator = {
  name: 'op_swap',
  family: 'operations',
  languages: ALL,
  sites: (root) => nodesOfType(root, [...BINARY, ...BOOLEAN_PY]).filter((n) => operands(n) !== null),
  apply(site, source) {
    const ops = operands(site);
    return ops ? swapEdit(source, ops[0], ops[1]) : null;
  },
};

// Drops one operand of a chain: in (a op b) op c, keep (a op b) or b op c.
export const opBreakChains: Operator = {
  name: 'op_break_chains',
  family: 'operations',
  languages: ALL,
  sites: (root) =>
    nodesOfType(root, [...BINARY, ...BOOLEAN_PY]).filter((n) => {
      const ops = operands(n);
      return ops !== null && (ops[0].type === n.type || ops[1].type === n.type);
    }),
  apply(site, source, rng) {
    const [left, right] = operands(site)!;
    const inner = left.type === site.type && (right.type !== site.type || rng() < 0.5) ? left : right;
    const kept = rng() < 0.5 ? inner.childForFieldName('left')! : inner.childForFieldName('right')!;
    const other = inner === left ? right : left;
    const op = operatorToken(site)!;
    const text =
      inner === left
        ? `${source.slice(kept.startIndex, kept.endIndex)} ${op.text} ${source.slice(other.startIndex, other.endIndex)}`
        : `${source.slice(other.startIndex, other.endIndex)} ${op.text} ${source.slice(kept.startIndex, kept.endIndex)}`;
    return { start: site.startIndex, end: site.endIndex, text };
  },
};

export const opChangeConst: Operator = {
  name: 'op_change_const',
  family: 'operations',
  languages: ALL,
  sites: (root) => nodesOfType(root, ['number', 'integer']).filter((n) => /^\d+$/.test(n.text)),
  apply(site, _source, rng) {
    const v = Number(site.text);
    const to = v === 0 || rng() < 0.5 ? v + 1 : v - 1;
    return { start: site.startIndex, end: site.endIndex, text: String(to) };
  },
};

const AUG_SWAPS: Record<string, string> = {
  '+=': '-=',
  '-=': '+=',
  '*=': '/=',
  '/=': '*=',
  '%=': '*=',
  '&=': '|=',
  '|=': '&=',
  '<<=': '>>=',
  '>>=': '<<=',
  '&&=': '||=',
  '||=': '&&=',
  '??=': '||=',
};

export const augAssignSwap: Operator = {
  name: 'aug_assign_swap',
  family: 'operations',
  languages: JS_LIKE,
  sites: (root) => nodesOfType(root, ['augmented_assignment_expression']).filter((n) => (operatorToken(n)?.type ?? '') in AUG_SWAPS),
  apply(site) {
    const tok = operatorToken(site)!;
    return { start: tok.startIndex, end: tok.endIndex, text: AUG_SWAPS[tok.type]! };
  },
};

export const ternarySwap: Operator = {
  name: 'ternary_swap',
  family: 'operations',
  languages: JS_LIKE,
  sites: (root) => nodesOfType(root, ['ternary_expression']),
  apply(site, source) {
    const a = site.childForFieldName('consequence');
    const b = site.childForFieldName('alternative');
    return a && b ? swapEdit(source, a, b) : null;
  },
};

function callArguments(call: Node): Node[] {
  const args = call.childForFieldName('arguments');
  return (args?.namedChildren ?? []).filter((c): c is Node => Boolean(c) && c!.type !== 'comment' && c!.type !== 'spread_element');
}

export const argSwap: Operator = {
  name: 'arg_swap',
  family: 'operations',
  languages: JS_LIKE,
  sites: (root) => nodesOfType(root, ['call_expression', 'new_expression']).filter((n) => callArguments(n).length >= 2),
  apply(site, source, rng) {
    const args = callArguments(site);
    const i = Math.floor(rng() * (args.length - 1));
    return swapEdit(source, args[i]!, args[i + 1]!);
  },
};

export const removeTernary: Operator = {
  name: 'remove_ternary',
  family: 'operations',
  languages: JS_LIKE,
  sites: (root) => nodesOfType(root, ['ternary_expression']),
  apply(site, source, rng) {
    const keep = site.childForFieldName(rng() < 0.5 ? 'consequence' : 'alternative');
    if (!keep) return null;
    const text = source.slice(keep.startIndex, keep.endIndex);
    // Parenthesize when the kept branch is itself an expression with operators.
    return { start: site.startIndex, end: site.endIndex, text: /^[\w.$'"`[\]]+$/.test(text) ? text : `(${text})` };
  },
};
