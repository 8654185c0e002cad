import pytest

from graphlib2 import (
    BreadthFirst,
    DepthFirst,
    Graph,
    NodeNotFound,
    Traversal,
    ancestors,
    bfs,
    descendants,
    dfs_postorder,
    dfs_preorder,
    has_path,
)


def sample():
    # b -> d -> e -> b is a cycle; a -> e is a shortcut; f feeds into c.
    return Graph([("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "e"), ("e", "b"), ("f", "c"), ("a", "e")])


def test_dfs_preorder_and_postorder_over_all_roots():
    g = sample()
    assert dfs_preorder(g) == ["a", "b", "d", "e", "c", "f"]
    assert dfs_postorder(g) == ["e", "d", "b", "c", "a", "f"]


def test_dfs_from_a_single_source():
    g = sample()
    assert dfs_preorder(g, "c") == ["c", "d", "e", "b"]
    assert dfs_postorder(g, "c") == ["b", "e", "d", "c"]
    assert dfs_preorder(g, "f") == ["f", "c", "d", "e", "b"]


def test_dfs_depth_limit():
    g = sample()
    assert dfs_preorder(g, "a", depth_limit=0) == ["a"]
    assert dfs_preorder(g, "a", depth_limit=1) == ["a", "b", "c", "e"]
    assert dfs_preorder(g, "a", depth_limit=2) == ["a", "b", "d", "c", "e"]
    assert dfs_preorder(g, "f", depth_limit=2) == ["f", "c", "d"]
    with pytest.raises(ValueError, match="must not be negative"):
        DepthFirst(g, depth_limit=-1)


def test_dfs_reverse_follows_predecessors():
    g = sample()
    assert DepthFirst(g, reverse=True).preorder(["d"]) == ["d", "b", "a", "e", "c", "f"]
    assert DepthFirst(g, reverse=True).postorder(["c"]) == ["a", "f", "c"]


def test_edge_classification():
    labels = DepthFirst(sample()).classify_edges()
    assert labels == {
        ("a", "b"): "tree",
        ("b", "d"): "tree",
        ("d", "e"): "tree",
        ("e", "b"): "back",
        ("a", "c"): "tree",
        ("c", "d"): "cross",
        ("a", "e"): "forward",
        ("f", "c"): "cross",
    }


def test_edge_classification_reverse_reports_real_edge_direction():
    g = Graph([("x", "y"), ("y", "z"), ("x", "z")])
    labels = DepthFirst(g, reverse=True).classify_edges(["z"])
    assert labels == {("y", "z"): "tree", ("x", "y"): "tree", ("x", "z"): "forward"}


def test_bfs_order_distances_tree_and_levels():
    g = sample()
    assert bfs(g, "a") == ["a", "b", "c", "e", "d"]
    assert bfs(g) == ["a", "b", "c", "e", "d", "f"]
    search = BreadthFirst(g)
    assert search.distances("a") == {"a": 0, "b": 1, "c": 1, "e": 1, "d": 2}
    assert search.tree("a") == {"a": None, "b": "a", "c": "a", "e": "a", "d": "b"}
    assert search.levels("a") == [["a"], ["b", "c", "e"], ["d"]]
    assert search.levels("f") == [["f"], ["c"], ["d"], ["e"], ["b"]]


def test_bfs_reverse_distances():
    assert BreadthFirst(sample(), reverse=True).distances("d") == {"d": 0, "b": 1, "c": 1, "a": 2, "e": 2, "f": 2}


def test_reachable_sets():
    g = sample()
    assert DepthFirst(g).reachable(["c"]) == {"c", "d", "e", "b"}
    assert BreadthFirst(g).reachable(["f", "a"]) == {"a", "b", "c", "d", "e", "f"}


def test_descendants_and_ancestors():
    g = sample()
    assert descendants(g, "a") == {"b", "c", "d", "e"}
    assert descendants(g, "b") == {"b", "d", "e"}
    assert descendants(g, "f") == {"b", "c", "d", "e"}
    assert ancestors(g, "d") == {"a", "b", "c", "d", "e", "f"}
    assert ancestors(g, "a") == set()
    assert ancestors(g, "c") == {"a", "f"}


def test_has_path():
    g = sample()
    assert has_path(g, "f", "b") is True
    assert has_path(g, "f", "a") is False
    assert has_path(g, "a", "a") is True
    assert has_path(g, "e", "d") is True
    with pytest.raises(NodeNotFound):
        has_path(g, "a", "zz")
    with pytest.raises(NodeNotFound):
        has_path(g, "zz", "a")


def test_base_traversal_contract():
    g = sample()
    with pytest.raises(NotImplementedError):
        Traversal(g).order()
    with pytest.raises(NodeNotFound):
        BreadthFirst(g).order(["a", "missing"])
    assert Traversal(g).roots() == ["a", "b", "c", "d", "e", "f"]
    assert Traversal(g).roots(["c", "a"]) == ["c", "a"]
    with pytest.raises(NodeNotFound):
        Traversal(g).roots(["zz"])
    assert Traversal(g, reverse=True).neighbors("d") == ["b", "c"]
    assert Traversal(g).neighbors("d") == ["e"]
