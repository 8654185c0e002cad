import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LinkedList, ListNode } from '../src/linked-list.js';

function build(...keys) {
  const list = new LinkedList();
  const nodes = {};
  for (const key of keys) {
    nodes[key] = list.pushBack(new ListNode(key, key.toUpperCase()));
  }
  return { list, nodes };
}

function backwards(list) {
  return [...list.nodesReversed()].map((n) => n.key);
}

describe('linked-list', () => {
  it('pushFront puts nodes at the head and links both directions', () => {
    const list = new LinkedList();
    assert.equal(list.isEmpty, true);
    list.pushFront(new ListNode('a', 1));
    list.pushFront(new ListNode('b', 2));
    list.pushFront(new ListNode('c', 3));
    assert.deepEqual(list.keys(), ['c', 'b', 'a']);
    assert.deepEqual(backwards(list), ['a', 'b', 'c']);
    assert.equal(list.head.key, 'c');
    assert.equal(list.tail.key, 'a');
    assert.equal(list.length, 3);
    assert.equal(list.isEmpty, false);
  });

  it('pushBack appends at the tail', () => {
    const { list } = build('a', 'b', 'c');
    assert.deepEqual(list.keys(), ['a', 'b', 'c']);
    assert.deepEqual(backwards(list), ['c', 'b', 'a']);
    assert.equal(list.head.prev, null);
    assert.equal(list.tail.next, null);
  });

  it('refuses to insert a node that is already linked', () => {
    const { list, nodes } = build('a', 'b');
    assert.throws(() => list.pushFront(nodes.a), /already belongs/);
    assert.throws(() => list.pushBack(nodes.b), /already belongs/);
    const other = new LinkedList();
    assert.throws(() => other.pushBack(nodes.a), /already belongs/);
    assert.equal(list.length, 2);
  });

  it('removes nodes from the middle, head and tail', () => {
    const { list, nodes } = build('a', 'b', 'c', 'd');
    assert.equal(list.remove(nodes.b), true);
    assert.deepEqual(list.keys(), ['a', 'c', 'd']);
    assert.deepEqual(backwards(list), ['d', 'c', 'a']);
    assert.equal(list.remove(nodes.a), true);
    assert.equal(list.head.key, 'c');
    assert.equal(list.head.prev, null);
    assert.equal(list.remove(nodes.d), true);
    assert.equal(list.tail.key, 'c');
    assert.equal(list.tail.next, null);
    assert.equal(list.length, 1);
    assert.equal(nodes.b.list, null);
    assert.equal(nodes.b.next, null);
    assert.equal(nodes.b.prev, null);
  });

  it('remove returns false for a node of another list', () => {
    const { list, nodes } = build('a', 'b');
    const other = new LinkedList();
    assert.equal(other.remove(nodes.a), false);
    assert.equal(list.remove(nodes.a), true);
    assert.equal(list.remove(nodes.a), false);
    assert.equal(list.length, 1);
  });

  it('moveToFront and moveToBack reorder nodes', () => {
    const { list, nodes } = build('a', 'b', 'c', 'd');
    list.moveToFront(nodes.c);
    assert.deepEqual(list.keys(), ['c', 'a', 'b', 'd']);
    list.moveToFront(nodes.c);
    assert.deepEqual(list.keys(), ['c', 'a', 'b', 'd']);
    list.moveToBack(nodes.a);
    assert.deepEqual(list.keys(), ['c', 'b', 'd', 'a']);
    list.moveToBack(nodes.a);
    assert.deepEqual(backwards(list), ['a', 'd', 'b', 'c']);
    assert.equal(list.length, 4);
    assert.throws(() => new LinkedList().moveToFront(nodes.a), /does not belong/);
    assert.throws(() => new LinkedList().moveToBack(nodes.a), /does not belong/);
  });

  it('popBack and popFront remove from the ends', () => {
    const { list } = build('a', 'b', 'c');
    assert.equal(list.popBack().key, 'c');
    assert.equal(list.popFront().key, 'a');
    assert.equal(list.length, 1);
    assert.equal(list.head, list.tail);
    assert.equal(list.popBack().key, 'b');
    assert.equal(list.head, null);
    assert.equal(list.tail, null);
    assert.equal(list.popBack(), null);
    assert.equal(list.popFront(), null);
    assert.equal(list.length, 0);
  });

  it('at accepts positive and negative indexes', () => {
    const { list } = build('a', 'b', 'c', 'd');
    assert.equal(list.at(0).key, 'a');
    assert.equal(list.at(2).key, 'c');
    assert.equal(list.at(3).key, 'd');
    assert.equal(list.at(-1).key, 'd');
    assert.equal(list.at(-4).key, 'a');
    assert.equal(list.at(4), null);
    assert.equal(list.at(-5), null);
  });

  it('find passes value, key and index to the predicate', () => {
    const { list } = build('a', 'b', 'c');
    const seen = [];
    const found = list.find((value, key, index) => {
      seen.push(`${value}${key}${index}`);
      return index === 1;
    });
    assert.equal(found.key, 'b');
    assert.deepEqual(seen, ['Aa0', 'Bb1']);
    assert.equal(list.find(() => false), null);
  });

  it('iteration survives removing the current node', () => {
    const { list } = build('a', 'b', 'c', 'd');
    for (const node of list.nodes()) {
      if (node.key === 'b' || node.key === 'c') {
        list.remove(node);
      }
    }
    assert.deepEqual(list.keys(), ['a', 'd']);
  });

  it('clear unlinks every node', () => {
    const { list, nodes } = build('a', 'b', 'c');
    list.clear();
    assert.equal(list.length, 0);
    assert.equal(list.head, null);
    assert.equal(list.tail, null);
    assert.deepEqual(list.keys(), []);
    assert.equal(nodes.b.list, null);
    assert.equal(nodes.b.next, null);
    assert.equal(nodes.b.prev, null);
    list.pushFront(nodes.b);
    assert.deepEqual(list.keys(), ['b']);
  });
});
