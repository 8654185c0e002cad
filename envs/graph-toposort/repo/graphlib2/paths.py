"""Shortest and longest paths."""

import heapq
from collections import deque

from .graph import GraphError, NodeNotFound
from .toposort import topological_sort


class NoPathError(GraphError):
    def __init__(self, source, target):
        super().__init__(f"no path from {source!r} to {target!r}")
        self.source = source
        self.target = target


class NegativeWeightError(GraphError, ValueError):
    pass


def _check(graph, *nodes):
    for node in nodes:
        if not graph.has_node(node):
            raise NodeNotFound(node)


def dijkstra(graph, source, target=None):
    """Single-source shortest paths for non-negative weights.

    Returns (distance, previous): distances of every reached node and the
    predecessor of each on its shortest path. When `target` is given the
    search stops as soon as it is settled. Of several equally short paths the
    first one found is kept.
    """
    distance = {source: 0}
    previous = {source: None}
    settled = set()
    heap = [(0, graph.order_of(source), source)]
    while heap:
        dist, _, node = heapq.heappop(heap)
        if node in settled:
            continue
        settled.add(node)
        if node == target:
            break
        for succ in graph.successors(node):
            w = graph.weight(node, succ)
            if w < 0:
                raise NegativeWeightError(f"edge {node!r} -> {succ!r} has negative weight {w}")
            candidate = dist + w
            if succ not in distance or candidate < distance[succ]:
                distance[succ] = candidate
                previous[succ] = node
                heapq.heappush(heap, (candidate, graph.order_of(succ), succ))
    return distance, previous


def reconstruct_path(previous, source, target):
    """Walks the predecessor map back from target; raises NoPathError."""
    if target not in previous:
        raise NoPathError(source, target)
    path = []
    node = target
    while node is not None:
        path.append(node)
        node = previous[node]
    path.reverse()
    if path[0] != source:
        raise NoPathError(source, target)
    return path


def bfs_predecessors(graph, source):
    """Predecessor map of a breadth-first search (fewest edges)."""
    previous = {source: None}
    queue = deque([source])
    while queue:
        node = queue.popleft()
        for succ in graph.successors(node):
            if succ not in previous:
                previous[succ] = node
                queue.append(succ)
    return previous


def shortest_path(graph, source, target, weighted=True):
    """Nodes of a shortest path from source to target (inclusive)."""
    _check(graph, source, target)
    if weighted:
        _, previous = dijkstra(graph, source, target)
    else:
        previous = bfs_predecessors(graph, source)
    return reconstruct_path(previous, source, target)


def path_weight(graph, path):
    """Sum of the edge weights along a path given as a node list."""
    total = 0
    for i in range(len(path) - 1):
        total += graph.weight(path[i], path[i + 1])
    return total


def shortest_path_length(graph, source, target, weighted=True):
    path = shortest_path(graph, source, target, weighted)
    if weighted:
        return path_weight(graph, path)
    return len(path) - 1


def single_source_lengths(graph, source, weighted=True):
    """Distances from source to every reachable node."""
    if weighted:
        return dijkstra(graph, source)[0]
    previous = bfs_predecessors(graph, source)
    hops = {source: 0}
    for node in previous:
        if node != source:
            hops[node] = hops[previous[node]] + 1
    return hops


def dag_longest_path(graph):
    """Critical path of a DAG: (total weight, nodes). Ties keep the path found
    first in topological order. Raises CycleError on a cyclic graph."""
    order = topological_sort(graph)
    if not order:
        return 0, []
    best = {}
    previous = {}
    for node in order:
        best[node] = 0
        previous[node] = None
        for pred in graph.predecessors(node):
            candidate = best[pred] + graph.weight(pred, node)
            if previous[node] is None or candidate > best[node]:
                best[node] = candidate
                previous[node] = pred
    end = order[0]
    for node in order:
        if best[node] > best[end]:
            end = node
    path = []
    node = end
    while node is not None:
        path.append(node)
        node = previous[node]
    path.reverse()
    return best[end], path
