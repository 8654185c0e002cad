"""Topological ordering, cycle detection and layering."""

import heapq

from .graph import Graph, GraphError

WHITE, GRAY, BLACK = 0, 1, 2


class CycleError(GraphError):
    """Raised when an operation needs an acyclic graph. `cycle` lists the
    nodes of one cycle in edge order, without repeating the first node."""

    def __init__(self, cycle):
        self.cycle = list(cycle)
        shown = " -> ".join(repr(n) for n in self.cycle + self.cycle[:1])
        super().__init__(f"graph has a cycle: {shown}")


def _rotate_to_first(graph, cycle):
    """Rotates a cycle so that it starts at its earliest-inserted node."""
    best = 0
    for i in range(1, len(cycle)):
        if graph.order_of(cycle[i]) < graph.order_of(cycle[best]):
            best = i
    return cycle[best:] + cycle[:best]


def find_cycle(graph, start=None):
    """Returns one cycle as a list of nodes, or None when the graph is acyclic.

    The search is a depth-first search from each node in insertion order (or
    only from `start`), following successors in insertion order.
    """
    color = {node: WHITE for node in graph.nodes()}
    roots = graph.nodes() if start is None else [start]
    for root in roots:
        if color[root] != WHITE:
            continue
        path = [root]
        color[root] = GRAY
        stack = [iter(graph.successors(root))]
        while stack:
            advanced = False
            for nxt in stack[-1]:
                if color[nxt] == GRAY:
                    cycle = path[path.index(nxt):]
                    return _rotate_to_first(graph, cycle)
                if color[nxt] == WHITE:
                    color[nxt] = GRAY
                    path.append(nxt)
                    stack.append(iter(graph.successors(nxt)))
                    advanced = True
                    break
            if not advanced:
                color[path.pop()] = BLACK
                stack.pop()
    return None


def topological_sort(graph, key=None):
    """Kahn's algorithm. Among the nodes ready at any moment the one with the
    smallest `key(node)` comes first; ties (and the default) follow insertion
    order, so the result is stable. Raises CycleError naming a cycle."""
    indegree = {}
    heap = []
    for node in graph.nodes():
        indegree[node] = graph.in_degree(node)
        if indegree[node] == 0:
            rank = key(node) if key is not None else 0
            heapq.heappush(heap, (rank, graph.order_of(node), node))
    result = []
    while heap:
        _, _, node = heapq.heappop(heap)
        result.append(node)
        for succ in graph.successors(node):
            indegree[succ] -= 1
            if indegree[succ] == 0:
                rank = key(succ) if key is not None else 0
                heapq.heappush(heap, (rank, graph.order_of(succ), succ))
    if len(result) < len(graph):
        done = set(result)
        remaining = graph.subgraph(n for n in graph.nodes() if n not in done)
        raise CycleError(find_cycle(remaining))
    return result


def is_dag(graph):
    try:
        topological_sort(graph)
    except CycleError:
        return False
    return True


def layer_of(graph, align="top"):
    """Maps each node to its level.

    align="top": sources are on level 0 and every node sits one level below
    its deepest predecessor (longest path from a source).
    align="bottom": nodes are pushed as low as possible, so that every sink
    lies on the last level.
    """
    order = topological_sort(graph)
    if align == "top":
        level = {}
        for node in order:
            preds = graph.predecessors(node)
            level[node] = 1 + max(level[p] for p in preds) if preds else 0
        return level
    if align == "bottom":
        height = {}
        for node in reversed(order):
            succs = graph.successors(node)
            height[node] = 1 + max(height[s] for s in succs) if succs else 0
        top = max(height.values(), default=0)
        return {node: top - height[node] for node in order}
    raise ValueError(f"align must be 'top' or 'bottom', not {align!r}")


def layers(graph, align="top"):
    """Groups nodes into levels; within a level nodes keep insertion order."""
    level = layer_of(graph, align)
    count = max(level.values(), default=-1) + 1
    groups = [[] for _ in range(count)]
    for node in graph.nodes():
        groups[level[node]].append(node)
    return groups


class TopologicalSorter:
    """Incremental topological sorter in the style of a work queue.

    Nodes are added with their predecessors, then `prepare()` freezes the
    graph; `get_ready()` hands out nodes whose predecessors are all done and
    `done()` reports them finished.
    """

    def __init__(self, graph=None):
        self._graph = graph.copy() if graph is not None else Graph()
        self._prepared = False
        self._indegree = {}
        self._ready = []
        self._handed_out = set()
        self._finished = set()

    def add(self, node, *predecessors):
        if self._prepared:
            raise ValueError("nodes cannot be added after prepare()")
        self._graph.add_node(node)
        for pred in predecessors:
            self._graph.add_edge(pred, node)

    def prepare(self):
        if self._prepared:
            raise ValueError("prepare() was already called")
        cycle = find_cycle(self._graph)
        if cycle is not None:
            raise CycleError(cycle)
        self._prepared = True
        for node in self._graph.nodes():
            self._indegree[node] = self._graph.in_degree(node)
            if self._indegree[node] == 0:
                self._ready.append(node)

    def get_ready(self):
        """Returns the nodes that became ready since the last call."""
        if not self._prepared:
            raise ValueError("prepare() must be called first")
        batch = tuple(self._ready)
        self._handed_out.update(batch)
        self._ready = []
        return batch

    def done(self, *nodes):
        if not self._prepared:
            raise ValueError("prepare() must be called first")
        for node in nodes:
            if node not in self._handed_out:
                raise ValueError(f"node {node!r} was not handed out by get_ready()")
            if node in self._finished:
                raise ValueError(f"node {node!r} was already marked done")
            self._finished.add(node)
            for succ in self._graph.successors(node):
                self._indegree[succ] -= 1
                if self._indegree[succ] == 0:
                    self._ready.append(succ)

    def is_active(self):
        if not self._prepared:
            raise ValueError("prepare() must be called first")
        pending = len(self._handed_out) - len(self._finished)
        return pending > 0 or len(self._ready) > 0

    def __bool__(self):
        return self.is_active()

    def static_order(self):
        """Every node in an order produced by draining the work queue."""
        self.prepare()
        order = []
        while self.is_active():
            batch = self.get_ready()
            order.extend(batch)
            self.done(*batch)
        return order
