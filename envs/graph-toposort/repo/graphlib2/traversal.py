"""Depth-first and breadth-first traversals."""

from collections import deque

from .graph import NodeNotFound


class Traversal:
    """Base class of the traversals. Roots and neighbours are visited in
    insertion order; with reverse=True edges are followed backwards."""

    def __init__(self, graph, reverse=False):
        self.graph = graph
        self.reverse = reverse

    def neighbors(self, node):
        if self.reverse:
            return self.graph.predecessors(node)
        return self.graph.successors(node)

    def roots(self, roots=None):
        if roots is None:
            return self.graph.nodes()
        result = []
        for root in roots:
            if not self.graph.has_node(root):
                raise NodeNotFound(root)
            result.append(root)
        return result

    def order(self, roots=None):
        raise NotImplementedError

    def reachable(self, roots):
        """Every node reachable from the roots, roots included."""
        return set(self.order(roots))


class DepthFirst(Traversal):
    """Iterative depth-first search, optionally limited to `depth_limit`
    edges away from each root."""

    def __init__(self, graph, reverse=False, depth_limit=None):
        super().__init__(graph, reverse)
        if depth_limit is not None and depth_limit < 0:
            raise ValueError("depth_limit must not be negative")
        self.depth_limit = depth_limit

    def _walk(self, roots):
        pre, post = [], []
        visited = set()
        for root in self.roots(roots):
            if root in visited:
                continue
            visited.add(root)
            pre.append(root)
            stack = [(root, 0, iter(self.neighbors(root)))]
            while stack:
                node, depth, it = stack[-1]
                for nxt in it:
                    if nxt in visited:
                        continue
                    if self.depth_limit is not None and depth >= self.depth_limit:
                        continue
                    visited.add(nxt)
                    pre.append(nxt)
                    stack.append((nxt, depth + 1, iter(self.neighbors(nxt))))
                    break
                else:
                    stack.pop()
                    post.append(node)
        return pre, post

    def preorder(self, roots=None):
        return self._walk(roots)[0]

    def postorder(self, roots=None):
        return self._walk(roots)[1]

    def order(self, roots=None):
        return self.preorder(roots)

    def classify_edges(self, roots=None):
        """Labels each explored edge 'tree', 'back', 'forward' or 'cross'."""
        discovered = {}
        finished = set()
        labels = {}
        clock = 0
        for root in self.roots(roots):
            if root in discovered:
                continue
            discovered[root] = clock
            clock += 1
            stack = [(root, iter(self.neighbors(root)))]
            while stack:
                node, it = stack[-1]
                for nxt in it:
                    edge = (nxt, node) if self.reverse else (node, nxt)
                    if nxt not in discovered:
                        labels[edge] = "tree"
                        discovered[nxt] = clock
                        clock += 1
                        stack.append((nxt, iter(self.neighbors(nxt))))
                        break
                    if nxt not in finished:
                        labels[edge] = "back"
                    elif discovered[node] < discovered[nxt]:
                        labels[edge] = "forward"
                    else:
                        labels[edge] = "cross"
                else:
                    stack.pop()
                    finished.add(node)
        return labels


class BreadthFirst(Traversal):
    """Breadth-first search; also reports hop distances and BFS trees."""

    def _search(self, roots):
        parent = {}
        distance = {}
        order = []
        for root in self.roots(roots):
            if root in distance:
                continue
            distance[root] = 0
            parent[root] = None
            queue = deque([root])
            while queue:
                node = queue.popleft()
                order.append(node)
                for nxt in self.neighbors(node):
                    if nxt not in distance:
                        distance[nxt] = distance[node] + 1
                        parent[nxt] = node
                        queue.append(nxt)
        return order, distance, parent

    def order(self, roots=None):
        return self._search(roots)[0]

    def distances(self, source):
        return self._search([source])[1]

    def tree(self, source):
        """Maps each reached node to its BFS parent (None for the source)."""
        return self._search([source])[2]

    def levels(self, source):
        """Nodes grouped by hop distance from `source`."""
        order, distance, _ = self._search([source])
        groups = []
        for node in order:
            d = distance[node]
            if d == len(groups):
                groups.append([])
            groups[d].append(node)
        return groups


def dfs_preorder(graph, source=None, depth_limit=None):
    roots = None if source is None else [source]
    return DepthFirst(graph, depth_limit=depth_limit).preorder(roots)


def dfs_postorder(graph, source=None):
    roots = None if source is None else [source]
    return DepthFirst(graph).postorder(roots)


def bfs(graph, source=None):
    roots = None if source is None else [source]
    return BreadthFirst(graph).order(roots)


def descendants(graph, node):
    """Nodes reachable from `node`, excluding it unless it lies on a cycle."""
    found = set()
    for succ in graph.successors(node):
        if succ not in found:
            found |= BreadthFirst(graph).reachable([succ])
    return found


def ancestors(graph, node):
    """Nodes from which `node` is reachable, excluding it unless on a cycle."""
    found = set()
    for pred in graph.predecessors(node):
        if pred not in found:
            found |= BreadthFirst(graph, reverse=True).reachable([pred])
    return found


def has_path(graph, source, target):
    if not graph.has_node(target):
        raise NodeNotFound(target)
    if source == target:
        return True
    return target in descendants(graph, source)
