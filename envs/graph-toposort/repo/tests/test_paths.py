import pytest

from graphlib2 import (
    CycleError,
    EdgeNotFound,
    Graph,
    NegativeWeightError,
    NodeNotFound,
    NoPathError,
    bfs_predecessors,
    dag_longest_path,
    dijkstra,
    path_weight,
    reconstruct_path,
    shortest_path,
    shortest_path_length,
    single_source_lengths,
)


def roads():
    return Graph(
        [
            ("s", "a", 7),
            ("s", "b", 2),
            ("b", "a", 3),
            ("a", "t", 1),
            ("b", "c", 8),
            ("c", "t", 1),
            ("b", "t", 9),
            ("t", "u", 4),
        ]
    )


def test_dijkstra_distances_and_predecessors():
    dist, prev = dijkstra(roads(), "s")
    assert dist == {"s": 0, "a": 5, "b": 2, "t": 6, "c": 10, "u": 10}
    assert prev == {"s": None, "a": "b", "b": "s", "t": "a", "c": "b", "u": "t"}


def test_dijkstra_stops_at_target():
    dist, prev = dijkstra(roads(), "s", target="a")
    assert dist["a"] == 5
    assert "u" not in dist
    assert prev["a"] == "b"


def test_dijkstra_keeps_first_of_equal_paths():
    g = Graph([("s", "x", 1), ("s", "y", 1), ("x", "t", 1), ("y", "t", 1)])
    assert shortest_path(g, "s", "t") == ["s", "x", "t"]
    g2 = Graph([("s", "y", 1), ("s", "x", 1), ("x", "t", 1), ("y", "t", 1)])
    assert shortest_path(g2, "s", "t") == ["s", "y", "t"]


def test_dijkstra_handles_zero_weights_and_rejects_negative():
    g = Graph([("a", "b", 0), ("b", "c", 0), ("a", "c", 1)])
    assert dijkstra(g, "a")[0] == {"a": 0, "b": 0, "c": 0}
    bad = Graph([("a", "b", 1), ("b", "c", -2)])
    with pytest.raises(NegativeWeightError, match="'b' -> 'c' has negative weight -2"):
        dijkstra(bad, "a")
    with pytest.raises(NodeNotFound):
        dijkstra(g, "zz")


def test_weighted_and_unweighted_shortest_paths_differ():
    g = roads()
    assert shortest_path(g, "s", "t") == ["s", "b", "a", "t"]
    assert shortest_path(g, "s", "t", weighted=False) == ["s", "a", "t"]
    assert shortest_path_length(g, "s", "t") == 6
    assert shortest_path_length(g, "s", "t", weighted=False) == 2
    assert shortest_path_length(g, "s", "u", weighted=False) == 3
    assert shortest_path(g, "c", "c") == ["c"]
    assert shortest_path_length(g, "c", "c") == 0


def test_unreachable_targets_raise_no_path():
    g = roads()
    g.add_node("island")
    with pytest.raises(NoPathError) as info:
        shortest_path(g, "s", "island")
    assert str(info.value) == "no path from 's' to 'island'"
    assert (info.value.source, info.value.target) == ("s", "island")
    with pytest.raises(NoPathError):
        shortest_path(g, "u", "s", weighted=False)
    with pytest.raises(NodeNotFound):
        shortest_path(g, "s", "nowhere")


def test_bfs_predecessors_fewest_edges():
    assert bfs_predecessors(roads(), "b") == {"b": None, "a": "b", "c": "b", "t": "b", "u": "t"}


def test_reconstruct_path():
    prev = {"s": None, "a": "s", "b": "a"}
    assert reconstruct_path(prev, "s", "b") == ["s", "a", "b"]
    assert reconstruct_path(prev, "s", "s") == ["s"]
    with pytest.raises(NoPathError):
        reconstruct_path(prev, "s", "q")
    with pytest.raises(NoPathError):
        reconstruct_path(prev, "a", "b")


def test_path_weight():
    g = roads()
    assert path_weight(g, ["s", "b", "c", "t", "u"]) == 15
    assert path_weight(g, ["s"]) == 0
    assert path_weight(g, []) == 0
    with pytest.raises(EdgeNotFound):
        path_weight(g, ["s", "t"])


def test_single_source_lengths():
    g = roads()
    assert single_source_lengths(g, "s") == {"s": 0, "a": 5, "b": 2, "t": 6, "c": 10, "u": 10}
    assert single_source_lengths(g, "s", weighted=False) == {"s": 0, "a": 1, "b": 1, "t": 2, "c": 2, "u": 3}
    assert single_source_lengths(g, "u", weighted=False) == {"u": 0}


def test_dag_longest_path():
    g = Graph([("a", "b", 3), ("a", "c", 2), ("b", "d", 4), ("c", "d", 6), ("d", "e", 1), ("c", "e", 2)])
    assert dag_longest_path(g) == (9, ["a", "c", "d", "e"])
    assert dag_longest_path(Graph()) == (0, [])
    lone = Graph()
    lone.add_nodes(["p", "q"])
    assert dag_longest_path(lone) == (0, ["p"])


def test_dag_longest_path_ties_and_negative_weights():
    g = Graph([("a", "b", 2), ("a", "c", 2), ("b", "d", 1), ("c", "d", 1)])
    assert dag_longest_path(g) == (3, ["a", "b", "d"])
    neg = Graph([("x", "y", -5), ("z", "y", -1)])
    assert dag_longest_path(neg) == (0, ["x"])
    neg.add_edge("y", "w", 10)
    assert dag_longest_path(neg) == (9, ["z", "y", "w"])
    with pytest.raises(CycleError):
        dag_longest_path(Graph([(1, 2), (2, 1)]))
