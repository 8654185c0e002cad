"""Connected components, condensation, transitive closure and reduction."""

from .graph import Graph
from .toposort import topological_sort


class DisjointSet:
    """Union-find with path halving and union by size."""

    def __init__(self, items=()):
        self._parent = {}
        self._size = {}
        for item in items:
            self.add(item)

    def add(self, item):
        if item not in self._parent:
            self._parent[item] = item
            self._size[item] = 1

    def find(self, item):
        while self._parent[item] != item:
            self._parent[item] = self._parent[self._parent[item]]
            item = self._parent[item]
        return item

    def union(self, a, b):
        """Merges the sets of a and b; returns False when already merged."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self._size[ra] < self._size[rb]:
            ra, rb = rb, ra
        self._parent[rb] = ra
        self._size[ra] += self._size[rb]
        return True

    def connected(self, a, b):
        return self.find(a) == self.find(b)

    def size_of(self, item):
        return self._size[self.find(item)]

    def __len__(self):
        return sum(1 for item, parent in self._parent.items() if item == parent)


def strongly_connected_components(graph):
    """Tarjan's algorithm (iterative). Components come out in reverse
    topological order of the condensation; the nodes of each component are
    listed in insertion order."""
    index = {}
    low = {}
    on_stack = set()
    stack = []
    result = []
    counter = 0
    for root in graph.nodes():
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(graph.successors(root)))]
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph.successors(nxt))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                component.sort(key=graph.order_of)
                result.append(component)
    return result


def is_strongly_connected(graph):
    return len(strongly_connected_components(graph)) == 1


def condensation(graph):
    """Collapses each strongly connected component into one node.

    Returns (dag, membership): the nodes of `dag` are component numbers in
    topological order (0 first) and `membership` maps every original node to
    its component number. Edge weights between two components are summed.
    """
    components = list(reversed(strongly_connected_components(graph)))
    membership = {}
    for number, component in enumerate(components):
        for node in component:
            membership[node] = number
    dag = Graph()
    dag.add_nodes(range(len(components)))
    for source, target, w in graph.edges():
        a, b = membership[source], membership[target]
        if a == b:
            continue
        if dag.has_edge(a, b):
            dag.add_edge(a, b, dag.weight(a, b) + w)
        else:
            dag.add_edge(a, b, w)
    return dag, membership


def weakly_connected_components(graph):
    """Components ignoring edge direction, ordered by their first node; nodes
    within a component keep insertion order."""
    sets = DisjointSet(graph.nodes())
    for source, target, _ in graph.edges():
        sets.union(source, target)
    groups = {}
    for node in graph.nodes():
        groups.setdefault(sets.find(node), []).append(node)
    return list(groups.values())


def transitive_closure(graph):
    """A graph with an edge u -> v (weight 1) whenever v is reachable from u
    by a path of at least one edge. Self loops appear only for nodes on a
    cycle and only when the graph allows them."""
    closure = Graph(allow_self_loops=graph.allow_self_loops)
    closure.add_nodes(graph.nodes())
    for node in graph.nodes():
        seen = set()
        frontier = list(graph.successors(node))
        while frontier:
            nxt = frontier.pop()
            if nxt in seen:
                continue
            seen.add(nxt)
            frontier.extend(graph.successors(nxt))
        for target in graph.nodes():
            if target not in seen:
                continue
            if target == node and not graph.allow_self_loops:
                continue
            closure.add_edge(node, target)
    return closure


def transitive_reduction(graph):
    """The smallest graph with the same reachability as a DAG: an edge u -> v
    is kept only when no longer path leads from u to v. Weights are kept.
    Raises CycleError on a cyclic graph."""
    order = topological_sort(graph)
    reach = {}
    for node in reversed(order):
        reachable = set()
        for succ in graph.successors(node):
            reachable.add(succ)
            reachable |= reach[succ]
        reach[node] = reachable
    reduced = Graph()
    reduced.add_nodes(graph.nodes())
    for source, target, w in graph.edges():
        redundant = False
        for middle in graph.successors(source):
            if target in reach[middle]:
                redundant = True
                break
        if not redundant:
            reduced.add_edge(source, target, w)
    return reduced
