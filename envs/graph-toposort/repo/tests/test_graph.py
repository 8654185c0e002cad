import pytest

from graphlib2 import EdgeNotFound, Graph, GraphError, NodeNotFound, SelfLoopError


def diamond():
    return Graph([("a", "b", 2), ("a", "c", 5), ("b", "d", 1), ("c", "d", 1)])


def test_add_node_reports_novelty_and_keeps_order():
    g = Graph()
    assert g.add_node("x") is True
    assert g.add_node("y") is True
    assert g.add_node("x") is False
    assert g.add_nodes(["z", "x", "w"]) == 2
    assert g.nodes() == ["x", "y", "z", "w"]
    assert [g.order_of(n) for n in g.nodes()] == [0, 1, 2, 3]
    assert len(g) == 4


def test_add_edge_creates_nodes_and_stores_weights():
    g = diamond()
    assert g.nodes() == ["a", "b", "c", "d"]
    assert g.edges() == [("a", "b", 2), ("a", "c", 5), ("b", "d", 1), ("c", "d", 1)]
    assert g.weight("a", "c") == 5
    assert g.edge_count() == 4
    assert g.total_weight() == 9
    g.add_edge("a", "c", 0.5)
    assert g.weight("a", "c") == 0.5
    assert g.edge_count() == 4
    assert g.total_weight() == 4.5


def test_add_edges_accepts_pairs_and_triples_only():
    g = Graph()
    g.add_edges([(1, 2), (2, 3, 7)])
    assert g.edges() == [(1, 2, 1), (2, 3, 7)]
    with pytest.raises(ValueError, match="2 or 3 items, got 1"):
        g.add_edges([(1,)])
    with pytest.raises(ValueError, match="got 4"):
        g.add_edges([(1, 2, 3, 4)])


def test_rejects_bad_weights_and_self_loops():
    g = Graph()
    with pytest.raises(TypeError, match="weight must be a number, not str"):
        g.add_edge("a", "b", "heavy")
    with pytest.raises(TypeError, match="not bool"):
        g.add_edge("a", "b", True)
    with pytest.raises(SelfLoopError, match="self loop on 'a' is not allowed"):
        g.add_edge("a", "a")
    assert len(g) == 0
    loops = Graph(allow_self_loops=True)
    loops.add_edge("a", "a", 3)
    assert loops.successors("a") == ["a"]
    assert loops.predecessors("a") == ["a"]


def test_successors_predecessors_and_degrees():
    g = diamond()
    assert g.successors("a") == ["b", "c"]
    assert g.predecessors("d") == ["b", "c"]
    assert g.predecessors("a") == []
    assert (g.out_degree("a"), g.in_degree("a")) == (2, 0)
    assert (g.out_degree("d"), g.in_degree("d")) == (0, 2)
    assert (g.out_degree("b"), g.in_degree("b")) == (1, 1)
    assert g.sources() == ["a"]
    assert g.sinks() == ["d"]


def test_missing_nodes_and_edges_raise_specific_errors():
    g = diamond()
    with pytest.raises(NodeNotFound) as info:
        g.successors("zz")
    assert info.value.node == "zz"
    assert str(info.value) == "node 'zz' is not in the graph"
    assert info.value.args == ("zz",)
    assert isinstance(info.value, KeyError) and isinstance(info.value, GraphError)
    with pytest.raises(EdgeNotFound) as edge_info:
        g.weight("b", "a")
    assert str(edge_info.value) == "edge 'b' -> 'a' is not in the graph"
    assert (edge_info.value.source, edge_info.value.target) == ("b", "a")
    assert edge_info.value.args == (("b", "a"),)
    with pytest.raises(EdgeNotFound):
        g.remove_edge("a", "d")
    for method in (g.predecessors, g.in_degree, g.out_degree, g.order_of, g.remove_node):
        with pytest.raises(NodeNotFound):
            method("nope")


def test_remove_edge_updates_both_directions():
    g = diamond()
    g.remove_edge("a", "b")
    assert g.has_edge("a", "b") is False
    assert g.successors("a") == ["c"]
    assert g.predecessors("b") == []
    assert g.has_node("b")
    assert g.has_edge("zz", "a") is False


def test_remove_node_drops_incident_edges():
    g = diamond()
    g.remove_node("b")
    assert g.nodes() == ["a", "c", "d"]
    assert g.edges() == [("a", "c", 5), ("c", "d", 1)]
    assert g.predecessors("d") == ["c"]
    assert "b" not in g
    g.add_node("b")
    assert g.order_of("b") == 4


def test_remove_node_with_self_loop():
    g = Graph([("a", "a"), ("a", "b"), ("c", "a")], allow_self_loops=True)
    g.remove_node("a")
    assert g.nodes() == ["b", "c"]
    assert g.edges() == []
    assert g.successors("c") == []


def test_copy_is_independent_and_equal():
    g = diamond()
    clone = g.copy()
    assert clone == g
    clone.add_edge("d", "e")
    assert clone != g
    assert g.nodes() == ["a", "b", "c", "d"]
    assert Graph([("x", "y")]).__eq__("not a graph") is NotImplemented
    g.add_node("lonely")
    assert g.copy().nodes() == ["a", "b", "c", "d", "lonely"]


def test_reverse_turns_edges_around():
    r = diamond().reverse()
    assert r.nodes() == ["a", "b", "c", "d"]
    assert r.edges() == [("b", "a", 2), ("c", "a", 5), ("d", "b", 1), ("d", "c", 1)]
    assert r.sources() == ["d"]


def test_subgraph_keeps_order_and_internal_edges():
    g = diamond()
    sub = g.subgraph(["d", "b", "a"])
    assert sub.nodes() == ["a", "b", "d"]
    assert sub.edges() == [("a", "b", 2), ("b", "d", 1)]
    with pytest.raises(NodeNotFound):
        g.subgraph(["a", "q"])
    apart = g.subgraph(["d", "a"])
    assert apart.nodes() == ["a", "d"]
    assert apart.edges() == []


def test_dict_round_trip_and_list_adjacency():
    g = diamond()
    assert g.to_dict() == {"a": {"b": 2, "c": 5}, "b": {"d": 1}, "c": {"d": 1}, "d": {}}
    assert Graph.from_dict(g.to_dict()) == g
    h = Graph.from_dict({"x": ["y", "z"], "q": []})
    assert h.nodes() == ["x", "y", "z", "q"]
    assert h.edges() == [("x", "y", 1), ("x", "z", 1)]
    with pytest.raises(SelfLoopError):
        Graph.from_dict({"s": ["s"]})
    assert Graph.from_dict({"s": {"s": 2}}, allow_self_loops=True).edges() == [("s", "s", 2)]


def test_transaction_commits_on_success():
    g = diamond()
    with g.transaction() as tx:
        assert tx is g
        g.add_edge("d", "e", 4)
        g.remove_node("a")
    assert g.nodes() == ["b", "c", "d", "e"]
    assert g.weight("d", "e") == 4


def test_transaction_rolls_back_on_error():
    g = diamond()
    with pytest.raises(SelfLoopError):
        with g.transaction():
            g.add_edge("d", "e")
            g.remove_edge("a", "b")
            g.add_edge("e", "e")
    assert g == diamond()
    assert g.nodes() == ["a", "b", "c", "d"]
    g.add_node("f")
    assert g.order_of("f") == 4


def test_protocols_and_repr():
    g = diamond()
    assert list(g) == ["a", "b", "c", "d"]
    assert "c" in g and "z" not in g
    assert repr(g) == "Graph(nodes=4, edges=4)"
    for node in g:
        g.add_node(node + "2")
    assert len(g) == 8
