"""Directed graph with weighted edges and insertion-ordered nodes."""

from contextlib import contextmanager


class GraphError(Exception):
    """Base class for every error raised by graphlib2."""


class NodeNotFound(GraphError, KeyError):
    def __init__(self, node):
        super().__init__(node)
        self.node = node

    def __str__(self):
        return f"node {self.node!r} is not in the graph"


class EdgeNotFound(GraphError, KeyError):
    def __init__(self, source, target):
        super().__init__((source, target))
        self.source = source
        self.target = target

    def __str__(self):
        return f"edge {self.source!r} -> {self.target!r} is not in the graph"


class SelfLoopError(GraphError, ValueError):
    pass


class Graph:
    """A directed graph.

    Nodes are any hashable values and keep their insertion order, which makes
    every algorithm in the package deterministic. Each edge carries a numeric
    weight (1 by default).
    """

    def __init__(self, edges=None, allow_self_loops=False):
        self._succ = {}
        self._pred = {}
        self._order = {}
        self._counter = 0
        self.allow_self_loops = allow_self_loops
        if edges is not None:
            self.add_edges(edges)

    # -- nodes -----------------------------------------------------------

    def add_node(self, node):
        """Adds a node; returns True when it was new."""
        if node in self._succ:
            return False
        self._succ[node] = {}
        self._pred[node] = {}
        self._order[node] = self._counter
        self._counter += 1
        return True

    def add_nodes(self, nodes):
        added = 0
        for node in nodes:
            if self.add_node(node):
                added += 1
        return added

    def remove_node(self, node):
        """Removes a node and every edge touching it."""
        self._require(node)
        for target in self._succ[node]:
            if target != node:
                del self._pred[target][node]
        for source in self._pred[node]:
            if source != node:
                del self._succ[source][node]
        del self._succ[node]
        del self._pred[node]
        del self._order[node]

    def has_node(self, node):
        return node in self._succ

    def nodes(self):
        return list(self._succ)

    def order_of(self, node):
        """Insertion rank of a node, used to break ties deterministically."""
        self._require(node)
        return self._order[node]

    def _require(self, node):
        if node not in self._succ:
            raise NodeNotFound(node)

    # -- edges -----------------------------------------------------------

    def add_edge(self, source, target, weight=1):
        """Adds (or re-weights) the edge source -> target."""
        if source == target and not self.allow_self_loops:
            raise SelfLoopError(f"self loop on {source!r} is not allowed")
        if not isinstance(weight, (int, float)) or isinstance(weight, bool):
            raise TypeError(f"weight must be a number, not {type(weight).__name__}")
        self.add_node(source)
        self.add_node(target)
        self._succ[source][target] = weight
        self._pred[target][source] = weight

    def add_edges(self, edges):
        """Adds edges given as (source, target) or (source, target, weight)."""
        for edge in edges:
            if len(edge) == 2:
                self.add_edge(edge[0], edge[1])
            elif len(edge) == 3:
                self.add_edge(edge[0], edge[1], edge[2])
            else:
                raise ValueError(f"edge must have 2 or 3 items, got {len(edge)}")

    def remove_edge(self, source, target):
        if not self.has_edge(source, target):
            raise EdgeNotFound(source, target)
        del self._succ[source][target]
        del self._pred[target][source]

    def has_edge(self, source, target):
        return source in self._succ and target in self._succ[source]

    def weight(self, source, target):
        if not self.has_edge(source, target):
            raise EdgeNotFound(source, target)
        return self._succ[source][target]

    def edges(self):
        """Every edge as (source, target, weight), grouped by source."""
        return [(s, t, w) for s, targets in self._succ.items() for t, w in targets.items()]

    def edge_count(self):
        return sum(len(targets) for targets in self._succ.values())

    def total_weight(self):
        total = 0
        for targets in self._succ.values():
            for w in targets.values():
                total += w
        return total

    # -- neighbourhood ---------------------------------------------------

    def successors(self, node):
        self._require(node)
        return list(self._succ[node])

    def predecessors(self, node):
        self._require(node)
        return list(self._pred[node])

    def out_degree(self, node):
        self._require(node)
        return len(self._succ[node])

    def in_degree(self, node):
        self._require(node)
        return len(self._pred[node])

    def sources(self):
        """Nodes without incoming edges."""
        return [n for n in self._succ if not self._pred[n]]

    def sinks(self):
        """Nodes without outgoing edges."""
        return [n for n in self._succ if not self._succ[n]]

    # -- whole-graph operations -------------------------------------------

    def copy(self):
        clone = Graph(allow_self_loops=self.allow_self_loops)
        clone.add_nodes(self._succ)
        for source, target, w in self.edges():
            clone.add_edge(source, target, w)
        return clone

    def reverse(self):
        """A new graph with every edge turned around."""
        result = Graph(allow_self_loops=self.allow_self_loops)
        result.add_nodes(self._succ)
        for source, target, w in self.edges():
            result.add_edge(target, source, w)
        return result

    def subgraph(self, nodes):
        """The graph induced by `nodes`, keeping this graph's node order."""
        keep = set(nodes)
        for node in keep:
            self._require(node)
        result = Graph(allow_self_loops=self.allow_self_loops)
        result.add_nodes(n for n in self._succ if n in keep)
        for source, target, w in self.edges():
            if source in keep and target in keep:
                result.add_edge(source, target, w)
        return result

    def to_dict(self):
        return {n: dict(targets) for n, targets in self._succ.items()}

    @classmethod
    def from_dict(cls, adjacency, allow_self_loops=False):
        """Builds a graph from {node: {target: weight}} or {node: [targets]}."""
        graph = cls(allow_self_loops=allow_self_loops)
        for source, targets in adjacency.items():
            graph.add_node(source)
            if isinstance(targets, dict):
                for target, w in targets.items():
                    graph.add_edge(source, target, w)
            else:
                for target in targets:
                    graph.add_edge(source, target)
        return graph

    @contextmanager
    def transaction(self):
        """Applies the changes made in the block only if it completes.

        On an exception the graph is restored to its state before the block
        and the exception propagates.
        """
        saved = (
            {n: dict(t) for n, t in self._succ.items()},
            {n: dict(s) for n, s in self._pred.items()},
            dict(self._order),
            self._counter,
        )
        try:
            yield self
        except BaseException:
            self._succ, self._pred, self._order, self._counter = saved
            raise

    # -- protocols ---------------------------------------------------------

    def __len__(self):
        return len(self._succ)

    def __contains__(self, node):
        return node in self._succ

    def __iter__(self):
        return iter(list(self._succ))

    def __eq__(self, other):
        if not isinstance(other, Graph):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self):
        return f"Graph(nodes={len(self)}, edges={self.edge_count()})"
