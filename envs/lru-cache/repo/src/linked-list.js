// A doubly linked list of key/value nodes. The front of the list holds the
// most recently used entry, the back holds the least recently used one.

export class ListNode {
  constructor(key, value) {
    this.key = key;
    this.value = value;
    this.prev = null;
    this.next = null;
    this.list = null;
  }
}

export class LinkedList {
  constructor() {
    this.head = null;
    this.tail = null;
    this.length = 0;
  }

  get isEmpty() {
    return this.length === 0;
  }

  pushFront(node) {
    if (node.list !== null) {
      throw new Error('node already belongs to a list');
    }
    node.list = this;
    node.prev = null;
    node.next = this.head;
    if (this.head !== null) {
      this.head.prev = node;
    } else {
      this.tail = node;
    }
    this.head = node;
    this.length += 1;
    return node;
  }

  pushBack(node) {
    if (node.list !== null) {
      throw new Error('node already belongs to a list');
    }
    node.list = this;
    node.next = null;
    node.prev = this.tail;
    if (this.tail !== null) {
      this.tail.next = node;
    } else {
      this.head = node;
    }
    this.tail = node;
    this.length += 1;
    return node;
  }

  remove(node) {
    if (node.list !== this) {
      return false;
    }
    if (node.prev !== null) {
      node.prev.next = node.next;
    } else {
      this.head = node.next;
    }
    if (node.next !== null) {
      node.next.prev = node.prev;
    } else {
      this.tail = node.prev;
    }
    node.prev = null;
    node.next = null;
    node.list = null;
    this.length -= 1;
    return true;
  }

  moveToFront(node) {
    if (node.list !== this) {
      throw new Error('node does not belong to this list');
    }
    if (this.head === node) {
      return node;
    }
    this.remove(node);
    return this.pushFront(node);
  }

  moveToBack(node) {
    if (node.list !== this) {
      throw new Error('node does not belong to this list');
    }
    if (this.tail === node) {
      return node;
    }
    this.remove(node);
    return this.pushBack(node);
  }

  popBack() {
    const node = this.tail;
    if (node === null) {
      return null;
    }
    this.remove(node);
    return node;
  }

  popFront() {
    const node = this.head;
    if (node === null) {
      return null;
    }
    this.remove(node);
    return node;
  }

  // Walks the list from the front (most recent) to the back.
  *nodes() {
    let node = this.head;
    while (node !== null) {
      const next = node.next;
      yield node;
      node = next;
    }
  }

  // Walks the list from the back (least recent) to the front.
  *nodesReversed() {
    let node = this.tail;
    while (node !== null) {
      const prev = node.prev;
      yield node;
      node = prev;
    }
  }

  find(predicate) {
    let index = 0;
    for (const node of this.nodes()) {
      if (predicate(node.value, node.key, index)) {
        return node;
      }
      index += 1;
    }
    return null;
  }

  at(index) {
    if (index < 0) {
      index += this.length;
    }
    if (index < 0 || index >= this.length) {
      return null;
    }
    let node = this.head;
    for (let i = 0; i < index; i++) {
      node = node.next;
    }
    return node;
  }

  keys() {
    const out = [];
    for (const node of this.nodes()) {
      out.push(node.key);
    }
    return out;
  }

  clear() {
    let node = this.head;
    while (node !== null) {
      const next = node.next;
      node.prev = null;
      node.next = null;
      node.list = null;
      node = next;
    }
    this.head = null;
    this.tail = null;
    this.length = 0;
  }
}
