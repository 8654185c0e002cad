import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parsePattern } from '../src/pattern.ts';
import { SegmentTree } from '../src/tree.ts';

function treeOf(patterns: string[], caseSensitive = true): SegmentTree<string> {
  const tree = new SegmentTree<string>({ caseSensitive });
  for (const source of patterns) {
    tree.insert(parsePattern(source), () => source);
  }
  return tree;
}

function find(tree: SegmentTree<string>, path: string): [string, object] | null {
  const segments = path.split('/').filter((s) => s !== '');
  const m = tree.match(segments);
  return m === null ? null : [m.value, m.params];
}

describe('tree', () => {
  it('matches static routes exactly', () => {
    const tree = treeOf(['/', '/about', '/about/team']);
    assert.deepEqual(find(tree, '/'), ['/', {}]);
    assert.deepEqual(find(tree, '/about'), ['/about', {}]);
    assert.deepEqual(find(tree, '/about/team'), ['/about/team', {}]);
    assert.equal(find(tree, '/about/team/x'), null);
    assert.equal(find(tree, '/abou'), null);
  });

  it('prefers static over param over wildcard', () => {
    const tree = treeOf(['/users/*rest', '/users/:id', '/users/me']);
    assert.deepEqual(find(tree, '/users/me'), ['/users/me', {}]);
    assert.deepEqual(find(tree, '/users/42'), ['/users/:id', { id: '42' }]);
    assert.deepEqual(find(tree, '/users/42/posts'), ['/users/*rest', { rest: '42/posts' }]);
    assert.deepEqual(find(tree, '/users'), ['/users/*rest', { rest: '' }]);
  });

  it('backtracks from a static branch that dead-ends', () => {
    const tree = treeOf(['/a/b/c', '/a/:x/d']);
    assert.deepEqual(find(tree, '/a/b/d'), ['/a/:x/d', { x: 'b' }]);
    assert.deepEqual(find(tree, '/a/b/c'), ['/a/b/c', {}]);
    assert.equal(find(tree, '/a/b'), null);
  });

  it('tries constrained params before plain ones regardless of insertion order', () => {
    const tree = treeOf(['/p/:slug', '/p/:id<int>', '/p/:code([A-Z]+)']);
    assert.deepEqual(find(tree, '/p/12'), ['/p/:id<int>', { id: 12 }]);
    assert.deepEqual(find(tree, '/p/ABC'), ['/p/:code([A-Z]+)', { code: 'ABC' }]);
    assert.deepEqual(find(tree, '/p/abc'), ['/p/:slug', { slug: 'abc' }]);
    assert.deepEqual(
      tree.root.staticChildren.get('p')!.paramEdges.map((e) => e.key),
      [':id<int>', ':code([A-Z]+)', ':slug'],
    );
  });

  it('falls back to the wildcard when constraints reject a segment', () => {
    const tree = treeOf(['/n/:num<int:1..9>', '/n/*other']);
    assert.deepEqual(find(tree, '/n/5'), ['/n/:num<int:1..9>', { num: 5 }]);
    assert.deepEqual(find(tree, '/n/10'), ['/n/*other', { other: '10' }]);
    assert.equal(find(treeOf(['/n/:num<int>']), '/n/x'), null);
  });

  it('inserts optional params at every possible end', () => {
    const tree = new SegmentTree<string>();
    const values = tree.insert(parsePattern('/blog/:year?/:month?'), () => 'v' + tree.size);
    assert.deepEqual(values, ['v0', 'v1', 'v2']);
    assert.equal(tree.size, 3);
    const again = tree.insert(parsePattern('/blog/:year'), () => 'new');
    assert.deepEqual(again, ['v1']);
    assert.equal(tree.size, 3);
    assert.deepEqual(tree.match(['blog'])?.params, {});
    assert.deepEqual(tree.match(['blog', '2020', '5'])?.params, { year: '2020', month: '5' });
  });

  it('matches static segments case-insensitively when configured', () => {
    const insensitive = treeOf(['/Docs/:Page'], false);
    assert.deepEqual(find(insensitive, '/dOCS/Intro'), ['/Docs/:Page', { Page: 'Intro' }]);
    const sensitive = treeOf(['/Docs/:Page']);
    assert.equal(find(sensitive, '/docs/Intro'), null);
    assert.deepEqual(find(sensitive, '/Docs/Intro'), ['/Docs/:Page', { Page: 'Intro' }]);
    const byDefault = new SegmentTree<string>();
    byDefault.insert(parsePattern('/Docs'), () => 'docs');
    assert.equal(byDefault.match(['docs']), null);
    assert.equal(byDefault.match(['Docs'])?.value, 'docs');
  });

  it('continues past values rejected by the accept callback', () => {
    const tree = treeOf(['/x/:a', '/x/*w', '/x/y']);
    const m = tree.match(['x', 'y'], (v) => v !== '/x/y');
    assert.deepEqual(m, { value: '/x/:a', params: { a: 'y' } });
    const w = tree.match(['x', 'y'], (v) => v === '/x/*w');
    assert.deepEqual(w, { value: '/x/*w', params: { w: 'y' } });
    assert.equal(tree.match(['x', 'y'], () => false), null);
  });

  it('lists every match in priority order', () => {
    const tree = treeOf(['/x/*w', '/x/:a', '/x/y', '/:s/y', '/*all']);
    const all = tree.matchAll(['x', 'y']).map((m) => m.value);
    assert.deepEqual(all, ['/x/y', '/x/:a', '/x/*w', '/:s/y', '/*all']);
    assert.deepEqual(tree.matchAll(['q']).map((m) => m.value), ['/*all']);
    assert.deepEqual(tree.matchAll([]).map((m) => m.value), ['/*all']);
  });

  it('rejects conflicting wildcard names at one node', () => {
    const tree = treeOf(['/f/*path']);
    assert.throws(() => tree.insert(parsePattern('/f/*other'), () => 'x'), /Wildcard "\*other" conflicts with "\*path"/);
    assert.deepEqual(tree.insert(parsePattern('/f/*path'), () => 'dup'), ['/f/*path']);
  });

  it('describes the tree structure', () => {
    const tree = treeOf(['/b', '/a/:id<int>', '/a/:id', '/a/*rest', '/a/c']);
    assert.equal(
      tree.describe((v) => v),
      ['/', '  a', '    c [/a/c]', '    :id<int> [/a/:id<int>]', '    :id [/a/:id]', '    *rest [/a/*rest]', '  b [/b]'].join('\n'),
    );
    assert.equal(new SegmentTree<string>().describe(), '/');
  });
});
