// Control-flow operators: invert an if/else, shuffle independent statements.
import type { Node } from '../../util/syntax.js';
import { containsJump, nodesOfType, pick, swapEdit } from './edits.js';
import { ALL, type Operator } from './types.js';

/** The two bodies of an if with a plain else (no else-if / elif chain). */
function ifElseBodies(node: Node): [Node, Node] | null {
  const consequence = node.childForFieldName('consequence');
  if (!consequence) return null;
  if (node.type === 'if_statement' && consequence.type === 'block') {
    // Python: exactly one alternative, an else_clause.
    const alts = node.childrenForFieldName('alternative').filter((n): n is Node => n !== null);
    if (alts.length !== 1 || alts[0]!.type !== 'else_clause') return null;
    const body = alts[0]!.childForFieldName('body');
    return body ? [consequence, body] : null;
  }
  const alt = node.childForFieldName('alternative');
  const body = alt?.namedChildren.find((c) => c && c.type !== 'comment');
  if (!body || body.type !== 'statement_block' || consequence.type !== 'statement_block') return null;
  return [consequence, body];
}

export const ctrlInvertIf: Operator = {
  name: 'ctrl_invert_if',
  family: 'control',
  languages: ALL,
  sites: (root) => nodesOfType(root, ['if_statement']).filter((n) => ifElseBodies(n) !== null),
  apply(site, source) {
    const [a, b] = ifElseBodies(site)!;
    return swapEdit(source, a, b);
  },
};

const BLOCKS = ['statement_block', 'block'];
const DECLARATIONS = [
  'function_declaration',
  'class_declaration',
  'function_definition',
  'class_definition',
  'decorated_definition',
  'import_statement',
  'import_from_statement',
];

function statements(block: Node): Node[] {
  return block.namedChildren.filter((c): c is Node => Boolean(c) && c!.type !== 'comment');
}

/** Adjacent statement pairs that can trade places without moving a jump. */
function swappablePairs(block: Node): [Node, Node][] {
  const s = statements(block);
  const pairs: [Node, Node][] = [];
  for (let i = 0; i + 1 < s.length; i++) {
    const a = s[i]!;
    const b = s[i + 1]!;
    if (containsJump(a) || containsJump(b) || DECLARATIONS.includes(a.type) || DECLARATIONS.includes(b.type)) continue;
    if (a.type === 'expression_statement' && /^["'`]/.test(a.text)) continue; // a docstring
    pairs.push([a, b]);
  }
  return pairs;
}

export const ctrlShuffle: Operator = {
  name: 'ctrl_shuffle',
  family: 'control',
  languages: ALL,
  sites: (root) => nodesOfType(root, BLOCKS).filter((b) => swappablePairs(b).length > 0),
  apply(site, source, rng) {
    const pair = pick(swappablePairs(site), rng);
    return pair ? swapEdit(source, pair[0], pair[1]) : null;
  },
};
