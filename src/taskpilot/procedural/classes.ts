// Python class operators: remove a base class, remove a method.
import type { Node } from '../../util/syntax.js';
import { nodesOfType, pick, removeStatement } from './edits.js';
import type { Operator } from './types.js';

function positionalBases(cls: Node): Node[] {
  const args = cls.childForFieldName('superclasses');
  return (args?.namedChildren ?? []).filter((c): c is Node => Boolean(c) && c!.type !== 'keyword_argument' && c!.type !== 'comment');
}

export const classRmBase: Operator = {
  name: 'class_rm_base',
  family: 'class',
  languages: ['python'],
  sites: (root) => nodesOfType(root, ['class_definition']).filter((c) => positionalBases(c).length > 0),
  apply(site, _source, rng) {
    const bases = positionalBases(site);
    const args = site.childForFieldName('superclasses')!;
    const all = args.namedChildren.filter((c) => c && c.type !== 'comment');
    if (all.length === 1) return { start: args.startIndex, end: args.endIndex, text: '' };
    const victim = pick(bases, rng)!;
    // Nodes are fresh wrappers on each access: compare positions, not objects.
    const i = all.findIndex((n) => n!.startIndex === victim.startIndex);
    // Remove the base with the comma that separates it from its neighbour.
    const start = i === 0 ? victim.startIndex : all[i - 1]!.endIndex;
    const end = i === 0 ? all[1]!.startIndex : victim.endIndex;
    return { start, end, text: '' };
  },
};

function methods(cls: Node): Node[] {
  const body = cls.childForFieldName('body');
  return (body?.namedChildren ?? []).filter(
    (c): c is Node =>
      Boolean(c) &&
      (c!.type === 'function_definition' || (c!.type === 'decorated_definition' && c!.childForFieldName('definition')?.type === 'function_definition')),
  );
}

export const classRmFuncs: Operator = {
  name: 'class_rm_funcs',
  family: 'class',
  languages: ['python'],
  sites: (root) => nodesOfType(root, ['class_definition']).filter((c) => methods(c).length > 0),
  apply(site, source, rng) {
    const m = pick(methods(site), rng);
    return m ? removeStatement(source, m, true) : null;
  },
};
