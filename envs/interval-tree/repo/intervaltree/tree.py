"""A balanced interval tree that behaves like a mutable set of intervals."""

from collections.abc import MutableSet
from contextlib import contextmanager

from . import node as nodes
from .interval import Interval


class EmptyTreeError(LookupError):
    """Raised when asking an empty tree for its bounds."""


def _coerce(item):
    if isinstance(item, Interval):
        return item
    if isinstance(item, (tuple, list)) and 2 <= len(item) <= 3:
        return Interval(*item)
    raise TypeError(f"expected an Interval or a (begin, end[, data]) tuple, got {item!r}")


def _query(begin, end, closed):
    if isinstance(begin, Interval):
        return begin
    if end is None:
        raise TypeError("a query needs an end or an Interval")
    return Interval(begin, end, closed=closed)


class IntervalTree(MutableSet):
    """A set of intervals kept in an AVL tree ordered by interval start.

    Every node also records the largest end in its subtree, which lets
    overlap and stabbing queries skip subtrees that end too early.
    """

    def __init__(self, intervals=()):
        self._root = None
        self._size = 0
        self._version = 0
        self._pending = None
        items = [_coerce(item) for item in intervals]
        if items:
            self._rebuild(items)

    @classmethod
    def from_tuples(cls, tuples):
        return cls(Interval(*t) for t in tuples)

    @classmethod
    def _from_iterable(cls, iterable):
        return cls(iterable)

    def _rebuild(self, intervals):
        grouped = {}
        for interval in sorted(intervals, key=lambda iv: iv.sort_key):
            bucket = grouped.get(interval.sort_key)
            if bucket is None:
                grouped[interval.sort_key] = nodes.Node(interval)
            elif interval not in bucket.items:
                bucket.items.append(interval)
        ordered = list(grouped.values())
        self._root = nodes.build_balanced(ordered)
        self._size = sum(len(n.items) for n in ordered)
        self._version += 1

    # -- set protocol -----------------------------------------------------

    def __len__(self):
        return self._size

    def __bool__(self):
        return self._size > 0

    def __contains__(self, item):
        try:
            interval = _coerce(item)
        except (TypeError, ValueError):
            return False
        found = nodes.find(self._root, interval.sort_key)
        return found is not None and interval in found.items

    def __iter__(self):
        version = self._version
        for node in nodes.walk(self._root):
            for interval in node.items:
                if self._version != version:
                    raise RuntimeError("interval tree changed during iteration")
                yield interval

    def __reversed__(self):
        return iter(list(self)[::-1])

    def add(self, interval):
        interval = _coerce(interval)
        if self._pending is not None:
            self._pending.append(interval)
            return
        self._root, added = nodes.insert(self._root, interval)
        if added:
            self._size += 1
            self._version += 1

    def addi(self, begin, end, data=None, closed="left"):
        self.add(Interval(begin, end, data, closed))

    def update(self, intervals):
        for interval in intervals:
            self.add(interval)

    def discard(self, interval):
        interval = _coerce(interval)
        self._root, removed = nodes.remove(self._root, interval)
        if removed:
            self._size -= 1
            self._version += 1
        return removed

    def remove(self, interval):
        if not self.discard(interval):
            raise KeyError(interval)

    def clear(self):
        self._root = None
        self._size = 0
        self._version += 1

    def copy(self):
        return IntervalTree(self)

    @contextmanager
    def bulk(self):
        """Collects additions made inside the block and rebuilds the tree
        once at the end. Nothing is added if the block raises."""
        if self._pending is not None:
            raise RuntimeError("bulk updates cannot be nested")
        self._pending = []
        try:
            yield self
        except BaseException:
            self._pending = None
            raise
        pending, self._pending = self._pending, None
        if pending:
            self._rebuild(list(self) + pending)

    # -- queries ----------------------------------------------------------

    def _collect(self, node, low, high, predicate, out):
        """In-order walk that skips subtrees ending before ``low`` and nodes
        starting after ``high``; keeps the intervals matching predicate."""
        if node is None or node.max_end < low:
            return
        self._collect(node.left, low, high, predicate, out)
        if node.begin > high:
            return
        if predicate(node.items[0]):
            out.extend(node.items)
        self._collect(node.right, low, high, predicate, out)

    def at(self, point):
        """Intervals containing point, in order."""
        out = []
        self._collect(self._root, point, point, lambda iv: iv.contains_point(point), out)
        return out

    def overlap(self, begin, end=None, closed="left"):
        """Intervals sharing at least one point with the query, in order."""
        query = _query(begin, end, closed)
        out = []
        self._collect(self._root, query.begin, query.end, query.overlaps, out)
        return out

    def overlaps(self, begin, end=None, closed="left"):
        if isinstance(begin, Interval) or end is not None:
            return bool(self.overlap(begin, end, closed))
        return bool(self.at(begin))

    def envelop(self, begin, end=None, closed="left"):
        """Intervals lying entirely inside the query, in order."""
        query = _query(begin, end, closed)
        out = []
        self._collect(self._root, query.begin, query.end, query.envelops, out)
        return out

    def remove_overlap(self, begin, end=None, closed="left"):
        doomed = self.overlap(begin, end, closed)
        for interval in doomed:
            self.discard(interval)
        return doomed

    def remove_envelop(self, begin, end=None, closed="left"):
        doomed = self.envelop(begin, end, closed)
        for interval in doomed:
            self.discard(interval)
        return doomed

    def begin(self):
        if self._root is None:
            raise EmptyTreeError("empty tree has no begin")
        node = self._root
        while node.left is not None:
            node = node.left
        return node.begin

    def end(self):
        if self._root is None:
            raise EmptyTreeError("empty tree has no end")
        return self._root.max_end

    def span(self):
        return self.end() - self.begin() if self._size else 0

    @property
    def height(self):
        return nodes.height(self._root)

    def verify(self):
        """Checks every structural invariant; raises AssertionError if broken."""
        nodes.check(self._root)
        count = sum(len(n.items) for n in nodes.walk(self._root))
        if count != self._size:
            raise AssertionError(f"size is {self._size} but the tree holds {count}")
        return True

    def __repr__(self):
        return f"IntervalTree({list(self)!r})"
