// Removal operators: a loop, a condition, an assignment, a try/with wrapper.
import type { Node } from '../../util/syntax.js';
import { dedent, indentOf, nodesOfType, removeStatement } from './edits.js';
import { ALL, type Operator } from './types.js';

const STATEMENT_PARENTS = ['statement_block', 'block', 'program', 'module'];

function standalone(n: Node): boolean {
  return Boolean(n.parent && STATEMENT_PARENTS.includes(n.parent.type));
}

function python(n: Node): boolean {
  return n.tree.rootNode.type === 'module';
}

function remover(name: string, types: string[], extra: (n: Node) => boolean = () => true): Operator {
  return {
    name,
    family: 'removal',
    languages: ALL,
    sites: (root) => nodesOfType(root, types).filter((n) => standalone(n) && extra(n)),
    apply: (site, source) => removeStatement(source, site, python(site)),
  };
}

export const removeLoop = remover('remove_loop', ['for_statement', 'for_in_statement', 'while_statement', 'do_statement']);
export const removeCond = remover('remove_cond', ['if_statement']);

const ASSIGNMENTS = ['assignment_expression', 'augmented_assignment_expression', 'assignment', 'augmented_assignment'];
export const removeAssign = remover('remove_assign', ['expression_statement'], (n) => {
  const inner = n.namedChildren[0];
  return Boolean(inner && ASSIGNMENTS.includes(inner.type));
});

/** Replaces a try (JS, Python) or with (Python) statement by its body. */
export const removeWrapper: Operator = {
  name: 'remove_wrapper',
  family: 'removal',
  languages: ALL,
  sites: (root) => nodesOfType(root, ['try_statement', 'with_statement']).filter(standalone),
  apply(site, source) {
    const body = site.childForFieldName('body');
    if (!body) return null;
    if (!python(site)) return { start: site.startIndex, end: site.endIndex, text: source.slice(body.startIndex, body.endIndex) };
    const outer = indentOf(source, site).length;
    const inner = indentOf(source, body).length;
    return { start: site.startIndex, end: site.endIndex, text: dedent(source.slice(body.startIndex, body.endIndex), inner - outer) };
  },
};
